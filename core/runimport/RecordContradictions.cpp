#include "runimport/RecordContradictions.h"

#include "runimport/RunImportTr.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>

namespace moewb::runimport {

namespace {

// What the file says of where it ran: device model texts, ranks, distinct host names.
struct FileFacts {
    QStringList devices;
    qint64 world = 0;
    qint64 hosts = 0; // 0: not known (the rank list was cut, or no host names)
};

QStringList strings(const QJsonValue& v) {
    QStringList out;
    for (const QJsonValue& s : v.toArray())
        if (s.isString() && !s.toString().isEmpty())
            out << s.toString();
    return out;
}

FileFacts factsOf(const importers::ImportedData& d) {
    const QJsonObject& env = d.environment;
    FileFacts f;
    f.world = env.value(QLatin1String("world")).toInteger();
    // nccl-tests text: the device lines; moe-probe: environment.gpu.models.
    f.devices = strings(env.value(QLatin1String("gpu_models")));
    if (f.devices.isEmpty())
        f.devices = strings(env.value(QLatin1String("gpu")).toObject().value(QLatin1String("models")));
    const QStringList hosts = strings(env.value(QLatin1String("hostnames")));
    const bool complete = env.contains(QLatin1String("rank_list_complete"))
                              ? env.value(QLatin1String("rank_list_complete")).toBool()
                              : !hosts.isEmpty();
    if (complete)
        f.hosts = QSet<QString>(hosts.cbegin(), hosts.cend()).size();
    return f;
}

int clampedInt(qint64 v) { return int(std::clamp<qint64>(v, 0, INT_MAX)); }

} // namespace

QStringList acceleratorModels(const QString& text) {
    // A model is letters then digits, maybe one letter after: H100, A800, GB200, MI355X,
    // L40S, V100 (not "80GB", "HBM3" or "SXM5": those have a letter after their digits
    // and another before, or start with a digit).
    static const QRegularExpression re(QStringLiteral("\\b([A-Z]{1,2}\\d{2,4}[A-Z]?)\\b"));
    QStringList out;
    for (auto it = re.globalMatch(text.toUpper()); it.hasNext();) {
        const QString m = it.next().captured(1);
        if (!out.contains(m))
            out << m;
    }
    return out;
}

QStringList recordContradictions(const importers::ImportedData& data, const record::ConfigRecord& record,
                                 const QString& shown) {
    QStringList out;
    const FileFacts f = factsOf(data);
    const record::ClusterRecord& c = record.cluster;
    if (c.acceleratorModel && !f.devices.isEmpty()) {
        const QStringList wanted = acceleratorModels(*c.acceleratorModel);
        QStringList found;
        for (const QString& d : f.devices)
            found << acceleratorModels(d);
        const bool agree = std::any_of(found.cbegin(), found.cend(), [&](const QString& m) { return wanted.contains(m); });
        if (!wanted.isEmpty() && !found.isEmpty() && !agree)
            out << RunImportTr::tr("%1: the devices are %2, but the record's cluster says %3")
                       .arg(shown, f.devices.join(QStringLiteral(", ")), *c.acceleratorModel);
    }
    const std::optional<qint64> world = record.worldSize();
    if (world && f.world > 0 && f.world != *world)
        out << RunImportTr::tr("%1: it ran on %2 ranks, but the record's cluster has %3 accelerators (%4 nodes × %5)")
                   .arg(shown)
                   .arg(f.world)
                   .arg(*world)
                   .arg(*c.nodes)
                   .arg(*c.acceleratorsPerNode);
    if (f.hosts > 0 && c.acceleratorsPerNode && *c.acceleratorsPerNode > 0 &&
        f.world > f.hosts * *c.acceleratorsPerNode) {
        out << RunImportTr::tr("%1: %2 ranks name %n host(s), more than the record's %3 accelerators per node: host "
                               "names repeat across nodes (containers?), so nodes cannot be told apart by name",
                               "", clampedInt(f.hosts))
                   .arg(shown)
                   .arg(f.world)
                   .arg(*c.acceleratorsPerNode);
    } else if (f.hosts > 0 && c.nodes && f.world == world.value_or(f.world) && f.hosts != *c.nodes) {
        out << RunImportTr::tr("%1: its ranks name %n host(s), but the record's cluster has %2 nodes", "",
                               clampedInt(f.hosts))
                   .arg(shown)
                   .arg(*c.nodes);
    }
    return out;
}

} // namespace moewb::runimport
