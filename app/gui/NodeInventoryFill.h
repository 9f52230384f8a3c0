#pragma once
// "Fill from node inventory": the config-record hardware fields a cluster's nodes
// tell about themselves. Each node's facts hold the probe's `moe-probe --inventory`
// JSON (schema moe-probe-inventory/1, docs/probe-json.md), either as the facts
// object itself or under the key "inventory".
#include "store/ProjectStore.h"

#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QStringList>

namespace moewb::gui {

struct InventoryFill {
    QMap<QString, QJsonValue> values; // record field path -> value
    QStringList notes;                // what was read from where, and disagreements between nodes
};

InventoryFill fillFromInventory(const QList<store::NodeRow>& nodes);

} // namespace moewb::gui
