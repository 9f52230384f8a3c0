#include "importers/NcclTestsTextImporter.h"

#include "importers/ImportLimits.h"
#include "importers/NcclTestsText.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <cmath>
#include <vector>

namespace moewb::importers {

namespace {

using namespace nccltests;


std::vector<std::string_view> splitWhitespace(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
    return out;
}

struct RankLine {
    int rank = 0;
    QString host;
    QString model;
};

// One test as nccl-tests prints it: "# nThread ..." header, the device list, the
// column header, the rows, the summary lines.
struct Block {
    qint64 headerLine = 0;
    int headerCount = 0; // "# nThread" lines seen before the table (>1: interleaved jobs)
    qint64 secondHeaderLine = 0;
    QJsonObject options;
    int nThread = 1, nGpus = 1;
    QString collective;        // from "# Collective test starting:"
    qint64 collectiveLine = 0;
    std::vector<RankLine> ranks;
    QHash<int, int> rankSeen;  // rank -> times listed
    qint64 duplicateRankLine = 0;
    bool rankListCut = false;
    // Columns after the left part (size count type [redop] [root]).
    QStringList rightColumns;
    int leftColumns = 0;       // size, count, type, redop, root present in the header
    int rightTokens = 0;       // tokens the right part takes in a row
    int oopTime = -1, oopAlgbw = -1, oopBusbw = -1, oopWrong = -1, ipTime = -1;
    qint64 tableLine = 0;
    bool columnsDerived = false; // rows pasted without their column header: layout from the first row
    int derivedValues = 0;       // the values of the row the layout was derived from
    qint64 firstRowLine = 0;
    int lastRowValues = 0;
    qint64 rows = 0;
    qint64 lastRowLine = 0;
    bool footer = false;
    QStringList redops; // the distinct redop values of the rows, in order of appearance
    QString type;
};

struct RowCheck {
    qint64 size = 0;
    qint64 count = 0;
    QString type;
    qint64 line = 0;
};

const QRegularExpression& nThreadRe() {
    static const QRegularExpression re(QStringLiteral(
        R"(^nThread\s+(\d+)\s+nGpus\s+(\d+)\s+minBytes\s+(\d+)\s+maxBytes\s+(\d+)\s+step:\s*(\d+)\((factor|bytes)\)\s+warmup iters:\s*(\d+)\s+iters:\s*(\d+)(?:\s+agg iters:\s*(\d+))?\s+validation:\s*(\d+)(?:\s+graph:\s*(\d+))?)"));
    return re;
}
const QRegularExpression& rankRe() {
    static const QRegularExpression re(QStringLiteral(
        R"(^Rank\s+(\d+)\s+(?:Group\s+(\d+)\s+)?Pid\s+(\d+)\s+on\s+(\S+)\s+device\s+(\d+)\s+\[([^\]]*)\]\s*(.*)$)"));
    return re;
}

} // namespace

ImportResult NcclTestsTextImporter::parse(const QByteArray& bytes, const QString& file) {
    return parseWith(bytes, file, NcclTestsTextOptions{});
}

ImportResult NcclTestsTextImporter::parseWith(const QByteArray& bytes, const QString& file,
                                              const NcclTestsTextOptions& given) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QJsonObject& env = data.environment;
    // The in-place time of each row, parallel to the samples (null where the row has none):
    // a column of numbers, not an object per row.
    QJsonArray inPlaceTimes;
    bool anyInPlace = false;
    QString ncclVersion, testsVersion;
    std::vector<Block> blocks;
    Block* current = nullptr;
    QHash<qint64, int> occurrences; // size -> rows seen
    std::vector<RowCheck> rowChecks;

