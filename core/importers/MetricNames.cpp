#include "importers/MetricNames.h"

#include <QHash>
#include <QRegularExpression>

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
        QStringLiteral("dropped_tokens"),   QStringLiteral("dropped_assignments"),
        QStringLiteral("assignment_drop_rate"), QStringLiteral("partly_dropped_rate"),
        // Megatron-Core MoEMetricsTracker (moe_logging.py), torchtitan metrics.py, NeMo.
        QStringLiteral("seq_load_balancing_loss"), QStringLiteral("global_load_balancing_loss"),
        QStringLiteral("lm_loss_max"),      QStringLiteral("mfu_percent"),
        QStringLiteral("memory_max_reserved_gib"), QStringLiteral("memory_max_reserved_percent"),
        QStringLiteral("memory_max_active_gib"), QStringLiteral("memory_max_active_percent"),
        QStringLiteral("time_metrics_data_loading_s"), QStringLiteral("time_metrics_data_loading_percent"),
        QStringLiteral("consumed_samples"),
        // From profiler traces (core/anatomy): the busiest rank's and the mean rank's share of its step.
        QStringLiteral("trace_busiest_share"), QStringLiteral("trace_mean_share"),
        // Megatron-Core --log-moe-overload-factor (MoEOverloadFactorTracker): the most
        // loaded EP rank's tokens over the balanced count, averaged / maxed over the
        // interval's layers and micro-batches; the cumulative one over the forward and
        // backward events of the interval.
        QStringLiteral("avg_overload_factor"), QStringLiteral("max_overload_factor"),
        QStringLiteral("max_cum_overload_factor")};
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

namespace {

// NeMo-Automodel's MoE load-balance metrics for W&B (nemo_automodel/components/moe/
// load_balance_metrics.py, compute_brief_metrics / compute_detailed_metrics): a layer's
// expert utilization is its tokens over the fair share total / n_experts, so
// moe/expert_utilization_max is the largest expert load ratio (max / mean) of any layer.
// Empty when `t` (lower case) is none of them.
QString automodelMoeMetricName(const QString& t) {
    static const QHash<QString, QString> scalars{
        {QStringLiteral("moe/cv_mean"), QStringLiteral("load_cv_mean")},
        {QStringLiteral("moe/cv_median"), QStringLiteral("load_cv_median")},
        {QStringLiteral("moe/cv_min"), QStringLiteral("load_cv_min")},
        {QStringLiteral("moe/cv_max"), QStringLiteral("load_cv_max")},
        {QStringLiteral("moe/aux_loss_mean"), QStringLiteral("load_balancing_loss")},
        {QStringLiteral("moe/expert_utilization_p25"), QStringLiteral("expert_utilization_p25")},
        {QStringLiteral("moe/expert_utilization_median"), QStringLiteral("expert_utilization_median")},
        {QStringLiteral("moe/expert_utilization_p75"), QStringLiteral("expert_utilization_p75")},
        {QStringLiteral("moe/expert_utilization_min"), QStringLiteral("expert_utilization_min")},
        {QStringLiteral("moe/expert_utilization_max"), QStringLiteral("expert_utilization_max")},
        {QStringLiteral("moe/dead_expert_frac_mean"), QStringLiteral("dead_expert_frac_mean")},
        {QStringLiteral("moe/expert_diversity_mean"), QStringLiteral("expert_diversity_mean")},
        {QStringLiteral("moe/expert_diversity_min"), QStringLiteral("expert_diversity_min")},
    };
    if (const auto it = scalars.constFind(t); it != scalars.constEnd())
        return *it;
    // Detailed mode, per layer: "moe/layer_<i>/<name>" -> "<name>_layer_<i>".
    static const QHash<QString, QString> perLayer{
        {QStringLiteral("cv"), QStringLiteral("load_cv")},
        {QStringLiteral("aux_loss"), QStringLiteral("load_balancing_loss")},
        {QStringLiteral("utilization_mean"), QStringLiteral("expert_utilization_mean")},
        {QStringLiteral("dead_expert_frac"), QStringLiteral("dead_expert_frac")},
        {QStringLiteral("expert_diversity"), QStringLiteral("expert_diversity")},
    };
    static const QRegularExpression layerKey(QStringLiteral("^moe/layer_(\\d{1,5})/([a-z_]+)$"));
    if (const auto m = layerKey.match(t); m.hasMatch()) {
        const auto it = perLayer.constFind(m.captured(2));
        return it == perLayer.constEnd() ? QString() : *it + QStringLiteral("_layer_") + m.captured(1);
    }
    // The top-K and bottom-K experts: "moe_expert_utilization/layer_<i>_expert_<j>".
    static const QRegularExpression expertKey(QStringLiteral("^moe_expert_utilization/layer_(\\d{1,5})_expert_(\\d{1,7})$"));
    if (const auto m = expertKey.match(t); m.hasMatch())
        return QStringLiteral("expert_utilization_layer_%1_expert_%2").arg(m.captured(1), m.captured(2));
    return {};
}

} // namespace

