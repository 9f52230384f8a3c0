#include "runimport/PlanSupport.h"

#include "runimport/RunImportTr.h"

#include <QFileInfo>
#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace moewb::runimport::plansupport {

// A tokens-per-expert file of remote/collect: counts over all experts ("experts_scope": "all").
bool allExpertsScope(const ImportedData& d) {
    return d.environment.value(QLatin1String("experts_scope")).toString() == QLatin1String("all");
}

bool close(double a, double b) {
    if (a == b)
        return true;
    const double scale = std::max(std::fabs(a), std::fabs(b));
    // Console logs print 4–7 significant digits where TensorBoard keeps float32:
    // agreeing to 1 part in 1000 is the same value.
    return std::fabs(a - b) <= 1e-3 * scale || std::fabs(a - b) <= 1e-12;
}

// Which of two agreeing sources keeps its value: the more precise kind of file.
int precisionRank(const QString& format) {
    if (format == QLatin1String("tensorboard"))
        return 0;
    if (format == QLatin1String("jsonl-metrics") || format == QLatin1String("csv-metrics") ||
        format == QLatin1String("wandb-csv"))
        return 1;
    return 2;
}

QString roleOf(const ImportedData& d) {
    QStringList parts;
    if (!d.commSamples.isEmpty())
        parts << RunImportTr::tr("%n communication sample(s)", "", int(d.commSamples.size()));
    if (!d.stepMetrics.isEmpty()) {
        QStringList names;
        for (const auto& m : d.stepMetrics)
            if (!names.contains(m.name)) {
                names << m.name;
                if (names.size() > 6)
                    break;
            }
        parts << RunImportTr::tr("step metrics: %1").arg(names.size() > 6 ? names.mid(0, 6).join(QStringLiteral(", ")) + QStringLiteral(", …")
                                                                          : names.join(QStringLiteral(", ")));
    }
    if (!d.expertLoad.isEmpty())
        parts << RunImportTr::tr("expert load: %n block(s)", "", int(d.expertLoad.size()));
    return parts.join(QStringLiteral("; "));
}

int rankOf(const ImportedData& d) {
    const QJsonValue r = d.environment.value(QLatin1String("rank"));
    return r.isDouble() ? r.toInt(-1) : -1;
}

QString commonFolder(const QStringList& paths) {
    if (paths.isEmpty())
        return {};
    QString common = QFileInfo(paths.first()).absolutePath();
    for (const QString& p : paths) {
        const QString dir = QFileInfo(p).absolutePath();
        while (!(dir == common || dir.startsWith(common.endsWith(QLatin1Char('/')) ? common : common + QLatin1Char('/'))))
            common = QFileInfo(common).absolutePath();
    }
    return common;
}

// Adds `metrics` from source `index` into `merged`, or reports conflicts.
void mergeMetrics(std::map<std::pair<QString, qint64>, MetricValue>& merged, const QList<MetricSource>& sources,
                  const QVector<store::StepMetric>& metrics, int index, QList<ImportError>& errors) {
    std::map<std::pair<QString, qint64>, double> own;
    for (const auto& m : metrics)
        own[{m.name, m.step}] = m.value;
    for (const auto& [key, value] : own) {
        auto it = merged.find(key);
        if (it == merged.end()) {
            merged.emplace(key, MetricValue{value, index});
            continue;
        }
        if (close(it->second.value, value)) {
            if (precisionRank(sources[index].format) < precisionRank(sources[it->second.source].format))
                it->second = MetricValue{value, index};
            continue;
        }
        if (errors.size() < kMaxErrors)
            errors << ImportError{sources[index].shown, 0, key.first,
                                  RunImportTr::tr("gives %1 = %2 at step %3, but %4 gives %5: files of two trainings? "
                                                  "Import them as separate runs")
                                      .arg(key.first)
                                      .arg(value, 0, 'g', 8)
                                      .arg(key.second)
                                      .arg(sources[it->second.source].shown)
                                      .arg(it->second.value, 0, 'g', 8)};
    }
}

// The merged maps as the store takes them (ordered by step, then layer / name).
void appendMerged(std::map<std::pair<QString, qint64>, MetricValue>& metrics,
                  std::map<std::pair<qint64, int>, LoadValue>& load, QVector<store::StepMetric>& metricsOut,
                  QVector<store::ExpertLoadBlock>& loadOut) {
    metricsOut.reserve(qsizetype(metrics.size()));
    for (const auto& [key, v] : metrics)
        metricsOut.append(store::StepMetric{key.second, key.first, v.value});
    loadOut.reserve(qsizetype(load.size()));
    for (auto& [key, v] : load) {
        store::ExpertLoadBlock b;
        b.step = key.first;
        b.layer = key.second;
        b.tokensPerExpert = std::move(v.counts);
        loadOut.append(std::move(b));
    }
}

void mergeLoad(std::map<std::pair<qint64, int>, LoadValue>& merged, const QStringList& sources,
               const QVector<store::ExpertLoadBlock>& blocks, int index, QList<ImportError>& errors) {
    for (const auto& b : blocks) {
        auto it = merged.find({b.step, b.layer});
        if (it == merged.end()) {
            merged.emplace(std::make_pair(b.step, b.layer), LoadValue{b.tokensPerExpert, index});
            continue;
        }
        if (it->second.counts == b.tokensPerExpert)
            continue;
        if (errors.size() < kMaxErrors)
            errors << ImportError{sources[index], 0, {},
                                  RunImportTr::tr("gives other expert load at step %1, layer %2 than %3")
                                      .arg(b.step)
                                      .arg(b.layer)
                                      .arg(sources[it->second.source])};
    }
}

} // namespace moewb::runimport::plansupport
