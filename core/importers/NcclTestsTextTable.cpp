#include "importers/NcclTestsTextTable.h"

#include "importers/NcclTestsText.h"

namespace moewb::importers::nccltests {

namespace {

Unexpected<ImportError> failAt(const QString& file, qint64 line, const QString& field,
                               const QString& message) {
    return importError(file, line, field, message);
}

} // namespace

std::optional<ImportError> applyColumnHeader(Table& b, const QStringList& cols, const QString& file,
                                             qint64 n) {
    int left = 0;
    while (left < cols.size() &&
           QStringList{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"),
                       QStringLiteral("redop"), QStringLiteral("root")}
               .contains(cols[left]))
        ++left;
    if (left < 3 || cols[0] != QLatin1String("size") || cols[1] != QLatin1String("count") ||
        cols[2] != QLatin1String("type"))
        return ImportError{file, n, QStringLiteral("header"),
                           ImportTr::tr("the column header does not start with size, count, type: \"%1\"")
                               .arg(cols.join(QLatin1Char(' ')).left(80))};
    if (cols.size() - left > 64)
        return ImportError{
            file, n, QStringLiteral("header"),
            ImportTr::tr("the column header has %1 columns; nccl-tests prints at most 20").arg(cols.size())};
    b.leftColumns = left;
    b.rightColumns = cols.mid(left);
    b.rightTokens = 0;
    b.oopTime = b.oopAlgbw = b.oopBusbw = b.oopWrong = b.ipTime = -1;
    b.oopIterMin = b.oopIterMax = b.oopIterP99 = b.oopIterCv = -1;
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
        } else if (timeSeen == 1 && c.startsWith(QLatin1String("i_"))) {
            int* column = c == QLatin1String("i_min")   ? &b.oopIterMin
                          : c == QLatin1String("i_max") ? &b.oopIterMax
                          : c == QLatin1String("i_p99") ? &b.oopIterP99
                          : c == QLatin1String("i_cv%") ? &b.oopIterCv
                                                        : nullptr;
            if (column && *column < 0)
                *column = i;
        }
    }
    if (b.oopTime < 0 || b.oopAlgbw < 0)
        return ImportError{file, n, QStringLiteral("header"),
                           ImportTr::tr("the column header has no time and algbw columns: \"%1\"")
                               .arg(cols.join(QLatin1Char(' ')).left(80))};
    b.tableLine = n;
    return std::nullopt;
}

Expected<TableFacts, ImportError> resolveTable(const Table& b, const QString& file,
                                               const NcclTestsTextOptions& given) {
    auto fail = [&](qint64 at, const QString& field, const QString& message) {
        return failAt(file, at, field, message);
    };
    QJsonObject derived; // fact -> how it was derived (pasted fragments)
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
        return fail(
            b.collectiveLine, QStringLiteral("collective"),
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
            return fail(
                b.tableLine, QStringLiteral("redop"),
                ImportTr::tr("is %1: a reduction (all_reduce, reduce or reduce_scatter), not alltoall; "
                             "only all-to-all tests are imported")
                    .arg(op));
    // What the rows say: an alltoall prints size = count x type size x ranks.
    const int ts = typeSize(b.type);
    qint64 rowRanks = 0; // the ranks every row with a count gives (alltoall)
    qint64 rowsWithCount = 0;
    const RowCheck* oddRow = nullptr; // a row that no alltoall prints, or that disagrees
    for (const RowCheck& r : b.checks) {
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
        return fail(
            firstRowLine, QStringLiteral("collective"),
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
                const QString what = ImportTr::tr("is %1 for %2 bytes of %3")
                                         .arg(oddRow->count)
                                         .arg(oddRow->size)
                                         .arg(oddRow->type);
                return fail(
                    oddRow->line, QStringLiteral("count"),
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
                            ts == 0
                                ? ImportTr::tr("the pasted table does not show the ranks and its type \"%1\" "
                                               "has no known size to derive them from; give --ranks N")
                                      .arg(b.type)
                                : ImportTr::tr("the pasted table does not show the ranks and has no row with "
                                               "a count to derive them from (size / (count x type size)); "
                                               "give --ranks N"));
            ranks = rowRanks;
            ranksSource = QStringLiteral("derived");
            derived.insert(
                QStringLiteral("world"),
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
        for (const RowCheck& r : b.checks) {
            if (r.size == 0 || ts == 0)
                continue;
            if (r.size % (qint64(ts) * ranks) != 0 || r.size / (qint64(ts) * ranks) != r.count)
                return fail(
                    r.line, QStringLiteral("count"),
                    name.isEmpty()
                        ? ImportTr::tr(
                              "is %1 for %2 bytes of %3 on %4 ranks; an alltoall prints size / (type "
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
            source =
                QStringLiteral("assumed: the file does not name its test; no reduction and count = size / "
                               "(type size x ranks) fit alltoall");
        }
    } else if (ranks == 0 && b.summary) {
        // alltoallv_perf's per-rank summary names its ranks.
        ranks = b.summary->ranks;
        ranksSource = QStringLiteral("derived");
        derived.insert(QStringLiteral("world"),
                       QStringLiteral("%1 = nranks of alltoallv_perf's summary (line %2)").arg(ranks).arg(b.summary->line));
    } else if (ranks == 0) {
        // alltoallv prints the largest rank's bytes: its sizes depend on its pattern,
        // so the rows do not give the ranks.
        return fail(
            firstRowLine, QStringLiteral("ranks"),
            ImportTr::tr("the pasted %1 table does not show the ranks (no rank list) and alltoallv's rows "
                         "do not give them; give --ranks N")
                .arg(name));
    }
    if (b.columnsDerived)
        derived.insert(
            QStringLiteral("columns"),
            QStringLiteral("no column header: the layout of nccl-tests' %1-value rows (%2)")
                .arg(b.derivedValues)
                .arg((QStringList{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"),
                                  QStringLiteral("redop"), QStringLiteral("root")}
                          .mid(0, b.leftColumns) +
                      b.rightColumns)
                         .join(QLatin1Char(' '))));
    TableFacts facts;
    facts.collective = name;
    facts.collectiveSource = source;
    facts.world = ranks;
    facts.worldSource = ranksSource;
    facts.derived = derived;
    facts.fragment = fragment;
    return facts;
}

} // namespace moewb::importers::nccltests