    {
        // Sized once: at most one sample (and one group) per line that starts with a
        // digit (a data row starts with its size).
        qsizetype rowLines = 0;
        bool lineStart = true;
        for (const char c : bytes) {
            if (c == '\n') {
                lineStart = true;
            } else if (lineStart && c != ' ' && c != '\t') {
                lineStart = false;
                rowLines += (c >= '0' && c <= '9') ? 1 : 0;
            }
        }
        data.commSamples.reserve(rowLines, rowLines);
        rowChecks.reserve(size_t(rowLines));
    }
    TextLines lines(bytes);
    std::string_view line;
    bool lastLineWasRow = false;
    bool lastHadNewline = true;
    auto fail = [&](qint64 at, const QString& field, const QString& message) {
        return importError(file, at, field, message);
    };
    // A column header (read from the file, or derived from a row pasted without one)
    // sets the block's row layout.
    auto applyHeader = [&](Block& b, const QStringList& cols, qint64 n) -> std::optional<ImportError> {
        int left = 0;
        while (left < cols.size() && QStringList{QStringLiteral("size"), QStringLiteral("count"),
                                                 QStringLiteral("type"), QStringLiteral("redop"),
                                                 QStringLiteral("root")}
                                         .contains(cols[left]))
            ++left;
        if (left < 3 || cols[0] != QLatin1String("size") || cols[1] != QLatin1String("count") ||
            cols[2] != QLatin1String("type"))
            return ImportError{file, n, QStringLiteral("header"),
                               ImportTr::tr("the column header does not start with size, count, type: \"%1\"")
                                   .arg(cols.join(QLatin1Char(' ')).left(80))};
        if (cols.size() - left > 64)
            return ImportError{file, n, QStringLiteral("header"),
                               ImportTr::tr("the column header has %1 columns; nccl-tests prints at most 20")
                                   .arg(cols.size())};
        b.leftColumns = left;
        b.rightColumns = cols.mid(left);
        b.rightTokens = 0;
        b.oopTime = b.oopAlgbw = b.oopBusbw = b.oopWrong = b.ipTime = -1;
        int timeSeen = 0;
        for (int i = 0; i < b.rightColumns.size(); ++i) {
            const QString& c = b.rightColumns[i];
            b.rightTokens += c == QLatin1String("timestamp") ? 2 : 1;
            if (c == QLatin1String("time") || c == QLatin1String("cputime")) {
                (timeSeen == 0 ? b.oopTime : b.ipTime) = i;
                ++timeSeen;
            } else if (c == QLatin1String("algbw") && timeSeen == 1 && b.oopAlgbw < 0) {
                b.oopAlgbw = i;
            } else if (c == QLatin1String("busbw") && timeSeen == 1 && b.oopBusbw < 0) {
                b.oopBusbw = i;
            } else if ((c == QLatin1String("#wrong") || c == QLatin1String("error")) && timeSeen == 1 &&
                       b.oopWrong < 0) {
                b.oopWrong = i;
            }
        }
        if (b.oopTime < 0 || b.oopAlgbw < 0)
            return ImportError{file, n, QStringLiteral("header"),
                               ImportTr::tr("the column header has no time and algbw columns: \"%1\"")
                                   .arg(cols.join(QLatin1Char(' ')).left(80))};
        b.tableLine = n;
        return std::nullopt;
    };
    auto startBlock = [&](qint64 at) {
        blocks.emplace_back();
        current = &blocks.back();
        current->headerLine = at;
    };

    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        lastHadNewline = lines.lastHadNewline();
        lastLineWasRow = false;
        const std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        if (t.front() == '#') {
            const QString body = toQString(trimmed(t.substr(1)));
            if (body.startsWith(QLatin1String("nThread"))) {
                const auto m = nThreadRe().match(body);
                if (!m.hasMatch())
                    return fail(n, QStringLiteral("header"),
                                ImportTr::tr("an nccl-tests header line that cannot be read: \"%1\"").arg(body.left(80)));
                if (!current || current->tableLine > 0 || current->headerCount > 0) {
                    if (current && current->tableLine == 0 && current->headerCount > 0) {
                        ++current->headerCount;
                        if (!current->secondHeaderLine)
                            current->secondHeaderLine = n;
                        continue;
                    }
                    if (!current || current->tableLine > 0)
                        startBlock(n);
                }
                current->headerCount = 1;
                current->nThread = m.captured(1).toInt();
                current->nGpus = m.captured(2).toInt();
                QJsonObject& o = current->options;
                o.insert(QStringLiteral("nthread"), current->nThread);
                o.insert(QStringLiteral("ngpus"), current->nGpus);
                o.insert(QStringLiteral("min_bytes"), m.captured(3).toLongLong());
                o.insert(QStringLiteral("max_bytes"), m.captured(4).toLongLong());
                o.insert(m.captured(6) == QLatin1String("factor") ? QStringLiteral("step_factor")
                                                                   : QStringLiteral("step_bytes"),
                         m.captured(5).toLongLong());
                o.insert(QStringLiteral("warmup_iters"), m.captured(7).toInt());
                o.insert(QStringLiteral("iters"), m.captured(8).toInt());
                if (!m.captured(9).isEmpty())
                    o.insert(QStringLiteral("agg_iters"), m.captured(9).toInt());
                o.insert(QStringLiteral("validation"), m.captured(10).toInt());
                if (!m.captured(11).isEmpty())
                    o.insert(QStringLiteral("graph"), m.captured(11).toInt());
            } else if (body.startsWith(QLatin1String("Collective test starting:"))) {
                if (!current || current->tableLine > 0)
                    startBlock(n);
                current->collective = collectiveFromProgram(body.section(QLatin1Char(':'), 1));
                current->collectiveLine = n;
            } else if (body.startsWith(QLatin1String("nccl-tests version"))) {
                // "2.17.6 nccl-headers=22705 nccl-library=22705"
                const QStringList parts = body.mid(18).trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
                testsVersion = parts.value(0);
                for (const QString& p : parts.mid(1))
                    if (p.startsWith(QLatin1String("nccl-library=")))
                        env.insert(QStringLiteral("nccl_version_code"), p.mid(13).toLongLong());
            } else if (body.startsWith(QLatin1String("Rank "))) {
                if (!current)
                    startBlock(n);
                const auto m = rankRe().match(body);
                if (m.hasMatch()) {
                    const int rank = m.captured(1).toInt();
                    if (++current->rankSeen[rank] == 2 && !current->duplicateRankLine)
                        current->duplicateRankLine = n;
                    current->ranks.push_back(RankLine{rank, m.captured(4), m.captured(7).trimmed()});
                }
            } else if (body.startsWith(QLatin1String("size")) && body.contains(QLatin1String("count"))) {
                if (!current)
                    startBlock(n);
                if (current->tableLine > 0)
                    return fail(n, QStringLiteral("header"),
                                ImportTr::tr("a second column header (the first is on line %1) inside one test: the "
                                             "output of several nccl-tests runs is interleaved; split it into one "
                                             "file per run")
                                    .arg(current->tableLine));
                const QStringList cols = body.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
                if (auto bad = applyHeader(*current, cols, n))
                    return unexpected(*bad);
            } else if (body.startsWith(QLatin1String("Avg bus bandwidth"))) {
                if (current) {
                    current->footer = true;
                    double v = 0;
                    QString why;
                    const QString value = body.section(QLatin1Char(':'), 1).trimmed().section(QLatin1Char(' '), 0, 0);
                    const QByteArray utf8 = value.toUtf8();
                    if (parseFiniteDouble(std::string_view(utf8.constData(), size_t(utf8.size())), v, why))
                        env.insert(QStringLiteral("avg_busbw_gbps"), v);
                }
            } else if (body.startsWith(QLatin1String("Out of bounds values"))) {
                env.insert(QStringLiteral("out_of_bounds"), body.section(QLatin1Char(':'), 1).trimmed());
            }
            continue; // other comments: "(B)" units, "out-of-place", "Using devices", "# Truncated ..."
        }
        if (t == "...") {
            if (current)
                current->rankListCut = true;
            continue;
        }
        if (t.substr(0, 13) == "NCCL version ") {
            ncclVersion = toQString(trimmed(t.substr(13)));
            continue;
        }
        const char c0 = t.front();
        const bool rowLike = (c0 >= '0' && c0 <= '9');
        if (rowLike && (!current || current->tableLine == 0) && splitWhitespace(t).size() >= 6) {
            // Rows with nothing of nccl-tests' own above them (pasted without any header):
            // the layout is derived from the row's shape (docs/formats.md); a row below an
            // "# nThread" header but before its column header is a cut file, refused.
            if (current && current->headerCount > 0)
                return fail(n, QStringLiteral("size"),
                            ImportTr::tr("a data row before any column header (\"# size count type ...\")"));
            QStringList tokens;
            for (const std::string_view v : splitWhitespace(t))
                tokens << toQString(v);
            QString why;
            const QStringList cols = columnsForRow(tokens, &why);
            if (cols.isEmpty())
                return fail(n, QStringLiteral("header"),
                            ImportTr::tr("a data row without nccl-tests' column header, whose layout cannot be "
                                         "derived: it %1; paste the column header line (\"#  size  count  type "
                                         "...\") above the rows")
                                .arg(why));
            if (!current)
                startBlock(n);
            if (auto bad = applyHeader(*current, cols, n))
                return unexpected(*bad);
            current->columnsDerived = true;
            current->derivedValues = int(tokens.size());
        }
        if (!rowLike || !current || current->tableLine == 0)
            continue; // NCCL INFO/WARN lines and other noise

