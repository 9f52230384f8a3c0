#pragma once
// What planImport (RunImport.cpp) and the save and merge (RunSave.cpp) share: the
// bounds, the format names, and merging the files' step metrics and expert load into
// one run (values that agree kept once, the more precise file's; others are errors).
#include "importers/ImportError.h"
#include "importers/ImportedData.h"
#include "store/ProjectStore.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <map>
#include <utility>

namespace moewb::runimport::plansupport {

using importers::ImportError;
using importers::ImportedData;

constexpr int kMaxErrors = 8;
constexpr qsizetype kMaxSourcesInEnvironment = 64;

inline const char* const kTpeFormat = "megatron-tpe-jsonl";
inline const char* const kTraceFormat = "megatron-routing-trace";
inline const char* const kCollectFormat = "moewb-collect-jsonl";

// A tokens-per-expert file of remote/collect: counts over all experts ("experts_scope": "all").
bool allExpertsScope(const ImportedData& d);

// Two values of one metric at one step from two files: the same value?
bool close(double a, double b);
// Which of two agreeing sources keeps its value: the more precise kind of file.
int precisionRank(const QString& format);
// What a file gave, in words (the plan's role column).
QString roleOf(const ImportedData& d);
int rankOf(const ImportedData& d);
QString commonFolder(const QStringList& paths);

struct MetricSource {
    QString shown;
    QString format;
};

struct MetricValue {
    double value = 0.0;
    int source = 0;
};

// Adds `metrics` from source `index` into `merged`, or reports conflicts.
void mergeMetrics(std::map<std::pair<QString, qint64>, MetricValue>& merged, const QList<MetricSource>& sources,
                  const QVector<store::StepMetric>& metrics, int index, QList<ImportError>& errors);

struct LoadValue {
    QVector<quint32> counts;
    int source = 0;
};

// The merged maps as the store takes them (ordered by step, then layer / name).
void appendMerged(std::map<std::pair<QString, qint64>, MetricValue>& metrics,
                  std::map<std::pair<qint64, int>, LoadValue>& load, QVector<store::StepMetric>& metricsOut,
                  QVector<store::ExpertLoadBlock>& loadOut);

void mergeLoad(std::map<std::pair<qint64, int>, LoadValue>& merged, const QStringList& sources,
               const QVector<store::ExpertLoadBlock>& blocks, int index, QList<ImportError>& errors);

} // namespace moewb::runimport::plansupport
