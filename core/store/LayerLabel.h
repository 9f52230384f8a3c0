#pragma once
// How a stored layer is named to the reader. Decoder layers are "layer 3"; the
// multi-token-prediction (MTP) layers an import merged from Megatron-Core files sit
// after the decoder's with their own numbers, listed in the run's environment:
//   "mtp_layers": [{"layer": 28, "mtp_idx": 0, "mtp_layer": 1}, ...]
// and are named "MTP 0 · layer 1".
#include <QJsonObject>
#include <QString>

namespace moewb::store {

QString layerLabel(const QJsonObject& runEnvironment, int layer);
// True for a layer the environment lists as an MTP layer.
bool isMtpLayer(const QJsonObject& runEnvironment, int layer);

} // namespace moewb::store