        // A data row.
        Block& b = *current;
        if (b.headerCount > 1)
            break; // reported below as interleaved jobs
        // A pasted fragment (no "# nThread" header) often lacks the last newline: its last
        // row is taken when it has as many values as the row above (and its values pass
        // the checks below), and the out-of-place time and algbw it keeps are followed by
        // other columns, so neither can have been cut short.
        const bool fragment = b.headerCount == 0;
        const auto tokens = splitWhitespace(t);
        if (!lines.lastHadNewline() &&
            !(fragment && b.oopAlgbw + 1 < b.rightColumns.size() && (b.rows == 0 || int(tokens.size()) == b.lastRowValues)))
            return fail(n, QStringLiteral("row"), ImportTr::tr("the file ends inside this row (truncated)"));
        b.lastRowValues = int(tokens.size());
        const int mid = int(tokens.size()) - b.rightTokens - 3;
        if (mid < 0 || mid > b.leftColumns - 3)
            return fail(n, QStringLiteral("row"),
                        (b.columnsDerived ? ImportTr::tr("has %1 values; the layout derived from line %2 (no column "
                                                         "header was pasted) calls for %3 to %4")
                                          : ImportTr::tr("has %1 values; the column header (line %2) calls for %3 to %4"))
                            .arg(tokens.size())
                            .arg(b.tableLine)
                            .arg(3 + b.rightTokens)
                            .arg(b.leftColumns + b.rightTokens));
        QString why;
        qint64 size = 0, count = 0;
        if (!parseIntegral(tokens[0], 0, kMaxBytesPerRank, size, why))
            return fail(n, QStringLiteral("size"), why);
        if (!parseIntegral(tokens[1], 0, kMaxBytesPerRank, count, why))
            return fail(n, QStringLiteral("count"), why);
        QString type = toQString(tokens[2]);
        if (type == b.type)
            type = b.type; // shared: the rows' checks hold one string, not one each
        // The middle tokens are redop and/or root; old versions print an empty redop.
        QString redop;
        if (mid >= 1) {
            const QString first = toQString(tokens[3]);
            if (b.leftColumns == 5 && mid == 1) {
                bool isInt = false;
                first.toInt(&isInt);
                if (!isInt)
                    redop = first;
            } else {
                redop = first;
            }
        }
        if (!b.redops.contains(redop)) // each once: not a string per row
            b.redops << redop;
        b.type = type;
        const size_t right = size_t(3 + mid);
        auto column = [&](int index) -> std::string_view {
            if (index < 0)
                return {};
            // A timestamp column takes two tokens; it is always last, so indexes before it are direct.
            return tokens[right + size_t(index)];
        };
        double values[64] = {};
        for (int i = 0; i < b.rightColumns.size() && i < 64; ++i) {
            const QString& name = b.rightColumns[i];
            if (name == QLatin1String("timestamp"))
                break;
            const std::string_view v = column(i);
            if (v == "N/A") {
                if (i == b.oopTime || name == QLatin1String("algbw") || name == QLatin1String("busbw"))
                    return fail(n, name, ImportTr::tr("is N/A; a measured value was expected"));
                continue;
            }
            double d = 0;
            if (!parseFiniteDouble(v, d, why))
                return fail(n, name, why);
            if (d < 0)
                return fail(n, name, ImportTr::tr("must not be negative, got %1").arg(toQString(v)));
            if ((name == QLatin1String("time") || name == QLatin1String("cputime") || name.startsWith(QLatin1String("i_"))) &&
                name != QLatin1String("i_cv%") && d > kMaxTimeUs)
                return fail(n, name, ImportTr::tr("is absurd: %1 µs is more than %2 µs for one call")
                                         .arg(toQString(v))
                                         .arg(kMaxTimeUs, 0, 'g', 3));
            // The out-of-place bandwidths only: an in-place all-to-all on one rank moves
            // nothing, and nccl-tests prints size / (a sub-µs time) for it (2e+06 GB/s
            // on one H200) -- a real figure of a no-op, and never used here.
            const bool inPlace = b.ipTime >= 0 && i > b.ipTime;
            if ((name == QLatin1String("algbw") || name == QLatin1String("busbw")) && d > 1e6 && !inPlace)
                return fail(n, name, ImportTr::tr("is absurd: %1 GB/s").arg(toQString(v)));
            values[i] = d;
        }
        const double time = values[b.oopTime];
        if (size > 0 && time <= 0)
            return fail(n, QStringLiteral("time"), ImportTr::tr("must be > 0 for %1 bytes").arg(size));
        if (size > 0 && b.ipTime >= 0 && b.ipTime < 64 && column(b.ipTime) != "N/A" && values[b.ipTime] <= 0)
            return fail(n, b.rightColumns[b.ipTime], ImportTr::tr("must be > 0 for %1 bytes").arg(size));
        // algbw = size / time: a row whose figures disagree is corrupt, not measured.
        if (time > 0) {
            const double expected = double(size) / time / 1e3;
            const double printed = values[b.oopAlgbw];
            if (std::abs(printed - expected) > 0.011 + 0.06 * expected)
                return fail(n, QStringLiteral("algbw"),
                            ImportTr::tr("is %1 GB/s but size / time gives %2 GB/s: the row is inconsistent")
                                .arg(printed)
                                .arg(expected, 0, 'f', 2));
        }
        const int repeat = occurrences[size]++;
        data.commSamples.append(store::CommSample{quint64(size), repeat, 0, time});
        if (b.ipTime >= 0 && column(b.ipTime) != "N/A") {
            inPlaceTimes.append(values[b.ipTime]);
            anyInPlace = true;
        } else {
            inPlaceTimes.append(QJsonValue());
        }
        rowChecks.push_back(RowCheck{size, count, type, n});
        if (b.rows == 0)
            b.firstRowLine = n;
        ++b.rows;
        ++data.rows;
        b.lastRowLine = n;
        lastLineWasRow = true;
    }
    if (lastLineWasRow && !lastHadNewline && (!current || current->headerCount > 0))
        return fail(lines.lineNumber(), QStringLiteral("row"),
                    ImportTr::tr("the file ends inside this row (truncated)"));

    // Interleaved jobs: several headers, each with its own one-rank device list.
    for (const Block& b : blocks) {
        if (b.headerCount > 1 || b.duplicateRankLine) {
            const int ranks0 = b.rankSeen.value(0);
            return fail(b.headerCount > 1 ? b.secondHeaderLine : b.duplicateRankLine, QStringLiteral("header"),
                        ImportTr::tr("holds %1 interleaved nccl-tests runs (%2 \"# nThread\" headers before the "
                                     "first table, rank 0 listed %3 times): the runs were written into one file at "
                                     "once and cannot be told apart; run them one per file and import each")
                            .arg(std::max(b.headerCount, ranks0))
                            .arg(b.headerCount)
                            .arg(ranks0));
        }
    }
    if (data.commSamples.isEmpty()) {
        for (const Block& b : blocks)
            if (!b.collective.isEmpty() && !isAllToAll(b.collective))
                return fail(b.collectiveLine, QStringLiteral("collective"),
                            ImportTr::tr("is %1, not alltoall or alltoallv; only all-to-all tests are imported")
                                .arg(b.collective));
        return fail(0, {}, ImportTr::tr("no nccl-tests data rows found"));
    }

    // Every test in the file must be the same all-to-all on the same ranks.
    QString collective;
    qint64 world = 0;
    QString collectiveSource;
    QString worldSource;
    QJsonObject derived; // fact -> how it was derived (pasted fragments)
    if (!given.collective.isEmpty() && !isAllToAll(given.collective))
        return fail(0, QStringLiteral("collective"),
                    ImportTr::tr("--collective %1: only alltoall and alltoallv tests are imported").arg(given.collective));
    for (const Block& b : blocks) {
        if (b.rows == 0)
            continue;
        // A pasted fragment: no "# nThread" header, so no summary is expected either.
        const bool fragment = b.headerCount == 0;
        if (!b.footer && !fragment)
            return fail(b.lastRowLine, QStringLiteral("row"),
                        ImportTr::tr("the table ends without nccl-tests' summary (\"# Avg bus bandwidth\"): the "
                                     "file looks truncated"));
        // The ranks as the text shows them: the rank list, else the header's threads x
        // GPUs (one process); a fragment with neither does not show them.
        qint64 ranks = fragment ? 0 : std::max<qint64>(1, qint64(b.nThread) * qint64(b.nGpus));
        QString ranksSource = fragment ? QString() : QStringLiteral("header: nThread x nGpus");
        int maxRank = -1;
        for (const RankLine& r : b.ranks)
            maxRank = std::max(maxRank, r.rank);
        if (maxRank >= 0) {
            ranks = std::max<qint64>(maxRank + 1, qint64(b.ranks.size()));
            ranksSource = QStringLiteral("rank list");
        }
        if (given.ranks > 0) {
            if (maxRank >= 0 && ranks != given.ranks)
                return fail(b.headerLine, QStringLiteral("ranks"),
                            ImportTr::tr("--ranks %1, but the file lists %2 ranks").arg(given.ranks).arg(ranks));
            ranks = given.ranks;
            ranksSource = maxRank >= 0 ? ranksSource : QStringLiteral("given: --ranks");
        }
        QString name = b.collective;
        QString source = QStringLiteral("named by the file");
        if (!name.isEmpty() && !isAllToAll(name))
            return fail(b.collectiveLine, QStringLiteral("collective"),
                        ImportTr::tr("is %1, not alltoall or alltoallv; only all-to-all tests are imported").arg(name));
        if (!given.collective.isEmpty()) {
            if (!name.isEmpty() && name != given.collective)
                return fail(b.collectiveLine, QStringLiteral("collective"),
                            ImportTr::tr("is %1, but --collective says %2").arg(name, given.collective));
            if (name.isEmpty()) {
                name = given.collective;
                source = QStringLiteral("given: --collective");
            }
        }
        for (const QString& op : b.redops)
            if (isReductionOp(op))
                return fail(b.tableLine, QStringLiteral("redop"),
                            ImportTr::tr("is %1: a reduction (all_reduce, reduce or reduce_scatter), not alltoall; "
                                         "only all-to-all tests are imported")
                                .arg(op));
        // What the rows say: an alltoall prints size = count x type size x ranks.
        const int ts = typeSize(b.type);
        qint64 rowRanks = 0;      // the ranks every row with a count gives (alltoall)
        qint64 rowsWithCount = 0;
        const RowCheck* oddRow = nullptr; // a row that no alltoall prints, or that disagrees
        for (const RowCheck& r : rowChecks) {
            if (r.line < b.tableLine || r.line > b.lastRowLine)
                continue;
            const qint64 k = allToAllRanks(r.size, r.count, ts);
            if (k == 0)
                continue;
            ++rowsWithCount;
            if (k < 0 || (rowRanks > 0 && k != rowRanks)) {
                oddRow = oddRow ? oddRow : &r;
                continue;
            }
            rowRanks = k;
        }
        const qint64 firstRowLine = b.firstRowLine;
        if (name.isEmpty() && fragment) {
            // The rows cannot tell alltoall from all_gather (the same size/count and
            // bus factor): ask rather than guess.
            const bool ranksToo = ranks == 0 && rowsWithCount == 0;
            return fail(firstRowLine, QStringLiteral("collective"),
                        (ranksToo ? ImportTr::tr("the pasted table does not name its test and its rows do not show "
                                                 "the ranks; if it is alltoall_perf output, import it with "
                                                 "--collective alltoall --ranks N (alltoallv_perf: --collective "
                                                 "alltoallv --ranks N)")
                                  : ImportTr::tr("the pasted table does not name its test (the \"# Collective test "
                                                 "starting\" line is missing), and its rows read the same for alltoall "
                                                 "and all_gather; if it is alltoall_perf output, import it with "
                                                 "--collective alltoall (alltoallv_perf: --collective alltoallv)")));
        }
        if (name == QLatin1String("alltoall") || name.isEmpty()) {
            if (ranks == 0) {
                // Derived: ranks = size / (count x type size), the same on every row.
                if (oddRow) {
                    const qint64 k = allToAllRanks(oddRow->size, oddRow->count, ts);
                    const QString what = ImportTr::tr("is %1 for %2 bytes of %3").arg(oddRow->count).arg(oddRow->size).arg(oddRow->type);
                    return fail(oddRow->line, QStringLiteral("count"),
                                k < 0 ? ImportTr::tr("%1: size / (count x %2) is no whole number of ranks, so this is "
                                                     "no alltoall row")
                                            .arg(what)
                                            .arg(ts)
                                      : ImportTr::tr("%1: size / (count x %2) gives %3 ranks where the rows above give "
                                                     "%4; one alltoall table has one number of ranks")
                                            .arg(what)
                                            .arg(ts)
                                            .arg(k)
                                            .arg(rowRanks));
                }
                if (rowRanks == 0)
                    return fail(firstRowLine, QStringLiteral("ranks"),
                                ts == 0 ? ImportTr::tr("the pasted table does not show the ranks and its type \"%1\" "
                                                       "has no known size to derive them from; give --ranks N")
                                              .arg(b.type)
                                        : ImportTr::tr("the pasted table does not show the ranks and has no row with "
                                                       "a count to derive them from (size / (count x type size)); "
                                                       "give --ranks N"));
                ranks = rowRanks;
                ranksSource = QStringLiteral("derived");
                derived.insert(QStringLiteral("world"),
                               QStringLiteral("%1 = size / (count x %2 bytes of %3) on %4 rows (alltoall prints size = "
                                              "count x type size x ranks)")
                                   .arg(rowRanks)
                                   .arg(ts)
                                   .arg(b.type)
                                   .arg(rowsWithCount));
            }
            if (ranks < 1)
                ranks = 1;
            // The rows must fit alltoall on these ranks.
            for (const RowCheck& r : rowChecks) {
                if (r.line < b.tableLine || r.line > b.lastRowLine || r.size == 0 || ts == 0)
                    continue;
                if (r.size % (qint64(ts) * ranks) != 0 || r.size / (qint64(ts) * ranks) != r.count)
                    return fail(r.line, QStringLiteral("count"),
                                name.isEmpty()
                                    ? ImportTr::tr("is %1 for %2 bytes of %3 on %4 ranks; an alltoall prints size / (type "
                                                   "size × ranks) = %5. The file does not name its test and this is not "
                                                   "an all-to-all (all_reduce and broadcast print size / type size)")
                                          .arg(r.count)
                                          .arg(r.size)
                                          .arg(r.type)
                                          .arg(ranks)
                                          .arg(r.size / (qint64(ts) * ranks))
                                    : ImportTr::tr("is %1 for %2 bytes of %3 on %4 ranks (%6); an alltoall prints size / "
                                                   "(type size × ranks) = %5")
                                          .arg(r.count)
                                          .arg(r.size)
                                          .arg(r.type)
                                          .arg(ranks)
                                          .arg(r.size / (qint64(ts) * ranks))
                                          .arg(ranksSource));
            }
            if (name.isEmpty()) {
                name = QStringLiteral("alltoall");
                source = QStringLiteral("assumed: the file does not name its test; no reduction and count = size / "
                                        "(type size x ranks) fit alltoall");
            }
        } else if (ranks == 0) {
            // alltoallv prints the largest rank's bytes: its sizes depend on its pattern,
            // so the rows do not give the ranks.
            return fail(firstRowLine, QStringLiteral("ranks"),
                        ImportTr::tr("the pasted %1 table does not show the ranks (no rank list) and alltoallv's rows "
                                     "do not give them; give --ranks N")
                            .arg(name));
        }
        if (b.columnsDerived)
            derived.insert(QStringLiteral("columns"),
                           QStringLiteral("no column header: the layout of nccl-tests' %1-value rows (%2)")
                               .arg(b.derivedValues)
                               .arg((QStringList{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"),
                                                 QStringLiteral("redop"), QStringLiteral("root")}
                                         .mid(0, b.leftColumns) +
                                     b.rightColumns)
                                        .join(QLatin1Char(' '))));
        if (!collective.isEmpty() && (name != collective || ranks != world))
            return fail(b.headerLine, QStringLiteral("header"),
                        ImportTr::tr("a second test (%1 on %2 ranks) after %3 on %4 ranks; import each test from its "
                                     "own file")
                            .arg(name)
                            .arg(ranks)
                            .arg(collective)
                            .arg(world));
        collective = name;
        collectiveSource = source;
        world = ranks;
        worldSource = ranksSource;
        if (fragment)
            env.insert(QStringLiteral("fragment"), true);
    }

    const Block* first = nullptr;
    for (const Block& b : blocks)
        if (b.rows > 0) {
            first = &b;
            break;
        }
    env.insert(QStringLiteral("collective"), collective);
    env.insert(QStringLiteral("collective_source"), collectiveSource);
    env.insert(QStringLiteral("world"), world);
    env.insert(QStringLiteral("world_source"), worldSource);
    if (!derived.isEmpty())
        env.insert(QStringLiteral("derived"), derived);
    env.insert(QStringLiteral("options"), first->options);
    QJsonArray hostnames, models;
    QSet<QString> hostSet, modelSet;
    for (const RankLine& r : first->ranks) {
        if (!hostSet.contains(r.host)) {
            hostSet.insert(r.host);
            hostnames.append(r.host);
        }
        if (!r.model.isEmpty() && !modelSet.contains(r.model)) {
            modelSet.insert(r.model);
            models.append(r.model);
        }
    }
    env.insert(QStringLiteral("hostnames"), hostnames);
    env.insert(QStringLiteral("nodes_listed"), hostnames.size());
    env.insert(QStringLiteral("ranks_listed"), qint64(first->ranks.size()));
    env.insert(QStringLiteral("rank_list_complete"), !first->rankListCut && qint64(first->ranks.size()) == world);
    env.insert(QStringLiteral("gpu_models"), models);
    if (!ncclVersion.isEmpty())
        env.insert(QStringLiteral("nccl_version"), ncclVersion);
    if (!testsVersion.isEmpty())
        env.insert(QStringLiteral("nccl_tests_version"), testsVersion);
    env.insert(QStringLiteral("data_type"), first->type);
    env.insert(QStringLiteral("samples"), QStringLiteral("one per row: the out-of-place time (nccl-tests' average "
                                                         "over its iterations); repeat = the size's occurrence"));
    env.insert(QStringLiteral("in_place_time_us"), anyInPlace ? inPlaceTimes : QJsonArray());
    return data;
}

} // namespace moewb::importers
