#include "importers/NcclTestsTextImporter.h"

#include "importers/ImportLimits.h"
#include "importers/NcclTestsText.h"
#include "importers/NcclTestsTextSections.h"
#include "importers/NcclTestsTextTable.h"
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

// The rows of the tables imported, in file order: one sample each, repeat = how many
// rows of the same size came before it; the in-place times and -I's per-iteration
// summaries beside them.
void appendSamples(const std::vector<const Table*>& chosen, ImportedData& data) {
    qint64 rows = 0;
    for (const Table* b : chosen)
        rows += b->rows;
    data.commSamples.reserve(qsizetype(rows), qsizetype(rows));
    QHash<qint64, int> occurrences; // size -> rows seen
    // The in-place time of each row, parallel to the samples (null where the row has
    // none): a column of numbers, not an object per row.
    QJsonArray inPlace, iterMin, iterMax, iterP99, iterCv;
    bool anyInPlace = false, anyIter = false;
    auto number = [](double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); };
    for (const Table* b : chosen)
        for (const RowTimes& r : b->times) {
            data.commSamples.append(store::CommSample{quint64(r.size), occurrences[r.size]++, 0, r.timeUs});
            anyInPlace = anyInPlace || !std::isnan(r.inPlaceUs);
            inPlace.append(number(r.inPlaceUs));
            anyIter = anyIter || !std::isnan(r.iterMinUs) || !std::isnan(r.iterCvPct);
            iterMin.append(number(r.iterMinUs));
            iterMax.append(number(r.iterMaxUs));
            iterP99.append(number(r.iterP99Us));
            iterCv.append(number(r.iterCvPct));
        }
    data.rows = rows;
    data.environment.insert(QStringLiteral("in_place_time_us"), anyInPlace ? inPlace : QJsonArray());
    // -I: each row's spread over its iterations (within one run, not between repeats).
    if (anyIter)
        data.environment.insert(QStringLiteral("per_iteration"),
                                QJsonObject{{QStringLiteral("min_us"), iterMin},
                                            {QStringLiteral("max_us"), iterMax},
                                            {QStringLiteral("p99_us"), iterP99},
                                            {QStringLiteral("cv_pct"), iterCv}});
}

} // namespace

ImportResult NcclTestsTextImporter::parse(const QByteArray& bytes, const QString& file) {
    return parseWith(bytes, file, NcclTestsTextOptions{});
}

