#pragma once
// Writing expert load as it is read (schema version 5, docs/store.md): rows of
// (step, layer, counts) go in, and each layer's rows are cut into chunks of
// kChunkSteps steps, encoded and compressed with their summary on worker threads
// (QtConcurrent's pool), and inserted on the caller's connection inside the caller's
// transaction. Nothing is committed here: a run written through a sink is still one
// transaction (ProjectStore::saveRun, RunData::expertLoadStream).
#include "store/ExpertLoadCodec.h"

#include <QSqlDatabase>
#include <QString>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <span>

namespace moewb::store {

// One (step, layer) as stage 3 reads it, without its counts.
struct ExpertLoadSummaryRow {
    qint64 step = 0;
    int layer = 0;
    int experts = 0;
    quint64 sum = 0;
    quint32 max = 0;
    int argmax = 0;         // the first expert with the max
    int expertParallel = 0; // the EP size busiestRankTokens was computed for; 0 = not known at import
    std::optional<quint64> busiestRankTokens;
    std::optional<qint64> droppedTokens;

    double mean() const { return experts > 0 ? double(sum) / double(experts) : 0.0; }
    // max / mean, exactly as stats::summarizeLoad computes it; NaN when sum is 0.
    double loadRatio() const {
        return sum == 0 ? std::numeric_limits<double>::quiet_NaN() : double(max) * double(experts) / double(sum);
    }
    // The busiest EP rank's tokens / all tokens of the layer (ideal 1/EP).
    std::optional<double> busiestShare() const {
        if (!busiestRankTokens || sum == 0)
            return std::nullopt;
        return double(*busiestRankTokens) / double(sum);
    }
};

class ExpertLoadSink {
public:
    // runId: the run being written; expertParallel: its EP size (0 when unknown: the
    // summary then has no busiest-rank figure). The connection must be inside a
    // transaction for as long as the sink writes.
    ExpertLoadSink(QSqlDatabase db, qint64 runId, int expertParallel);
    ~ExpertLoadSink();
    ExpertLoadSink(const ExpertLoadSink&) = delete;
    ExpertLoadSink& operator=(const ExpertLoadSink&) = delete;

    // Each layer's rows come in strictly increasing step order (layers may
    // interleave). False on a repeated or earlier step of a layer, an empty row or a
    // failed write; error() says which.
    bool add(qint64 step, int layer, std::span<const quint32> counts, std::optional<qint64> droppedTokens = {});
    // Writes the partly filled chunks and waits for every worker. False on a failed write.
    bool finish();
    QString error() const;
    qint64 blocks() const; // (step, layer) rows accepted
    qint64 chunks() const; // chunks written

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace moewb::store
