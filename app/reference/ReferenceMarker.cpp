#include "ReferenceMarker.h"

namespace moewb::reference {

namespace {

std::optional<ReferenceInfo> fromJson(const QJsonValue& v) {
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    if (o.value(QStringLiteral("measured_on")).toString() != QLatin1String("this computer"))
        return std::nullopt;
    ReferenceInfo info;
    info.quick = o.value(QStringLiteral("quick")).toBool();
    info.stageFourMeasured = o.value(QStringLiteral("stage4")).toString() == QLatin1String("measured");
    info.stageFourWhyNot = o.value(QStringLiteral("stage4_why_not")).toString();
    info.clusterBRate = o.value(QStringLiteral("cluster_b_rate")).toString();
    return info;
}

} // namespace

QJsonObject markerJson(const ReferenceInfo& info) {
    QJsonObject o{{QStringLiteral("measured_on"), QStringLiteral("this computer")},
                  {QStringLiteral("scale"), QStringLiteral("CPU, gloo, tiny model")},
                  {QStringLiteral("quick"), info.quick},
                  {QStringLiteral("stage4"), info.stageFourMeasured ? QStringLiteral("measured")
                                                                    : QStringLiteral("not-measured")}};
    if (!info.stageFourMeasured)
        o.insert(QStringLiteral("stage4_why_not"), info.stageFourWhyNot);
    if (!info.clusterBRate.isEmpty())
        o.insert(QStringLiteral("cluster_b_rate"), info.clusterBRate);
    return o;
}

std::optional<ReferenceInfo> referenceInfo(const store::ProjectStore& project) {
    const QString key = QString::fromLatin1(kMarkerKey);
    // The first cluster (cluster A) holds the whole story, stage 4 included.
    for (const store::ClusterRow& c : project.clusters())
        if (auto info = fromJson(c.facts.value(key)))
            return info;
    for (const store::RunRow& r : project.runs())
        if (auto info = fromJson(r.environment.value(key)))
            return info;
    return std::nullopt;
}

QString bannerText() {
    return Reference::tr("Measured on this computer: CPU, gloo, tiny model — the method is real, the scale is not.");
}

QString secondClusterHowTo() {
    return Reference::tr("To measure stage 4, add a real second cluster and its baseline: moewb cluster add NAME "
                         "--node HOST,...; moewb run stage1 --cluster NAME --record RECORD; moewb stage 4.");
}

QString bannerText(const ReferenceInfo& info) {
    QString text = bannerText();
    if (!info.stageFourMeasured) {
        text += QLatin1Char(' ') + Reference::tr("Stage 4 was not measured: %1").arg(info.stageFourWhyNot);
        text += QLatin1Char(' ') + secondClusterHowTo();
    }
    return text;
}

} // namespace moewb::reference