QString loggedMetricName(const QString& key, double& scale) {
    scale = 1.0;
    const QString t = key.trimmed().toLower();
    struct Known {
        const char* key;
        const char* name;
        double scale;
    };
    static const Known known[] = {
        // torchtitan, torchtitan/components/metrics.py (MetricsProcessor.log / log_validation)
        {"loss_metrics/global_avg_loss", "lm_loss", 1},
        {"loss_metrics/global_max_loss", "lm_loss_max", 1},
        {"throughput(tps)", "tokens_per_s_per_gpu", 1}, // tokens per second per device
        {"tflops", "tflops_per_gpu", 1},
        {"mfu(%)", "mfu_percent", 1},
        {"time_metrics/end_to_end(s)", "elapsed_ms_per_iter", 1000},
        {"ntokens_seen", "tokens", 1},
        {"n_tokens_seen", "tokens", 1},
        {"validation_metrics/loss", "val_loss", 1},
        // NeMo 2 (lightning strategies and callbacks)
        {"reduced_train_loss", "lm_loss", 1},
        {"train_step_timing in s", "elapsed_ms_per_iter", 1000},
        {"lr", "learning_rate", 1},
        {"val_loss", "val_loss", 1},
        {"global_batch_size", "global_batch_size", 1},
        {"consumed_samples", "consumed_samples", 1},
        // Megatron-LM / Megatron-Core writer.add_scalar tags (megatron/training/training.py)
        {"lm loss validation", "val_loss", 1},
        {"lm-loss-validation", "val_loss", 1},
        {"lm loss validation ppl", "val_ppl", 1},
        {"lm-loss-validation-ppl", "val_ppl", 1},
        {"iteration-time", "elapsed_ms_per_iter", 1000}, // seconds
        {"iteration time", "elapsed_ms_per_iter", 1000},
        {"batch-size", "global_batch_size", 1},
        {"batch size", "global_batch_size", 1},
        {"throughput", "tflops_per_gpu", 1}, // TFLOP/s/GPU
        // Megatron-Core --log-moe-overload-factor (moe_utils.py, MoEOverloadFactorTracker.
        // _log_overload_metrics): the same names as its console entry
        // " avg overload factor: 1.250 | max overload factor: 1.750 | max cum overload factor: …"
        {"moe/avg_overload_factor", "avg_overload_factor", 1},
        {"moe/max_overload_factor", "max_overload_factor", 1},
        {"moe/max_cum_overload_factor", "max_cum_overload_factor", 1},
    };
    for (const Known& k : known)
        if (t == QLatin1String(k.key)) {
            scale = k.scale;
            return QString::fromLatin1(k.name);
        }
    if (t.startsWith(QLatin1String("validation_metrics/")) && t.size() > 19) {
        double inner = 1.0;
        const QString name = loggedMetricName(t.mid(19), inner);
        scale = inner;
        return name.startsWith(QLatin1String("val_")) ? name : QStringLiteral("val_") + name;
    }
    if (const QString automodel = automodelMoeMetricName(t); !automodel.isEmpty())
        return automodel;
    // Megatron-Core MoEMetricsTracker, --moe-per-layer-logging: "moe/<name>_layer_<i>".
    if (t.startsWith(QLatin1String("moe/")) && t.contains(QLatin1String("_layer_")))
        return snakeCase(QStringView(t).mid(4));
    QString spaced = t;
    spaced.replace(QLatin1Char('-'), QLatin1Char(' '));
    spaced.replace(QLatin1String("%"), QLatin1String(" percent "));
    return megatronMetricName(spaced);
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
        {QStringLiteral("dropped_assignments"), {0, 1e16}},
        {QStringLiteral("assignment_drop_rate"), {0, 1}},
        {QStringLiteral("partly_dropped_rate"), {0, 1}},
        {QStringLiteral("busiest_device_share"), {0, 1}},
        {QStringLiteral("trace_busiest_share"), {0, 1}},
        {QStringLiteral("trace_mean_share"), {0, 1}},
        {QStringLiteral("seq_load_balancing_loss"), {0, 1e4}},
        {QStringLiteral("global_load_balancing_loss"), {0, 1e4}},
        {QStringLiteral("lm_loss_max"), {0, 1e4}},
        // torchtitan computes MFU against a peak-FLOPS table that falls back to the A100's
        // figure for unknown GPUs, so a newer GPU can print more than 100 %.
        {QStringLiteral("mfu_percent"), {0, 1000}},
        // torchtitan writes -1 bytes (-> about -1e-9 GiB / %) when the allocator lacks a statistic.
        {QStringLiteral("memory_max_reserved_gib"), {-1, 1e6}},
        {QStringLiteral("memory_max_reserved_percent"), {-1, 100}},
        {QStringLiteral("memory_max_active_gib"), {-1, 1e6}},
        {QStringLiteral("memory_max_active_percent"), {-1, 100}},
        {QStringLiteral("time_metrics_data_loading_s"), {0, 86400}},
        {QStringLiteral("time_metrics_data_loading_percent"), {0, 100}},
        {QStringLiteral("consumed_samples"), {0, 1e15}},
        // A ratio to the balanced count: at least 0 (an EP rank that got nothing), at most
        // the EP size (everything on one rank; EP ≤ 2^20 as the record's bounds).
        {QStringLiteral("load_cv"), {0, 1e4}},
        {QStringLiteral("load_cv_mean"), {0, 1e4}},
        {QStringLiteral("load_cv_median"), {0, 1e4}},
        {QStringLiteral("load_cv_min"), {0, 1e4}},
        {QStringLiteral("load_cv_max"), {0, 1e4}},
        {QStringLiteral("expert_utilization_mean"), {0, 1048576}},
        {QStringLiteral("expert_utilization_p25"), {0, 1048576}},
        {QStringLiteral("expert_utilization_median"), {0, 1048576}},
        {QStringLiteral("expert_utilization_p75"), {0, 1048576}},
        {QStringLiteral("expert_utilization_min"), {0, 1048576}},
        {QStringLiteral("expert_utilization_max"), {0, 1048576}},
        {QStringLiteral("dead_expert_frac"), {0, 1}},
        {QStringLiteral("dead_expert_frac_mean"), {0, 1}},
        {QStringLiteral("expert_diversity"), {0, 1}},
        {QStringLiteral("expert_diversity_mean"), {0, 1}},
        {QStringLiteral("expert_diversity_min"), {0, 1}},
        {QStringLiteral("straggler_rtt_ms_min"), {0, 8.64e7}},
        {QStringLiteral("straggler_rtt_ms_max"), {0, 8.64e7}},
        {QStringLiteral("straggler_rtt_rank_min"), {0, 1048576}},
        {QStringLiteral("straggler_rtt_rank_max"), {0, 1048576}},
        {QStringLiteral("avg_overload_factor"), {0, 1048576}},
        {QStringLiteral("max_overload_factor"), {0, 1048576}},
        {QStringLiteral("max_cum_overload_factor"), {0, 1048576}},
    };
    const auto it = ranges.constFind(name);
    if (it != ranges.constEnd())
        return *it;
    // Per-layer MoE metrics ("load_balancing_loss_layer_3") take their base metric's range.
    const qsizetype at = name.lastIndexOf(QLatin1String("_layer_"));
    if (at > 0) {
        bool digits = at + 7 < name.size();
        for (qsizetype i = at + 7; i < name.size() && digits; ++i)
            digits = name[i].isDigit();
        if (digits) {
            const auto base = ranges.constFind(name.left(at));
            if (base != ranges.constEnd())
                return *base;
        }
    }
    return MetricRange{-1e18, 1e18};
}

} // namespace moewb::importers