ImportResult NcclTestsTextImporter::parseWith(const QByteArray& bytes, const QString& file,
                                              const NcclTestsTextOptions& given) {
    auto fail = [&](qint64 at, const QString& field, const QString& message) {
        return importError(file, at, field, message);
    };
    if (!given.collective.isEmpty() && !isAllToAll(given.collective))
        return fail(0, QStringLiteral("collective"),
                    ImportTr::tr("--collective %1: only alltoall and alltoallv tests are imported")
                        .arg(given.collective));
    // The log's tests and, for each one that is not read, why (nothing: it is read).
    const std::vector<LogSection> sections = splitSections(bytes);
    SectionReasons reasons = sectionsNotRead(sections, file, given.collective);
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QJsonObject& env = data.environment;
    QString ncclVersion, testsVersion;
    std::vector<Table> blocks;
    Table* current = nullptr;
    size_t si = 0; // the section of the line being read
    qint64 debugLines = 0;
    auto sectionFailed = [&] { return reasons[si].has_value(); };
    // An error inside a test ends the reading of that test; the file is refused only
    // when no all-to-all test is left (below).
    auto failSection = [&](Unexpected<ImportError> e) {
        if (!reasons[si])
            reasons[si] = std::move(e.error);
    };
    TextLines lines(bytes);
    std::string_view line;
    bool lastLineWasRow = false;
    bool lastHadNewline = true;
    // alltoallv_perf's per-rank summary splits each row (NcclTestsAlltoallv.h): the row's
    // pieces so far and the summaries printed inside it; the row once joined.
    std::string splitRow;
    qint64 splitRowLine = 0;
    std::vector<AlltoallvSummary> summaries;
    std::string joinedRow;
    auto cutRow = [&] {
        return fail(splitRowLine, QStringLiteral("row"),
                    ImportTr::tr("a row split by alltoallv_perf's summary lines (NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY) "
                                 "does not end: the file is cut or its lines are mixed"));
    };
    auto startBlock = [&](qint64 at) {
        blocks.emplace_back();
        current = &blocks.back();
        current->headerLine = at;
        current->section = int(si);
        // Sized once: a table's rows are at most its test's lines that start with a digit.
        current->times.reserve(size_t(sections[si].rowLines));
        current->checks.reserve(size_t(sections[si].rowLines));
    };

    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        lastHadNewline = lines.lastHadNewline();
        lastLineWasRow = false;
        if (n > sections[si].lastLine) {
            // The next test: its own table, whatever the last one left open.
            if (!splitRow.empty())
                failSection(cutRow());
            splitRow.clear();
            summaries.clear();
            while (si + 1 < sections.size() && n > sections[si].lastLine)
                ++si;
            current = nullptr;
        }
        if (reasons[si])
            continue; // a test not read: its lines are not looked at
        std::string_view t = trimmed(line);
        if (t.empty())
            continue;
        if (isDebugLine(t) || isFailureLine(t)) {
            ++debugLines;
            continue;
        }
        if (t.front() == '#') {
            // alltoallv_perf's summary: its first line (when a row did not start it) and
            // its per-rank lines, kept for the row they stand in.
            const std::string_view hashBody = trimmed(t.substr(1));
            if (hashBody.substr(0, kSummaryWord.size()) == kSummaryWord) {
                summaries.emplace_back();
                if (auto bad = parseSummaryHeader(hashBody.substr(kSummaryWord.size()), n, file, summaries.back()))
                    failSection(unexpected(*bad));
                continue;
            }
            if (hashBody.substr(0, 5) == "rank=" && !summaries.empty()) {
                if (auto bad = parseSummaryRank(hashBody, n, file, summaries.back()))
                    failSection(unexpected(*bad));
                continue;
            }
            if (!splitRow.empty()) {
                failSection(cutRow());
                continue;
            }
            const QString body = toQString(hashBody);
            if (body.startsWith(QLatin1String("nThread"))) {
                const auto m = nThreadRe().match(body);
                if (!m.hasMatch()) {
                    failSection(fail(n, QStringLiteral("header"),
                                     ImportTr::tr("an nccl-tests header line that cannot be read: \"%1\"")
                                         .arg(body.left(80))));
                    continue;
                }
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
                if (current->tableLine > 0) {
                    failSection(fail(
                        n, QStringLiteral("header"),
                        ImportTr::tr("a second column header (the first is on line %1) inside one test: the "
                                     "output of several nccl-tests runs is interleaved; split it into one "
                                     "file per run")
                            .arg(current->tableLine)));
                    continue;
                }
                const QStringList cols =
                    body.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
                if (auto bad = applyColumnHeader(*current, cols, file, n)) {
                    failSection(unexpected(*bad));
                    continue;
                }
            } else if (body.startsWith(QLatin1String("Avg bus bandwidth"))) {
                if (current) {
                    current->footer = true;
                    double v = 0;
                    QString why;
                    const QString value =
                        body.section(QLatin1Char(':'), 1).trimmed().section(QLatin1Char(' '), 0, 0);
                    const QByteArray utf8 = value.toUtf8();
                    if (parseFiniteDouble(std::string_view(utf8.constData(), size_t(utf8.size())), v, why))
                        current->avgBusbw = v;
                }
            } else if (body.startsWith(QLatin1String("Out of bounds values"))) {
                if (current)
                    current->outOfBounds = body.section(QLatin1Char(':'), 1).trimmed();
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
        // A row split by alltoallv_perf's summary: its pieces joined, read as one row at
        // the line it started on.
        qint64 rowLine = n;
        if (t.front() >= '0' && t.front() <= '9') {
            const size_t mark = t.find(kSummaryMark);
            if (mark != std::string_view::npos) {
                if (splitRow.empty())
                    splitRowLine = n;
                else
                    splitRow += ' ';
                splitRow += trimmed(t.substr(0, mark));
                summaries.emplace_back();
                if (auto bad = parseSummaryHeader(t.substr(mark + kSummaryMark.size()), n, file, summaries.back()))
                    failSection(unexpected(*bad));
                continue;
            }
            if (!splitRow.empty()) {
                joinedRow = std::move(splitRow);
                splitRow.clear();
                joinedRow += ' ';
                joinedRow += t;
                t = joinedRow;
                rowLine = splitRowLine;
            }
        }
        const char c0 = t.front();
        const bool rowLike = (c0 >= '0' && c0 <= '9');
        if (rowLike && (!current || current->tableLine == 0) && splitWhitespace(t).size() >= 6) {
            // Rows with nothing of nccl-tests' own above them (pasted without any header):
            // the layout is derived from the row's shape (docs/formats.md); a row below an
            // "# nThread" header but before its column header is a cut file, refused.
            if (current && current->headerCount > 0) {
                failSection(
                    fail(rowLine, QStringLiteral("size"),
                         ImportTr::tr("a data row before any column header (\"# size count type ...\")")));
                continue;
            }
            QStringList tokens;
            for (const std::string_view v : splitWhitespace(t))
                tokens << toQString(v);
            QString why;
            const QStringList cols = columnsForRow(tokens, &why);
            if (cols.isEmpty()) {
                failSection(
                    fail(rowLine, QStringLiteral("header"),
                         ImportTr::tr("a data row without nccl-tests' column header, whose layout cannot be "
                                      "derived: it %1; paste the column header line (\"#  size  count  type "
                                      "...\") above the rows")
                             .arg(why)));
                continue;
            }
            if (!current)
                startBlock(rowLine);
            if (auto bad = applyColumnHeader(*current, cols, file, rowLine)) {
                failSection(unexpected(*bad));
                continue;
            }
            current->columnsDerived = true;
            current->derivedValues = int(tokens.size());
        }
        if (!rowLike || !current || current->tableLine == 0)
            continue; // NCCL INFO/WARN lines and other noise

        // A data row, with the alltoallv summaries printed inside it.
        Table& b = *current;
        std::vector<AlltoallvSummary> rowSummaries = std::move(summaries);
        summaries.clear();
        if (b.headerCount > 1)
            break; // reported below as interleaved jobs
        // A pasted fragment (no "# nThread" header) often lacks the last newline: its last
        // row is taken when it has as many values as the row above (and its values pass
        // the checks below), and the out-of-place time and algbw it keeps are followed by
        // other columns, so neither can have been cut short.
        const bool fragment = b.headerCount == 0;
        const auto tokens = splitWhitespace(t);
        if (!lines.lastHadNewline() && !(fragment && b.oopAlgbw + 1 < b.rightColumns.size() &&
                                         (b.rows == 0 || int(tokens.size()) == b.lastRowValues))) {
            failSection(
                fail(rowLine, QStringLiteral("row"), ImportTr::tr("the file ends inside this row (truncated)")));
            continue;
        }
        b.lastRowValues = int(tokens.size());
        const int mid = int(tokens.size()) - b.rightTokens - 3;
        if (mid < 0 || mid > b.leftColumns - 3) {
            failSection(
                fail(rowLine, QStringLiteral("row"),
                     (b.columnsDerived
                          ? ImportTr::tr("has %1 values; the layout derived from line %2 (no column "
                                         "header was pasted) calls for %3 to %4")
                          : ImportTr::tr("has %1 values; the column header (line %2) calls for %3 to %4"))
                         .arg(tokens.size())
                         .arg(b.tableLine)
                         .arg(3 + b.rightTokens)
                         .arg(b.leftColumns + b.rightTokens)));
            continue;
        }
        QString why;
        qint64 size = 0, count = 0;
        if (!parseIntegral(tokens[0], 0, kMaxBytesPerRank, size, why)) {
            failSection(fail(rowLine, QStringLiteral("size"), why));
            continue;
        }
        if (!parseIntegral(tokens[1], 0, kMaxBytesPerRank, count, why)) {
            failSection(fail(rowLine, QStringLiteral("count"), why));
            continue;
        }
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
                if (i == b.oopTime || name == QLatin1String("algbw") || name == QLatin1String("busbw")) {
                    failSection(fail(rowLine, name, ImportTr::tr("is N/A; a measured value was expected")));
                    break;
                }
                continue;
            }
            double d = 0;
            if (!parseFiniteDouble(v, d, why)) {
                failSection(fail(rowLine, name, why));
                break;
            }
            if (d < 0) {
                failSection(fail(rowLine, name, ImportTr::tr("must not be negative, got %1").arg(toQString(v))));
                break;
            }
            if ((name == QLatin1String("time") || name == QLatin1String("cputime") ||
                 name.startsWith(QLatin1String("i_"))) &&
                name != QLatin1String("i_cv%") && d > kMaxTimeUs) {
                failSection(fail(rowLine, name,
                                 ImportTr::tr("is absurd: %1 µs is more than %2 µs for one call")
                                     .arg(toQString(v))
                                     .arg(kMaxTimeUs, 0, 'g', 3)));
                break;
            }
            // The out-of-place bandwidths only: an in-place all-to-all on one rank moves
            // nothing, and nccl-tests prints size / (a sub-µs time) for it (2e+06 GB/s
            // on one H200) -- a real figure of a no-op, and never used here.
            const bool inPlace = b.ipTime >= 0 && i > b.ipTime;
            if ((name == QLatin1String("algbw") || name == QLatin1String("busbw")) && d > 1e6 && !inPlace) {
                failSection(fail(rowLine, name, ImportTr::tr("is absurd: %1 GB/s").arg(toQString(v))));
                break;
            }
            values[i] = d;
        }
        if (sectionFailed())
            continue;
        const double time = values[b.oopTime];
        if (size > 0 && time <= 0) {
            failSection(fail(rowLine, QStringLiteral("time"), ImportTr::tr("must be > 0 for %1 bytes").arg(size)));
            continue;
        }
        if (size > 0 && b.ipTime >= 0 && b.ipTime < 64 && column(b.ipTime) != "N/A" &&
            values[b.ipTime] <= 0) {
            failSection(
                fail(rowLine, b.rightColumns[b.ipTime], ImportTr::tr("must be > 0 for %1 bytes").arg(size)));
            continue;
        }
        // algbw = size / time: a row whose figures disagree is corrupt, not measured.
        if (time > 0) {
            const double expected = double(size) / time / 1e3;
            const double printed = values[b.oopAlgbw];
            if (std::abs(printed - expected) > 0.011 + 0.06 * expected) {
                failSection(
                    fail(rowLine, QStringLiteral("algbw"),
                         ImportTr::tr("is %1 GB/s but size / time gives %2 GB/s: the row is inconsistent")
                             .arg(printed)
                             .arg(expected, 0, 'f', 2)));
                continue;
            }
        }
        // alltoallv_perf's summary: the bytes per rank are its mean send_bytes (the size
        // column is the busiest rank's).
        quint64 bytesPerRank = quint64(size);
        if (!rowSummaries.empty()) {
            const RowSummaryCheck checked = takeRowSummaries(b, rowSummaries, size, rowLine, file);
            if (checked.error) {
                failSection(unexpected(*checked.error));
                continue;
            }
            bytesPerRank = checked.bytesPerRank;
        } else {
            if (!b.firstRowWithoutSummary)
                b.firstRowWithoutSummary = rowLine;
            if (count == 0 && size > 0 && b.matrixRowsWithoutSummary++ == 0)
                b.firstMatrixRowWithoutSummary = rowLine;
        }
        const bool hasInPlace = b.ipTime >= 0 && column(b.ipTime) != "N/A";
        // -I's per-iteration summary of the out-of-place calls (N/A or absent: NaN).
        auto iter = [&](int index) {
            return index >= 0 && index < 64 && column(index) != "N/A" ? values[index] : qQNaN();
        };
        b.times.push_back(RowTimes{qint64(bytesPerRank), time, hasInPlace ? values[b.ipTime] : qQNaN(), iter(b.oopIterMin),
                                   iter(b.oopIterMax), iter(b.oopIterP99), iter(b.oopIterCv)});
        b.checks.push_back(RowCheck{size, count, type, rowLine});
        if (b.rows == 0)
            b.firstRowLine = rowLine;
        ++b.rows;
        b.lastRowLine = rowLine;
        lastLineWasRow = true;
    }
    if (lastLineWasRow && !lastHadNewline && (!current || current->headerCount > 0) && !sectionFailed())
        failSection(fail(lines.lineNumber(), QStringLiteral("row"),
                         ImportTr::tr("the file ends inside this row (truncated)")));
    if (!splitRow.empty())
        failSection(cutRow());

    // Interleaved jobs: several headers, each with its own one-rank device list.
    for (const Table& b : blocks) {
        if (b.headerCount > 1 || b.duplicateRankLine) {
            const int ranks0 = b.rankSeen.value(0);
            return fail(
                b.headerCount > 1 ? b.secondHeaderLine : b.duplicateRankLine, QStringLiteral("header"),
                ImportTr::tr("holds %1 interleaved nccl-tests runs (%2 \"# nThread\" headers before the "
                             "first table, rank 0 listed %3 times): the runs were written into one file at "
                             "once and cannot be told apart; run them one per file and import each")
                    .arg(std::max(b.headerCount, ranks0))
                    .arg(b.headerCount)
                    .arg(ranks0));
        }
    }

    // What each table read is, or why it cannot be imported.
    std::vector<std::optional<TableFacts>> facts(blocks.size());
    for (size_t i = 0; i < blocks.size(); ++i) {
        std::optional<ImportError>& why = reasons[size_t(blocks[i].section)];
        if (why || blocks[i].rows == 0)
            continue;
        auto f = resolveTable(blocks[i], file, given);
        if (!f)
            why = f.error();
        else if (auto bad = resolveAlltoallv(blocks[i], f.value(), file, given.alltoallvMatrix.get()))
            why = std::move(*bad);
        else
            facts[i] = std::move(f.value());
    }
    for (Table& b : blocks)
        std::vector<RowCheck>().swap(b.checks); // checked: freed before the samples are made
    // The first all-to-all with data is imported, with the tables after it of the same
    // test on the same ranks (further sweeps: repeats); another test is named, not merged.
    std::vector<const Table*> chosen;
    const TableFacts* firstFacts = nullptr;
    for (size_t i = 0; i < blocks.size(); ++i) {
        if (!facts[i] || reasons[size_t(blocks[i].section)])
            continue;
        const TableFacts& f = *facts[i];
        if (!firstFacts || (f.collective == firstFacts->collective && f.world == firstFacts->world)) {
            firstFacts = firstFacts ? firstFacts : &f;
            chosen.push_back(&blocks[i]);
            continue;
        }
        reasons[size_t(blocks[i].section)] = ImportError{
            file, blocks[i].headerLine, QStringLiteral("header"),
            ImportTr::tr("a second test (%1 on %2 ranks) after %3 on %4 ranks (line %5): the first is "
                         "imported; import this one with --collective %1, or from its own file")
                .arg(f.collective)
                .arg(f.world)
                .arg(firstFacts->collective)
                .arg(firstFacts->world)
                .arg(chosen.front()->headerLine)};
    }
    // A test that printed no rows (cut, or stopped without a failure line).
    std::vector<qint64> sectionRows(sections.size(), 0);
    std::vector<bool> sectionHasTable(sections.size(), false);
    for (const Table& b : blocks) {
        sectionRows[size_t(b.section)] += b.rows;
        sectionHasTable[size_t(b.section)] = true;
    }
    for (size_t s = 0; s < sections.size(); ++s)
        if (!reasons[s] && sectionRows[s] == 0 && (sectionHasTable[s] || !sections[s].collective.isEmpty()))
            reasons[s] = ImportError{file, 0, {}, ImportTr::tr("no nccl-tests data rows found")};
    if (chosen.empty())
        return unexpected(noAllToAllTest(sections, reasons, file));

    const Table* first = chosen.front();
    appendSamples(chosen, data);
    noteSections(sections, reasons, sectionRows, env);
    if (debugLines > 0)
        env.insert(QStringLiteral("nccl_debug_lines"), debugLines);
    QJsonObject derived;
    for (const Table* b : chosen) {
        const TableFacts& f = *facts[size_t(b - blocks.data())];
        for (auto it = f.derived.begin(); it != f.derived.end(); ++it)
            if (!derived.contains(it.key()))
                derived.insert(it.key(), it.value());
        if (f.fragment)
            env.insert(QStringLiteral("fragment"), true);
    }
    env.insert(QStringLiteral("collective"), firstFacts->collective);
    env.insert(QStringLiteral("collective_source"), firstFacts->collectiveSource);
    env.insert(QStringLiteral("world"), firstFacts->world);
    env.insert(QStringLiteral("world_source"), firstFacts->worldSource);
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
    env.insert(QStringLiteral("rank_list_complete"),
               !first->rankListCut && qint64(first->ranks.size()) == firstFacts->world);
    env.insert(QStringLiteral("gpu_models"), models);
    if (!ncclVersion.isEmpty())
        env.insert(QStringLiteral("nccl_version"), ncclVersion);
    if (!testsVersion.isEmpty())
        env.insert(QStringLiteral("nccl_tests_version"), testsVersion);
    env.insert(QStringLiteral("data_type"), first->type);
    for (const Table* b : chosen)
        if (b->avgBusbw >= 0) {
            env.insert(QStringLiteral("avg_busbw_gbps"), b->avgBusbw);
            break;
        }
    for (const Table* b : chosen)
        if (!b->outOfBounds.isEmpty()) {
            env.insert(QStringLiteral("out_of_bounds"), b->outOfBounds);
            break;
        }
    env.insert(QStringLiteral("samples"),
               QStringLiteral("one per row: the out-of-place time (nccl-tests' average "
                              "over its iterations); repeat = the size's occurrence"));
    noteAlltoallv(*first, *firstFacts, given.alltoallvMatrix.get(), env);
    return data;
}

} // namespace moewb::importers
