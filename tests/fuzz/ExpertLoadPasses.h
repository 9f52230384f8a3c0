#pragma once
// The expert-load JSONL readers' three passes (importers/ExpertLoadJsonl.h) checked
// against each other on one input, the way a streamed import uses them: Keep (all
// counts in memory) is the reference; Scan must accept whatever Keep accepts, with the
// same row count and width; Stream, given the Scan's pass, must hand on exactly Keep's
// rows (step, layer, counts, in order) when Keep accepts, and fail when it does not.
// Small blocks (a few lines each, and lines cut across blocks) for the block reader.
#include "importers/ExpertLoadJsonl.h"

#include <QBuffer>

#include <cstdlib>

namespace moewb::fuzz {

inline void checkExpertLoadPasses(const QByteArray& bytes, const importers::ExpertLoadJsonlLayout& layout,
                                  const importers::ImportResult& keep) {
    using importers::ExpertLoadJsonlPass;
    const qint64 block = 64 + qint64(bytes.size() % 97);
    QBuffer scanDevice;
    scanDevice.setData(bytes);
    scanDevice.open(QIODevice::ReadOnly);
    ExpertLoadJsonlPass scan;
    scan.mode = ExpertLoadJsonlPass::Mode::Scan;
    const auto scanned = importers::parseExpertLoadJsonl(scanDevice, bytes.size(), QStringLiteral("fuzz-input"), layout,
                                                         scan, block);
    if (keep.hasValue() && (!scanned.hasValue() || scan.rows != keep.value().expertLoad.size()))
        abort();
    if (!scanned.hasValue())
        return;
    if (scanned.value().rows != (keep.hasValue() ? keep.value().rows : scanned.value().rows))
        abort();
    for (const auto& b : scanned.value().expertLoad)
        if (!b.tokensPerExpert.isEmpty())
            abort(); // the scan keeps no counts
    QBuffer streamDevice;
    streamDevice.setData(bytes);
    streamDevice.open(QIODevice::ReadOnly);
    ExpertLoadJsonlPass stream = scan;
    stream.mode = ExpertLoadJsonlPass::Mode::Stream;
    qsizetype next = 0;
    stream.row = [&](qint64 step, int layer, std::span<const quint32> counts) {
        if (!keep.hasValue())
            return true;
        const auto& blocks = keep.value().expertLoad;
        if (next >= blocks.size())
            abort();
        const auto& b = blocks[next++];
        if (b.step != step || b.layer != layer || size_t(b.tokensPerExpert.size()) != counts.size() ||
            !std::equal(counts.begin(), counts.end(), b.tokensPerExpert.cbegin()))
            abort();
        return true;
    };
    const auto streamed = importers::parseExpertLoadJsonl(streamDevice, bytes.size(), QStringLiteral("fuzz-input"),
                                                          layout, stream, block);
    if (streamed.hasValue() != keep.hasValue() || stream.stopped)
        abort();
    if (keep.hasValue() && next != keep.value().expertLoad.size())
        abort();
    if (!streamed.hasValue() && (streamed.error().file != QLatin1String("fuzz-input") || streamed.error().message.isEmpty()))
        abort();
}

} // namespace moewb::fuzz
