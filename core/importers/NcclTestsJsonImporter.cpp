#include "importers/NcclTestsJsonImporter.h"

#include "importers/ImportLimits.h"
#include "importers/JsonFields.h"
#include "importers/NcclTestsText.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

namespace moewb::importers {

using namespace nccltests;

ImportResult NcclTestsJsonImporter::parse(const QByteArray& bytes, const QString& file) {
    auto doc = parseJsonDocument(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!doc)
        return importError(file, doc.error().line, doc.error().path,
                           ImportTr::tr("not valid JSON: column %1: %2").arg(doc.error().column).arg(doc.error().message));
    JsonFields j(file);
    const JsonField root = JsonFields::root(doc.value());
    if (!j.expectObject(root))
        return unexpected(j.error());
    const JsonField results = j.member(root, QStringLiteral("results"));
    const JsonField config = j.member(root, QStringLiteral("config"));
    if (!j.expectArray(results, 1) || !j.expectObject(config))
        return unexpected(j.error());

    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    QJsonObject& env = data.environment;

    // The program name says which test ran: args[0] = ".../alltoall_perf".
    QString collective;
    const JsonField args = j.member(root, QStringLiteral("args"), false);
    if (args && j.expectArray(args, 1)) {
        QString program;
        if (!j.string(j.item(args, 0), program))
            return unexpected(j.error());
        collective = collectiveFromProgram(program);
        if (!isAllToAll(collective)) {
            j.fail(j.item(args, 0), ImportTr::tr("runs %1, not alltoall or alltoallv; only all-to-all tests are "
                                                 "imported").arg(clipped(collective)));
            return unexpected(j.error());
        }
    }
    if (j.failed())
        return unexpected(j.error());

    qint64 world = 0;
    const JsonField devices = j.member(config, QStringLiteral("devices"), false);
    QJsonArray hostnames, models;
    QSet<QString> hostSet, modelSet;
    if (devices) {
        if (!j.expectArray(devices))
            return unexpected(j.error());
        for (qsizetype i = 0; i < qsizetype(devices.node->size()); ++i) {
            const JsonField d = j.item(devices, i);
            qint64 rank = 0;
            QString host, model;
            if (!j.expectObject(d) || !j.integer(j.member(d, QStringLiteral("rank")), 0, kMaxRanks - 1, rank) ||
                !j.string(j.member(d, QStringLiteral("hostname")), host))
                return unexpected(j.error());
            if (const JsonField info = j.member(d, QStringLiteral("device_info"), false); info && info.node->isString())
                model = info.node->string.trimmed();
            world = std::max(world, rank + 1);
            if (!hostSet.contains(host)) {
                hostSet.insert(host);
                hostnames.append(host);
            }
            if (!model.isEmpty() && !modelSet.contains(model)) {
                modelSet.insert(model);
                models.append(model);
            }
        }
    }
    qint64 nthreads = 1, ngpus = 1;
    if (const JsonField f = j.member(config, QStringLiteral("nthreads"), false); f && !j.integer(f, 1, 1024, nthreads))
        return unexpected(j.error());
    if (const JsonField f = j.member(config, QStringLiteral("ngpus"), false); f && !j.integer(f, 1, 1024, ngpus))
        return unexpected(j.error());
    if (world == 0)
        world = nthreads * ngpus;

    // Room for every sample at once (a vector that doubles would hold up to twice that).
    {
        qsizetype total = 0;
        for (qsizetype r = 0; r < results.node->size(); ++r) {
            const JsonNode* perIter = results.node->at(r).member(QLatin1String("out_of_place_per_iter"));
            const JsonNode* times = perIter ? perIter->member(QLatin1String("times_us")) : nullptr;
            total += times && times->isArray() ? times->size() : 1;
        }
        data.commSamples.reserve(total);
    }

    QHash<qint64, int> occurrences;
    QJsonArray inPlace;
    bool perIteration = false;
    for (qsizetype r = 0; r < qsizetype(results.node->size()); ++r) {
        const JsonField row = j.item(results, r);
        if (!j.expectObject(row))
            return unexpected(j.error());
        qint64 size = 0, count = 0;
        QString type, redop;
        if (!j.integer(j.member(row, QStringLiteral("size")), 0, kMaxBytesPerRank, size) ||
            !j.integer(j.member(row, QStringLiteral("count")), 0, kMaxBytesPerRank, count) ||
            !j.string(j.member(row, QStringLiteral("type")), type) ||
            !j.string(j.member(row, QStringLiteral("redop")), redop))
            return unexpected(j.error());
        redop = redop.trimmed();
        if (isReductionOp(redop)) {
            j.fail(j.member(row, QStringLiteral("redop")),
                   ImportTr::tr("is %1: a reduction (all_reduce, reduce or reduce_scatter), not alltoall").arg(redop));
            return unexpected(j.error());
        }
        if (collective.isEmpty()) {
            const int ts = typeSize(type);
            if (size > 0 && ts > 0 && (size % (qint64(ts) * world) != 0 || size / (qint64(ts) * world) != count)) {
                j.fail(j.member(row, QStringLiteral("count")),
                       ImportTr::tr("is %1 for %2 bytes on %3 ranks; the file does not name its test and an "
                                    "alltoall prints size / (type size × ranks)")
                           .arg(count)
                           .arg(size)
                           .arg(world));
                return unexpected(j.error());
            }
        }
        const JsonField oop = j.member(row, QStringLiteral("out_of_place"));
        if (!j.expectObject(oop))
            return unexpected(j.error());
        JsonField timeField = j.member(oop, QStringLiteral("time"), false);
        if (!timeField)
            timeField = j.member(oop, QStringLiteral("cpu_time"));
        double time = 0, algbw = 0;
        if (!j.number(timeField, 0, kMaxTimeUs, time) ||
            !j.number(j.member(oop, QStringLiteral("alg_bw")), 0, 1e6, algbw))
            return unexpected(j.error());
        if (size > 0 && time <= 0) {
            j.fail(timeField, ImportTr::tr("must be > 0 for %1 bytes").arg(size));
            return unexpected(j.error());
        }
        const int repeat = occurrences[size]++;
        const JsonField perIter = j.member(row, QStringLiteral("out_of_place_per_iter"), false);
        const JsonField times = perIter && perIter.node->isObject() ? j.member(perIter, QStringLiteral("times_us"), false)
                                                                    : JsonField{};
        if (times) {
            if (!j.expectArray(times, 1))
                return unexpected(j.error());
            perIteration = true;
            const bool read = j.numbers(times, 0, kMaxTimeUs, [&](qsizetype i, double t) {
                if (size > 0 && t <= 0)
                    return ImportTr::tr("is 0 µs for a message of %1 bytes: not a measured time").arg(size);
                data.commSamples.append(store::CommSample{quint64(size), repeat, int(i), t});
                return QString();
            });
            if (!read)
                return unexpected(j.error());
        } else {
            data.commSamples.append(store::CommSample{quint64(size), repeat, 0, time});
        }
        const JsonField ip = j.member(row, QStringLiteral("in_place"), false);
        if (ip && ip.node->isObject()) {
            JsonField ipTime = j.member(ip, QStringLiteral("time"), false);
            if (!ipTime)
                ipTime = j.member(ip, QStringLiteral("cpu_time"), false);
            double t = 0;
            if (ipTime) {
                if (!j.number(ipTime, 0, kMaxTimeUs, t))
                    return unexpected(j.error());
                if (size > 0 && t <= 0) {
                    j.fail(ipTime, ImportTr::tr("must be > 0 for %1 bytes").arg(size));
                    return unexpected(j.error());
                }
                inPlace.append(QJsonObject{{QStringLiteral("bytes_per_rank"), size},
                                           {QStringLiteral("repeat"), repeat},
                                           {QStringLiteral("time_us"), t}});
            }
        }
        ++data.rows;
    }

    env.insert(QStringLiteral("collective"), collective.isEmpty() ? QStringLiteral("alltoall") : collective);
    env.insert(QStringLiteral("collective_source"),
               collective.isEmpty() ? QStringLiteral("assumed: the file names no program; no reduction and count = "
                                                     "size / (type size x ranks) fit alltoall")
                                    : QStringLiteral("named by the file (args[0])"));
    env.insert(QStringLiteral("world"), world);
    env.insert(QStringLiteral("hostnames"), hostnames);
    env.insert(QStringLiteral("nodes_listed"), hostnames.size());
    env.insert(QStringLiteral("gpu_models"), models);
    if (const JsonNode* v = root.node->member(QStringLiteral("nccl_version")))
        env.insert(QStringLiteral("nccl_version_code"), toQJsonValue(*v));
    if (const JsonNode* v = root.node->member(QStringLiteral("version")))
        env.insert(QStringLiteral("json_version"), toQJsonValue(*v));
    QJsonObject options = toQJsonValue(*config.node).toObject();
    options.remove(QStringLiteral("devices"));
    env.insert(QStringLiteral("options"), options);
    if (const JsonNode* v = root.node->member(QStringLiteral("average_bus_bandwidth")); v && v->isObject())
        if (const JsonNode* bw = v->member(QStringLiteral("bandwidth")); bw && bw->isNumber())
            env.insert(QStringLiteral("avg_busbw_gbps"), bw->number);
    env.insert(QStringLiteral("samples"), perIteration ? QStringLiteral("per-iteration (times_us)")
                                                       : QStringLiteral("one per result: the out-of-place time"));
    env.insert(QStringLiteral("in_place"), inPlace);
    return data;
}

} // namespace moewb::importers
