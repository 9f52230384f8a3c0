#include "runimport/FileNotes.h"

#include "common/Units.h"
#include "runimport/RunImportTr.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <climits>

namespace moewb::runimport {

namespace {

int clampedInt(qint64 v) {
    return int(std::clamp<qint64>(v, 0, INT_MAX));
}

} // namespace

QStringList fileNotes(const importers::ImportedData& d, const QString& shown) {
    QStringList notes;
    const QJsonObject& env = d.environment;
    // A log of several nccl-tests tests: the tests left out.
    for (const QJsonValue& v : env.value(QLatin1String("skipped_sections")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString test = o.value(QLatin1String("test")).toString();
        notes << RunImportTr::tr("%1:%2-%3: the %4 test left out: %5")
                     .arg(shown)
                     .arg(o.value(QLatin1String("first_line")).toInteger())
                     .arg(o.value(QLatin1String("last_line")).toInteger())
                     .arg(test.isEmpty() ? RunImportTr::tr("unnamed") : test,
                          o.value(QLatin1String("reason")).toString());
    }
    const QJsonObject more = env.value(QLatin1String("skipped_sections_more")).toObject();
    if (!more.isEmpty())
        notes << RunImportTr::tr("%1: %n more test(s) left out: %2", "",
                                 clampedInt(more.value(QLatin1String("count")).toInteger()))
                     .arg(shown, more.value(QLatin1String("tests")).toString());
    // alltoallv_perf with a traffic matrix: where its bytes per rank come from.
    const QJsonObject a2av = env.value(QLatin1String("alltoallv")).toObject();
    if (a2av.value(QLatin1String("mode")).toString() == QLatin1String("matrix")) {
        const double perRank = a2av.value(QLatin1String("bytes_per_rank")).toDouble();
        const double busiest = a2av.value(QLatin1String("busiest_rank_bytes")).toDouble();
        const bool fromSummary = a2av.contains(QLatin1String("summary_rows"));
        const QString file = a2av.value(QLatin1String("matrix_file")).toString();
        notes << RunImportTr::tr("%1: alltoallv_perf with a traffic matrix (%2×%2, scale %3): bytes per rank = the "
                                 "matrix's mean row sum, %4 (%5 B), from %6; the size column, %7, is the busiest rank's "
                                 "(rank %8); pattern_origin: %9")
                     .arg(shown)
                     .arg(a2av.value(QLatin1String("matrix_dim")).toInteger())
                     .arg(QString::number(a2av.value(QLatin1String("scale")).toDouble(), 'f', 3),
                          units::formatBytes(perRank), QString::number(qint64(perRank)),
                          fromSummary && !file.isEmpty()
                              ? RunImportTr::tr("its summary lines, checked against %1").arg(file)
                              : (fromSummary ? RunImportTr::tr("its summary lines")
                                             : RunImportTr::tr("the matrix %1").arg(file)),
                          units::formatBytes(busiest),
                          QString::number(a2av.value(QLatin1String("busiest_rank")).toInteger()),
                          env.value(QLatin1String("pattern_origin")).toString());
    }
    // Megatron-Bridge's Step Time lines: what they gave, and what they did not.
    if (const qint64 stepTimes = env.value(QLatin1String("step_time_lines")).toInteger(); stepTimes > 0)
        notes << RunImportTr::tr("%1: %n Megatron-Bridge Step Time line(s): model TFLOP/s/GPU per iteration "
                                 "(tflops_per_gpu). The log gives no tokens/s/GPU: stage 2 derives it from the step "
                                 "time as the record's global batch tokens (global batch × sequence length) ÷ (step "
                                 "time × world size), and says so.",
                                 "", clampedInt(stepTimes))
                     .arg(shown);
    if (const qint64 orphans = env.value(QLatin1String("step_time_lines_without_iteration")).toInteger(); orphans > 0)
        notes << RunImportTr::tr("%1: %n Step Time line(s) left out: no iteration line after them to give their "
                                 "iteration number",
                                 "", clampedInt(orphans))
                     .arg(shown);
    // A console log's damaged lines: salvaged (some fields kept) or left out.
    const QJsonArray damaged = env.value(QLatin1String("damaged_lines")).toArray();
    for (const QJsonValue& v : damaged) {
        const QJsonObject o = v.toObject();
        const qint64 kept = o.value(QLatin1String("kept")).toInteger();
        const QString field = o.value(QLatin1String("field")).toString();
        const QString why =
            field.isEmpty()
                ? o.value(QLatin1String("reason")).toString()
                : QStringLiteral("%1: %2").arg(field, o.value(QLatin1String("reason")).toString());
        notes << (kept > 0 ? RunImportTr::tr("%1:%2: damaged line, %n field(s) kept; left out: %3", "",
                                             clampedInt(kept))
                           : RunImportTr::tr("%1:%2: damaged line left out: %3"))
                     .arg(shown)
                     .arg(o.value(QLatin1String("line")).toInteger())
                     .arg(why);
    }
    const qint64 total = env.value(QLatin1String("damaged_lines_total")).toInteger();
    if (total > damaged.size())
        notes << RunImportTr::tr(
                     "%1: %n more damaged line(s) (import with --strict to refuse the file instead)", "",
                     clampedInt(total - damaged.size()))
                     .arg(shown);
    return notes;
}

QStringList allToAllTests(const QJsonObject& environment) {
    QStringList tests;
    auto add = [&](const QString& test) {
        if ((test == QLatin1String("alltoall") || test == QLatin1String("alltoallv")) && !tests.contains(test))
            tests << test;
    };
    add(environment.value(QLatin1String("collective")).toString());
    for (const QJsonValue& v : environment.value(QLatin1String("skipped_sections")).toArray())
        add(v.toObject().value(QLatin1String("test")).toString());
    return tests;
}

} // namespace moewb::runimport
