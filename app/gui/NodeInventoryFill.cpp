#include "NodeInventoryFill.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

namespace {

class Tr {
    Q_DECLARE_TR_FUNCTIONS(NodeInventoryFill)
};

QJsonObject inventoryOf(const store::NodeRow& node) {
    if (node.facts.value(QStringLiteral("inventory")).isObject())
        return node.facts.value(QStringLiteral("inventory")).toObject();
    return node.facts;
}

QString rateText(double gbps) {
    return std::fabs(gbps - std::round(gbps)) < 1e-9 ? QString::number(qint64(std::llround(gbps)))
                                                     : QString::number(gbps, 'g', 4);
}

} // namespace

InventoryFill fillFromInventory(const QList<store::NodeRow>& nodes) {
    InventoryFill out;
    if (nodes.isEmpty()) {
        out.notes << Tr::tr("The cluster has no nodes.");
        return out;
    }
    out.values.insert(QStringLiteral("cluster.nodes"), int(nodes.size()));
    QSet<QString> models;
    QSet<int> gpuCounts;
    QSet<QString> fabrics;
    int withInventory = 0;
    QString firstModel, firstFabric, firstNetwork;
    int firstGpus = 0;
    for (const store::NodeRow& node : nodes) {
        const QJsonObject inv = inventoryOf(node);
        const QJsonArray gpus = inv.value(QStringLiteral("gpus")).toArray();
        const bool hasInventory = inv.contains(QStringLiteral("gpus")) || inv.contains(QStringLiteral("gpu_count"));
        int count = inv.value(QStringLiteral("gpu_count")).toInt(int(gpus.size()));
        if (!hasInventory) {
            count = node.gpus;
        } else {
            ++withInventory;
        }
        if (count > 0) {
            gpuCounts.insert(count);
            if (!firstGpus)
                firstGpus = count;
        }
        if (!gpus.isEmpty()) {
            const QString model = gpus.first().toObject().value(QStringLiteral("name")).toString().trimmed();
            if (!model.isEmpty()) {
                models.insert(model);
                if (firstModel.isEmpty())
                    firstModel = model;
            }
        }
        // The fabric: active InfiniBand ports first, else physical NICs that are up.
        const QJsonArray ib = inv.value(QStringLiteral("infiniband")).toArray();
        int ibPorts = 0;
        double ibRate = 0;
        for (const auto& dev : ib)
            for (const auto& port : dev.toObject().value(QStringLiteral("ports")).toArray()) {
                const QJsonObject p = port.toObject();
                if (!p.value(QStringLiteral("state")).toString().contains(QLatin1String("ACTIVE"), Qt::CaseInsensitive))
                    continue;
                ++ibPorts;
                ibRate = std::max(ibRate, p.value(QStringLiteral("link_rate_gbps")).toDouble());
            }
        QString fabric, network;
        if (ibPorts > 0) {
            network = QStringLiteral("InfiniBand");
            fabric = ibRate > 0 ? Tr::tr("InfiniBand %1 Gb/s x%2").arg(rateText(ibRate)).arg(ibPorts)
                                : Tr::tr("InfiniBand x%1").arg(ibPorts);
        } else {
            int nics = 0;
            double rate = 0;
            for (const auto& n : inv.value(QStringLiteral("nics")).toArray()) {
                const QJsonObject nic = n.toObject();
                if (nic.value(QStringLiteral("virtual")).toBool() ||
                    nic.value(QStringLiteral("operstate")).toString() != QLatin1String("up"))
                    continue;
                ++nics;
                rate = std::max(rate, nic.value(QStringLiteral("link_rate_gbps")).toDouble());
            }
            if (nics > 0) {
                network = QStringLiteral("Ethernet");
                fabric = rate > 0 ? Tr::tr("Ethernet %1 Gb/s x%2").arg(rateText(rate)).arg(nics)
                                  : Tr::tr("Ethernet x%1").arg(nics);
            }
        }
        if (!fabric.isEmpty()) {
            fabrics.insert(fabric);
            if (firstFabric.isEmpty()) {
                firstFabric = fabric;
                firstNetwork = network;
            }
        }
    }
    if (firstGpus > 0)
        out.values.insert(QStringLiteral("cluster.accelerators_per_node"), firstGpus);
    if (!firstModel.isEmpty())
        out.values.insert(QStringLiteral("cluster.accelerator_model"), firstModel);
    if (!firstNetwork.isEmpty())
        out.values.insert(QStringLiteral("cluster.network_type"), firstNetwork);
    if (nodes.size() == 1)
        out.values.insert(QStringLiteral("cluster.topology.inter_node_fabric"), QStringLiteral("none"));
    else if (!firstFabric.isEmpty())
        out.values.insert(QStringLiteral("cluster.topology.inter_node_fabric"), firstFabric);

    out.notes << Tr::tr("%1 of %n node(s) carry a probe inventory.", "", int(nodes.size())).arg(withInventory);
    if (models.size() > 1)
        out.notes << Tr::tr("The nodes disagree on the accelerator model (%1); the first node's was used.")
                         .arg(QStringList(models.values()).join(QStringLiteral(", ")));
    if (gpuCounts.size() > 1)
        out.notes << Tr::tr("The nodes disagree on accelerators per node; the first node's (%1) was used.")
                         .arg(firstGpus);
    if (fabrics.size() > 1)
        out.notes << Tr::tr("The nodes disagree on the fabric (%1); the first node's was used.")
                         .arg(QStringList(fabrics.values()).join(QStringLiteral(", ")));
    return out;
}

} // namespace moewb::gui
