#include "importers/NcclTestsAlltoallv.h"

#include "importers/ImportLimits.h"
#include "importers/ImportSupport.h"
#include "importers/NcclTestsTextTable.h"
#include "importers/NcclTestsText.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>

#include <algorithm>
#include <utility>

namespace moewb::importers::nccltests {

namespace {

// Ranks listed one by one in environment.alltoallv.ranks; the rest are counted.
constexpr int kListedRanks = 1024;

ImportError errorAt(const QString& file, qint64 line, const QString& field, const QString& message) {
    return ImportError{file, line, clipped(field), clipped(message, kMaxMessageChars)};
}

// "key=value" tokens of a summary line, in order.
std::vector<std::pair<std::string_view, std::string_view>> keyValues(std::string_view text) {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    for (const std::string_view token : splitWhitespace(text)) {
        const size_t eq = token.find('=');
        out.emplace_back(token.substr(0, eq), eq == std::string_view::npos ? std::string_view() : token.substr(eq + 1));
    }
    return out;
}

std::optional<std::string_view> valueOf(const std::vector<std::pair<std::string_view, std::string_view>>& kv,
                                        std::string_view key) {
    for (const auto& [k, v] : kv)
        if (k == key)
            return v;
    return std::nullopt;
}

quint64 busiestOf(const std::vector<quint64>& sent, const std::vector<quint64>& received, int* rank = nullptr) {
    quint64 most = 0;
    int at = 0;
    for (size_t r = 0; r < sent.size(); ++r) {
        const quint64 b = std::max(sent[r], received[r]);
        if (b > most) {
            most = b;
            at = int(r);
        }
    }
    if (rank)
        *rank = at;
    return most;
}

// The mean of the ranks' sent bytes, rounded to a byte.
quint64 meanOf(const std::vector<quint64>& sent) {
    if (sent.empty())
        return 0;
    // 2^20 ranks x 2^44 bytes (ImportLimits.h) can pass 2^64.
    __extension__ typedef unsigned __int128 Wide;
    Wide sum = 0;
    for (const quint64 b : sent)
        sum += b;
    const Wide n = sent.size();
    return quint64((sum + n / 2) / n);
}

QString scaleText(double scale) {
    return QString::number(scale, 'f', 3);
}

} // namespace

std::optional<ImportError> parseSummaryHeader(std::string_view text, qint64 line, const QString& file,
                                              AlltoallvSummary& into) {
    // alltoallv.cu AlltoAllvPrintRankBandwidths: "mode=matrix nranks=%d matrix_dim=%d
    // scale=%.3f time_usec=%.2f" or "mode=generated nranks=%d total_bytes=%zu spread=%.3f
    // time_usec=%.2f".
    const auto kv = keyValues(text);
    into = AlltoallvSummary{};
    into.line = line;
    const auto mode = valueOf(kv, "mode");
    if (!mode || (*mode != "matrix" && *mode != "generated"))
        return errorAt(file, line, QStringLiteral("mode"),
                       ImportTr::tr("alltoallv_perf's summary line names no mode=matrix or mode=generated: \"%1\"")
                           .arg(excerpt(text, 80)));
    into.mode = toQString(*mode);
    QString why;
    auto integer = [&](std::string_view key, qint64 min, qint64 max, qint64& value) -> std::optional<ImportError> {
        const auto v = valueOf(kv, key);
        if (!v)
            return errorAt(file, line, toQString(key),
                           ImportTr::tr("is missing from alltoallv_perf's summary line"));
        if (!parseIntegral(*v, min, max, value, why))
            return errorAt(file, line, toQString(key), why);
        return std::nullopt;
    };
    auto number = [&](std::string_view key, double& value) -> std::optional<ImportError> {
        const auto v = valueOf(kv, key);
        if (!v)
            return errorAt(file, line, toQString(key),
                           ImportTr::tr("is missing from alltoallv_perf's summary line"));
        if (!parseFiniteDouble(*v, value, why))
            return errorAt(file, line, toQString(key), why);
        if (value < 0)
            return errorAt(file, line, toQString(key), ImportTr::tr("must not be negative"));
        return std::nullopt;
    };
    qint64 ranks = 0, dim = 0, total = 0;
    double time = 0;
    if (auto e = integer("nranks", 1, kMaxRanks, ranks))
        return e;
    into.ranks = int(ranks);
    if (into.mode == QLatin1String("matrix")) {
        if (auto e = integer("matrix_dim", 1, kMaxRanks, dim))
            return e;
        if (dim < ranks)
            return errorAt(file, line, QStringLiteral("matrix_dim"),
                           ImportTr::tr("is %1, fewer than the %2 ranks (alltoallv_perf refuses such a matrix)")
                               .arg(dim)
                               .arg(ranks));
        into.matrixDim = int(dim);
        if (auto e = number("scale", into.scale))
            return e;
    } else {
        if (auto e = integer("total_bytes", 0, kMaxBytesPerRank, total))
            return e;
        into.totalBytes = total;
        if (auto e = number("spread", into.spread))
            return e;
    }
    if (auto e = number("time_usec", time))
        return e;
    into.sent.reserve(size_t(std::min<qint64>(ranks, 1 << 16)));
    into.received.reserve(size_t(std::min<qint64>(ranks, 1 << 16)));
    return std::nullopt;
}

std::optional<ImportError> parseSummaryRank(std::string_view text, qint64 line, const QString& file,
                                            AlltoallvSummary& into) {
    // "rank=%d send_bytes=%zu recv_bytes=%zu alg_bw=%.2f bus_bw=%.2f"
    const auto kv = keyValues(text);
    QString why;
    qint64 rank = 0, sent = 0, received = 0;
    const auto r = valueOf(kv, "rank");
    if (!r || !parseIntegral(*r, 0, kMaxRanks, rank, why))
        return errorAt(file, line, QStringLiteral("rank"),
                       r ? why : ImportTr::tr("an alltoallv_perf summary line without rank="));
    if (into.complete())
        return errorAt(file, line, QStringLiteral("rank"),
                       ImportTr::tr("is %1, past the %2 ranks of the summary on line %3")
                           .arg(rank)
                           .arg(into.ranks)
                           .arg(into.line));
    if (rank != qint64(into.sent.size()))
        return errorAt(file, line, QStringLiteral("rank"),
                       ImportTr::tr("is %1 where alltoallv_perf prints rank %2 (its ranks in order)")
                           .arg(rank)
                           .arg(into.sent.size()));
    for (const auto& [key, value] : {std::pair{std::string_view("send_bytes"), &sent},
                                     std::pair{std::string_view("recv_bytes"), &received}}) {
        const auto v = valueOf(kv, key);
        if (!v)
            return errorAt(file, line, toQString(key),
                           ImportTr::tr("is missing from alltoallv_perf's summary line"));
        if (!parseIntegral(*v, 0, kMaxBytesPerRank, *value, why))
            return errorAt(file, line, toQString(key), why);
    }
    into.sent.push_back(quint64(sent));
    into.received.push_back(quint64(received));
    return std::nullopt;
}

RowSummaryCheck takeRowSummaries(Table& table, std::vector<AlltoallvSummary>& summaries, qint64 size,
                                 qint64 rowLine, const QString& file) {
    RowSummaryCheck out;
    for (const AlltoallvSummary& s : summaries)
        if (!s.complete()) {
            out.error = errorAt(file, s.line, QStringLiteral("rank"),
                                ImportTr::tr("alltoallv_perf's summary lists %1 of its %2 ranks (nranks=%2): the row "
                                             "is cut")
                                    .arg(s.sent.size())
                                    .arg(s.ranks));
            return out;
        }
    const AlltoallvSummary& first = summaries.front();
    for (size_t i = 1; i < summaries.size(); ++i) {
        const AlltoallvSummary& s = summaries[i];
        if (s.mode != first.mode || s.sent != first.sent || s.received != first.received) {
            out.error = errorAt(file, s.line, QStringLiteral("send_bytes"),
                                ImportTr::tr("this summary differs from the one on line %1 for the same row: the lines "
                                             "of different rows are mixed")
                                    .arg(first.line));
            return out;
        }
    }
    const quint64 busiest = busiestOf(first.sent, first.received);
    if (busiest != quint64(size)) {
        out.error = errorAt(file, rowLine, QStringLiteral("size"),
                            ImportTr::tr("is %1, but the alltoallv summary on line %2 gives the busiest rank %3 bytes "
                                         "(alltoallv_perf prints the largest send_bytes or recv_bytes as the size)")
                                .arg(size)
                                .arg(first.line)
                                .arg(busiest));
        return out;
    }
    if (table.summary) {
        const AlltoallvSummary& kept = *table.summary;
        if (first.mode != kept.mode || first.ranks != kept.ranks) {
            out.error = errorAt(file, first.line, QStringLiteral("mode"),
                                ImportTr::tr("mode=%1 nranks=%2, but the first row's summary (line %3) says mode=%4 "
                                             "nranks=%5: one alltoallv_perf run has one")
                                    .arg(first.mode)
                                    .arg(first.ranks)
                                    .arg(kept.line)
                                    .arg(kept.mode)
                                    .arg(kept.ranks));
            return out;
        }
        if (first.mode == QLatin1String("matrix") && (first.sent != kept.sent || first.received != kept.received)) {
            size_t r = 0;
            while (r < kept.sent.size() && first.sent[r] == kept.sent[r] && first.received[r] == kept.received[r])
                ++r;
            out.error = errorAt(file, first.line, QStringLiteral("send_bytes"),
                                ImportTr::tr("rank %1 sends %2 and receives %3 bytes here, %4 and %5 in the first "
                                             "row's summary (line %6): one alltoallv_perf run sends one matrix")
                                    .arg(r)
                                    .arg(first.sent[r])
                                    .arg(first.received[r])
                                    .arg(kept.sent[r])
                                    .arg(kept.received[r])
                                    .arg(kept.line));
            return out;
        }
    }
    out.bytesPerRank = meanOf(first.sent);
    if (!table.summary)
        table.summary = std::move(summaries.front());
    ++table.summaryRows;
    return out;
}

std::optional<ImportError> resolveAlltoallv(Table& table, const TableFacts& facts, const QString& file,
                                            const TrafficMatrixFile* matrix) {
    if (facts.collective != QLatin1String("alltoallv")) {
        if (table.summary)
            return errorAt(file, table.summary->line, QStringLiteral("collective"),
                           ImportTr::tr("alltoallv_perf's summary lines in a %1 test").arg(facts.collective));
        return std::nullopt;
    }
    if (table.summaryRows > 0 && table.firstRowWithoutSummary)
        return errorAt(file, table.firstRowWithoutSummary, QStringLiteral("row"),
                       ImportTr::tr("prints no alltoallv summary, where the rows with one (from line %1) do: one "
                                    "alltoallv_perf run prints it for every row or for none")
                           .arg(table.summary->line));
    const AlltoallvSummary* summary = table.summary ? &*table.summary : nullptr;
    if (summary && summary->ranks != facts.world)
        return errorAt(file, summary->line, QStringLiteral("nranks"),
                       ImportTr::tr("is %1, but the test has %2 ranks (%3)")
                           .arg(summary->ranks)
                           .arg(facts.world)
                           .arg(facts.worldSource));
    if (!matrix) {
        if (table.matrixRowsWithoutSummary > 0)
            return errorAt(
                file, table.firstMatrixRowWithoutSummary, QStringLiteral("count"),
                ImportTr::tr("is 0: alltoallv_perf ran a traffic matrix (NCCL_TESTS_ALLTOALLV_MATRIX_FILE) and prints "
                             "only its busiest rank's bytes as the size, not the bytes each rank sends; run it with "
                             "NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1, or give the matrix it read: --alltoallv-matrix FILE "
                             "(and --alltoallv-scale S if NCCL_TESTS_ALLTOALLV_MATRIX_SCALE was set)"));
        return std::nullopt;
    }
    // The matrix file given.
    if (summary && summary->mode != QLatin1String("matrix"))
        return errorAt(file, summary->line, QStringLiteral("mode"),
                       ImportTr::tr("is %1: alltoallv_perf ran its own pattern, not a traffic matrix, so "
                                    "--alltoallv-matrix does not apply")
                           .arg(summary->mode));
    for (const RowCheck& r : table.checks)
        if (r.count > 0)
            return errorAt(file, r.line, QStringLiteral("count"),
                           ImportTr::tr("is %1: alltoallv_perf ran its generated pattern (no "
                                        "NCCL_TESTS_ALLTOALLV_MATRIX_FILE), so --alltoallv-matrix does not apply")
                               .arg(r.count));
    const int ranks = int(facts.world);
    if (matrix->dim < ranks)
        return ImportError{matrix->file, 0, QStringLiteral("matrix"), matrixTooSmall(*matrix, ranks)};
    std::vector<quint64> sent(static_cast<size_t>(ranks)), received(static_cast<size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        sent[size_t(r)] = matrix->sent(r, ranks);
        received[size_t(r)] = matrix->received(r, ranks);
    }
    if (summary) {
        for (int r = 0; r < ranks; ++r)
            if (summary->sent[size_t(r)] != sent[size_t(r)] || summary->received[size_t(r)] != received[size_t(r)])
                return errorAt(file, summary->line, QStringLiteral("send_bytes"),
                               ImportTr::tr("rank %1 sends %2 and receives %3 bytes by this summary, %4 and %5 by the "
                                            "matrix %6 at scale %7: not the matrix this run read, or another "
                                            "NCCL_TESTS_ALLTOALLV_MATRIX_SCALE")
                                   .arg(r)
                                   .arg(summary->sent[size_t(r)])
                                   .arg(summary->received[size_t(r)])
                                   .arg(sent[size_t(r)])
                                   .arg(received[size_t(r)])
                                   .arg(matrix->file)
                                   .arg(matrix->scale));
        return std::nullopt;
    }
    const quint64 busiest = busiestOf(sent, received);
    const quint64 mean = meanOf(sent);
    for (size_t i = 0; i < table.checks.size(); ++i) {
        const RowCheck& r = table.checks[i];
        if (r.size == 0)
            continue;
        if (quint64(r.size) != busiest)
            return errorAt(file, r.line, QStringLiteral("size"),
                           ImportTr::tr("is %1, but the matrix %2 at scale %3 gives the busiest rank %4 bytes (the size "
                                        "alltoallv_perf prints): not the matrix this run read, or another "
                                        "NCCL_TESTS_ALLTOALLV_MATRIX_SCALE")
                               .arg(r.size)
                               .arg(matrix->file)
                               .arg(matrix->scale)
                               .arg(busiest));
        table.times[i].size = qint64(mean);
    }
    table.bytesFromMatrixFile = true;
    return std::nullopt;
}

void noteAlltoallv(const Table& table, const TableFacts& facts, const TrafficMatrixFile* matrix, QJsonObject& env) {
    if (facts.collective != QLatin1String("alltoallv") || (!table.summary && !table.bytesFromMatrixFile))
        return;
    const AlltoallvSummary* summary = table.summary ? &*table.summary : nullptr;
    const int ranks = int(facts.world);
    std::vector<quint64> sent, received;
    if (summary) {
        sent = summary->sent;
        received = summary->received;
    } else {
        for (int r = 0; r < ranks; ++r) {
            sent.push_back(matrix->sent(r, ranks));
            received.push_back(matrix->received(r, ranks));
        }
    }
    const bool isMatrix = !summary || summary->mode == QLatin1String("matrix");
    QJsonObject o{{QStringLiteral("mode"), isMatrix ? QStringLiteral("matrix") : QStringLiteral("generated")}};
    QStringList sources;
    if (summary) {
        sources << QStringLiteral("summary lines (NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1)");
        o.insert(QStringLiteral("summary_rows"), table.summaryRows);
        o.insert(QStringLiteral("summary_line"), summary->line);
        if (isMatrix) {
            o.insert(QStringLiteral("matrix_dim"), summary->matrixDim);
            o.insert(QStringLiteral("scale"), summary->scale);
        } else {
            o.insert(QStringLiteral("total_bytes"), summary->totalBytes);
            o.insert(QStringLiteral("spread"), summary->spread);
        }
    }
    if (matrix) {
        sources << QStringLiteral("matrix file (--alltoallv-matrix)");
        o.insert(QStringLiteral("matrix_file"), matrix->file);
        o.insert(QStringLiteral("matrix_dim"), matrix->dim);
        o.insert(QStringLiteral("scale"), matrix->scale);
    }
    o.insert(QStringLiteral("source"), sources.join(QStringLiteral(" + ")));
    int busiestRank = 0;
    const quint64 busiest = busiestOf(sent, received, &busiestRank);
    o.insert(QStringLiteral("bytes_per_rank"), qint64(meanOf(sent)));
    o.insert(QStringLiteral("busiest_rank"), busiestRank);
    o.insert(QStringLiteral("busiest_rank_bytes"), qint64(busiest));
    QJsonArray list;
    for (size_t r = 0; r < sent.size() && r < size_t(kListedRanks); ++r)
        list.append(QJsonObject{{QStringLiteral("rank"), qint64(r)},
                                {QStringLiteral("send_bytes"), qint64(sent[r])},
                                {QStringLiteral("recv_bytes"), qint64(received[r])}});
    o.insert(QStringLiteral("ranks"), list);
    if (sent.size() > size_t(kListedRanks))
        o.insert(QStringLiteral("ranks_not_listed"), qint64(sent.size()) - kListedRanks);
    if (isMatrix)
        o.insert(QStringLiteral("samples_bytes_per_rank"),
                 QStringLiteral("the mean of the ranks' send_bytes (the matrix's mean row sum, the bytes a rank sends "
                                "on average), not the size column (the busiest rank's bytes)"));
    env.insert(QStringLiteral("alltoallv"), o);
    if (isMatrix) {
        const int dim = summary ? summary->matrixDim : matrix->dim;
        const double scale = summary ? summary->scale : matrix->scale;
        env.insert(QStringLiteral("pattern"), QStringLiteral("alltoallv_perf matrix"));
        env.insert(QStringLiteral("pattern_origin"),
                   matrix ? QStringLiteral("alltoallv_perf matrix %1 (%2×%2, scale %3)")
                                .arg(matrix->file)
                                .arg(dim)
                                .arg(scaleText(scale))
                          : QStringLiteral("alltoallv_perf matrix (%1×%1, scale %2)").arg(dim).arg(scaleText(scale)));
    } else {
        env.insert(QStringLiteral("pattern"),
                   QStringLiteral("alltoallv_perf generated (spread %1)").arg(scaleText(summary->spread)));
    }
}

} // namespace moewb::importers::nccltests
