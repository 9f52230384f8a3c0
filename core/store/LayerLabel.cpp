#include "store/LayerLabel.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace moewb::store {

namespace {

QJsonObject mtpEntry(const QJsonObject& env, int layer) {
    const QJsonArray list = env.value(QLatin1String("mtp_layers")).toArray();
    for (const QJsonValue& v : list) {
        const QJsonObject o = v.toObject();
        if (o.value(QLatin1String("layer")).toInt(-1) == layer)
            return o;
    }
    return {};
}

} // namespace

QString layerLabel(const QJsonObject& runEnvironment, int layer) {
    const QJsonObject mtp = mtpEntry(runEnvironment, layer);
    if (!mtp.isEmpty())
        return QCoreApplication::translate("LayerLabel", "MTP %1 · layer %2")
            .arg(mtp.value(QLatin1String("mtp_idx")).toInt())
            .arg(mtp.value(QLatin1String("mtp_layer")).toInt());
    return QCoreApplication::translate("LayerLabel", "layer %1").arg(layer);
}

bool isMtpLayer(const QJsonObject& runEnvironment, int layer) { return !mtpEntry(runEnvironment, layer).isEmpty(); }

} // namespace moewb::store
