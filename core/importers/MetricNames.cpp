#include "importers/MetricNames.h"

#include <QHash>

namespace moewb::importers {

const QStringList& canonicalMetricNames() {
    static const QStringList names{
        QStringLiteral("lm_loss"),          QStringLiteral("val_loss"),
        QStringLiteral("val_ppl"),          QStringLiteral("load_balancing_loss"),
        QStringLiteral("z_loss"),           QStringLiteral("moe_loss"),
        QStringLiteral("tokens_per_s_per_gpu"), QStringLiteral("tflops_per_gpu"),
        QStringLiteral("elapsed_ms_per_iter"),  QStringLiteral("global_batch_size"),
        QStringLiteral("learning_rate"),    QStringLiteral("grad_norm"),
        QStringLiteral("skipped_iterations"), QStringLiteral("nan_iterations"),
        QStringLiteral("tokens"),           QStringLiteral("drop_rate"),
        QStringLiteral("dropped_tokens")};
    return names;
}

QString snakeCase(QStringView text) {
    QString out;
    out.reserve(text.size());
    bool pendingUnderscore = false;
    for (QChar c : text) {
        if (c.isLetterOrNumber() && c.unicode() < 128) {
            if (pendingUnderscore && !out.isEmpty())
                out += QLatin1Char('_');
            pendingUnderscore = false;
            out += c.toLower();
        } else {
            pendingUnderscore = true;
        }
    }
    return out;
}

QString megatronMetricName(QStringView key) {
    static const QHash<QString, QString> known{
        {QStringLiteral("lm_loss"), QStringLiteral("lm_loss")},
        {QStringLiteral("load_balancing_loss"), QStringLiteral("load_balancing_loss")},
        {QStringLiteral("z_loss"), QStringLiteral("z_loss")},
        {QStringLiteral("moe_loss"), QStringLiteral("moe_loss")},
        {QStringLiteral("moe_aux_loss"), QStringLiteral("load_balancing_loss")},
        {QStringLiteral("throughput_per_gpu_tflop_s_gpu"), QStringLiteral("tflops_per_gpu")},
        {QStringLiteral("throughput_tflop_s_gpu"), QStringLiteral("tflops_per_gpu")},
        {QStringLiteral("tflops"), QStringLiteral("tflops_per_gpu")},
        {QStringLiteral("tflops_per_gpu"), QStringLiteral("tflops_per_gpu")},
        {QStringLiteral("elapsed_time_per_iteration_ms"), QStringLiteral("elapsed_ms_per_iter")},
        {QStringLiteral("global_batch_size"), QStringLiteral("global_batch_size")},
        {QStringLiteral("learning_rate"), QStringLiteral("learning_rate")},
        {QStringLiteral("grad_norm"), QStringLiteral("grad_norm")},
        {QStringLiteral("number_of_skipped_iterations"), QStringLiteral("skipped_iterations")},
        {QStringLiteral("number_of_nan_iterations"), QStringLiteral("nan_iterations")},
        {QStringLiteral("consumed_tokens"), QStringLiteral("tokens")},
        {QStringLiteral("drop_rate"), QStringLiteral("drop_rate")},
        {QStringLiteral("token_drop_rate"), QStringLiteral("drop_rate")},
        {QStringLiteral("dropped_tokens"), QStringLiteral("dropped_tokens")},
        {QStringLiteral("tokens_per_s_per_gpu"), QStringLiteral("tokens_per_s_per_gpu")},
    };
    const QString snake = snakeCase(key);
    const auto it = known.constFind(snake);
    if (it != known.constEnd())
        return *it;
    // "tokens per second per GPU", "throughput (tokens/s/GPU)", "tokens/sec/gpu", ...
    if (snake.contains(QLatin1String("token")) && snake.contains(QLatin1String("gpu")) &&
        (snake.contains(QLatin1String("sec")) || snake.contains(QLatin1String("_s_")) ||
         snake.endsWith(QLatin1String("_s"))))
        return QStringLiteral("tokens_per_s_per_gpu");
    return snake;
}

bool isValidMetricName(QStringView name) {
    if (name.isEmpty() || name.size() > 64 || !(name.front() >= QLatin1Char('a') && name.front() <= QLatin1Char('z')))
        return false;
    for (QChar c : name)
        if (!((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
              c == QLatin1Char('_')))
            return false;
    return true;
}

MetricRange metricRange(const QString& name) {
    static const QHash<QString, MetricRange> ranges{
        {QStringLiteral("lm_loss"), {0, 1e4}},
        {QStringLiteral("val_loss"), {0, 1e4}},
        {QStringLiteral("val_ppl"), {1, 1e12}},
        {QStringLiteral("load_balancing_loss"), {0, 1e4}},
        {QStringLiteral("z_loss"), {0, 1e6}},
        {QStringLiteral("moe_loss"), {0, 1e4}},
        {QStringLiteral("tokens_per_s_per_gpu"), {0, 1e8}},
        {QStringLiteral("tflops_per_gpu"), {0, 1e5}},
        {QStringLiteral("elapsed_ms_per_iter"), {0, 8.64e7}},
        {QStringLiteral("global_batch_size"), {1, 1099511627776.0}},
        {QStringLiteral("learning_rate"), {0, 100}},
        {QStringLiteral("grad_norm"), {0, 1e15}},
        {QStringLiteral("skipped_iterations"), {0, 1e9}},
        {QStringLiteral("nan_iterations"), {0, 1e9}},
        {QStringLiteral("tokens"), {0, 1e16}},
        {QStringLiteral("drop_rate"), {0, 1}},
        {QStringLiteral("dropped_tokens"), {0, 1e16}},
    };
    return ranges.value(name, MetricRange{-1e18, 1e18});
}

} // namespace moewb::importers
