#pragma once
// What `moewb traffic` and `moewb placement RUN` read from a stored run: its row, its
// config record and its expert load summed over a window of steps.
#include "common/Expected.h"
#include "placement/ExpertPlacement.h"
#include "record/ConfigRecord.h"
#include "store/ProjectStore.h"
#include "traffic/DispatchTraffic.h"
#include "traffic/LoadWindow.h"

#include <QCommandLineParser>

#include <optional>

namespace moewb::cli {

struct RunLoadInput {
    store::RunRow run;
    record::ConfigRecord record;
    traffic::LayerLoads loads;
};

// The whole number an option of `moewb traffic` / `moewb placement` gives, when it lies
// in [min, max]; else nullopt (the caller's usage error names the range).
std::optional<qint64> wholeNumberOption(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min,
                                        qint64 max);

// Errors are sentences naming the run or the step range.
Expected<RunLoadInput, QString> readRunLoad(const store::ProjectStore& project, const QString& runName,
                                            const QString& stepsText);

// The dispatch matrix of a run's measured routing (docs/traffic.md), as `moewb traffic`
// and `moewb run stage1 --pattern from-run:RUN[:LAYER]` compute it.
struct RunTrafficOptions {
    QString layer = QStringLiteral("worst"); // a layer number, "worst" or "all"
    QString steps;                           // "A-B" etc.; empty: every step
    QString placementFile;                   // empty: contiguous over parallelism.ep
    std::optional<qint64> tokensPerRank;     // empty: batch.sequence_length
    int bytesPerElement = 2;
};
struct RunTraffic {
    RunLoadInput input;
    traffic::DispatchShape shape;
    traffic::TrafficMatrix measured;
    traffic::TrafficMatrix uniform; // the same model with uniform routing
    int layer = -1;                 // the layer shown; -1 for "all"
    int layersSummed = 1;
    bool contiguous = true;
    bool tokensFromOption = false;
    QString layerLabel;    // for the reader
    QString placementText; // "contiguous over EP 8" / "from FILE"
    // The '#' header lines of the matrix file.
    QStringList matrixHeader(const QString& runName) const;
};
// Errors are sentences naming the run, the record field or the file.
Expected<RunTraffic, QString> computeRunTraffic(const store::ProjectStore& project, const QString& runName,
                                                const RunTrafficOptions& options);
// The model's name for the reader.
QString dedupModelText();

} // namespace moewb::cli
