#include "importers/ProbeJsonImporter.h"

#include "importers/ImportLimits.h"
#include "importers/JsonFields.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include <cmath>

namespace moewb::importers {

namespace {

ImportResult syntaxError(const QString& file, const JsonSyntaxError& e) {
    return importError(file, e.line, e.path, ImportTr::tr("not valid JSON: column %1: %2").arg(e.column).arg(e.message));
}

// moe-probe/2's ep_layout: the EP groups measured at once. Into the environment:
// ep_size, ep_groups (the rank lists) and ep_order (absent for the whole world).
bool readEpLayout(JsonFields& j, const JsonField& root, qint64 world, QJsonObject& environment) {
    const JsonField layout = j.member(root, QStringLiteral("ep_layout"));
    if (!j.expectObject(layout))
        return false;
    qint64 epSize = 0;
    const JsonField groups = j.member(layout, QStringLiteral("groups"));
    if (!j.integer(j.member(layout, QStringLiteral("ep_size")), 1, world, epSize) || !j.expectArray(groups, 1))
        return false;
    QJsonArray groupList;
    QSet<qint64> seen;
    for (qsizetype g = 0; g < qsizetype(groups.node->size()); ++g) {
        const JsonField group = j.item(groups, g);
        if (!j.expectArray(group))
            return false;
        if (qint64(group.node->size()) != epSize)
            return j.fail(group, ImportTr::tr("has %1 ranks but ep_size is %2").arg(group.node->size()).arg(epSize));
        QJsonArray ranks;
        for (qsizetype i = 0; i < qsizetype(group.node->size()); ++i) {
            qint64 rank = 0;
            const JsonField item = j.item(group, i);
            if (!j.integer(item, 0, world - 1, rank))
                return false;
            if (seen.contains(rank))
                return j.fail(item, ImportTr::tr("rank %1 is in two EP groups").arg(rank));
            seen.insert(rank);
            ranks.append(rank);
        }
        groupList.append(ranks);
    }
    if (qint64(seen.size()) != world)
        return j.fail(groups, ImportTr::tr("cover %1 of the %2 ranks").arg(seen.size()).arg(world));
    environment.insert(QStringLiteral("ep_size"), epSize);
    environment.insert(QStringLiteral("ep_groups"), groupList);
    const JsonField order = j.member(layout, QStringLiteral("order"), false);
    if (order && !order.node->isNull()) {
        QString text;
        if (!j.string(order, text, false))
            return false;
        environment.insert(QStringLiteral("ep_order"), text);
    }
    return true;
}

// A time of 0 (the only value below the range's floor left) for a message that is not
// empty: no clock measures that, and bandwidth from it would be infinite.
QString zeroTime(quint64 bytes) {
    return ImportTr::tr("is 0 µs for a message of %1 bytes per rank: not a measured time").arg(bytes);
}

} // namespace

ImportResult ProbeJsonImporter::parse(const QByteArray& bytes, const QString& file) {
    auto doc = parseJsonDocument(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!doc)
        return syntaxError(file, doc.error());
    JsonFields j(file);
    const JsonField root = JsonFields::root(doc.value());
    if (!j.expectObject(root))
        return unexpected(j.error());

    QString schema, collective;
    if (!j.string(j.member(root, QStringLiteral("schema")), schema))
        return unexpected(j.error());
    if (schema != QLatin1String("moe-probe/1") && schema != QLatin1String("moe-probe/2")) {
        j.fail(j.member(root, QStringLiteral("schema")),
               ImportTr::tr("is \"%1\"; this build reads moe-probe/1 and moe-probe/2").arg(clipped(schema)));
        return unexpected(j.error());
    }
    const JsonField collectiveField = j.member(root, QStringLiteral("collective"));
    if (!j.string(collectiveField, collective))
        return unexpected(j.error());
    if (collective != QLatin1String("alltoall")) {
        j.fail(collectiveField, ImportTr::tr("is \"%1\"; only alltoall reports are imported").arg(clipped(collective)));
        return unexpected(j.error());
    }

    const JsonField options = j.member(root, QStringLiteral("options"));
    const JsonField environment = j.member(root, QStringLiteral("environment"));
    const JsonField results = j.member(root, QStringLiteral("results"));
    if (!j.expectObject(options) || !j.expectObject(environment) || !j.expectArray(results, 1))
        return unexpected(j.error());
    qint64 world = 0, iters = 0, repeats = 0;
    if (!j.integer(j.member(environment, QStringLiteral("world")), 1, kMaxRanks, world) ||
        !j.integer(j.member(options, QStringLiteral("iters")), 1, kMaxIterations, iters) ||
        !j.integer(j.member(options, QStringLiteral("repeats")), 1, kMaxRepeats, repeats))
        return unexpected(j.error());

    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    data.kind = store::RunKind::Probe;
    data.environment = toQJsonValue(*environment.node).toObject();
    for (const char* key : {"probe_version", "started_at", "duration_s", "options", "summary"})
        if (const JsonNode* n = root.node->member(QLatin1String(key)))
            data.environment.insert(QLatin1String(key), toQJsonValue(*n));
    data.environment.insert(QStringLiteral("schema"), schema);
    data.environment.insert(QStringLiteral("collective"), collective);
    if (schema == QLatin1String("moe-probe/2") && !readEpLayout(j, root, world, data.environment))
        return unexpected(j.error());

    // Room for every sample at once (a vector that doubles would hold up to twice that).
    {
        qsizetype total = 0;
        for (qsizetype r = 0; r < results.node->size(); ++r) {
            const JsonNode* reps = results.node->at(r).member(QLatin1String("repeats"));
            for (qsizetype k = 0; reps && reps->isArray() && k < reps->size(); ++k) {
                const JsonNode* samples = reps->at(k).member(QLatin1String("samples_us"));
                total += samples && samples->isArray() ? samples->size() : 1;
            }
        }
        data.commSamples.reserve(total);
    }

    int perIteration = -1; // unknown until the first repeat: 1 samples_us, 0 medians
    QHash<quint64, QString> seenSizes;
    for (qsizetype r = 0; r < qsizetype(results.node->size()); ++r) {
        const JsonField result = j.item(results, r);
        if (!j.expectObject(result))
            return unexpected(j.error());
        double bytesPerRank = 0;
        qint64 iterations = 0;
        const JsonField bytesField = j.member(result, QStringLiteral("bytes_per_rank"));
        if (!j.number(bytesField, 0, double(kMaxBytesPerRank), bytesPerRank) ||
            !j.integer(j.member(result, QStringLiteral("iterations")), 1, kMaxIterations, iterations))
            return unexpected(j.error());
        const quint64 bytes = quint64(std::llround(bytesPerRank));
        if (seenSizes.contains(bytes)) {
            j.fail(bytesField, ImportTr::tr("%1 bytes per rank appears twice (also in %2)").arg(bytes).arg(seenSizes[bytes]));
            return unexpected(j.error());
        }
        seenSizes.insert(bytes, result.path);
        const JsonField reps = j.member(result, QStringLiteral("repeats"));
        if (!j.expectArray(reps, 1))
            return unexpected(j.error());
        for (qsizetype k = 0; k < qsizetype(reps.node->size()); ++k) {
            const JsonField rep = j.item(reps, k);
            if (!j.expectObject(rep))
                return unexpected(j.error());
            const JsonField timeUs = j.member(rep, QStringLiteral("time_us"));
            double median = 0;
            const JsonField medianField = j.member(timeUs, QStringLiteral("median"));
            if (!j.expectObject(timeUs) || !j.number(medianField, 0, kMaxTimeUs, median))
                return unexpected(j.error());
            if (bytes > 0 && median <= 0) {
                j.fail(medianField, zeroTime(bytes));
                return unexpected(j.error());
            }
            const JsonField samples = j.member(rep, QStringLiteral("samples_us"), false);
            const int hasSamples = samples ? 1 : 0;
            if (perIteration < 0)
                perIteration = hasSamples;
            if (hasSamples != perIteration) {
                j.fail(samples ? samples : rep,
                       hasSamples ? ImportTr::tr("samples_us is present here but missing in the first repeat")
                                  : ImportTr::tr("samples_us is missing here but present in the first repeat"));
                return unexpected(j.error());
            }
            if (!hasSamples) {
                data.commSamples.append(store::CommSample{bytes, int(k), 0, median});
                ++data.rows;
                continue;
            }
            if (!j.expectArray(samples))
                return unexpected(j.error());
            if (qint64(samples.node->size()) != iterations) {
                j.fail(samples, ImportTr::tr("has %1 values but the result says %2 iterations")
                                    .arg(samples.node->size())
                                    .arg(iterations));
                return unexpected(j.error());
            }
            const bool read = j.numbers(samples, 0, kMaxTimeUs, [&](qsizetype i, double t) {
                if (bytes > 0 && t <= 0)
                    return zeroTime(bytes);
                data.commSamples.append(store::CommSample{bytes, int(k), int(i), t});
                ++data.rows;
                return QString();
            });
            if (!read)
                return unexpected(j.error());
        }
    }
    data.environment.insert(QStringLiteral("samples"), perIteration == 1 ? QStringLiteral("per-iteration")
                                                                         : QStringLiteral("per-repeat medians"));
    return data;
}

} // namespace moewb::importers
