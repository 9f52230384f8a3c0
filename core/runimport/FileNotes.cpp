#include "runimport/FileNotes.h"

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

} // namespace moewb::runimport
