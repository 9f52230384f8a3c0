#pragma once
// moe-probe/1 and moe-probe/2 reports (docs/probe-json.md): one CommSample per timed
// iteration when repeats carry samples_us, else one per repeat from its median (older
// reports). In /2 the top-level samples are the max over the EP groups per iteration,
// the figure that gates a training step; the layout goes into the environment
// (ep_size, ep_groups, ep_order; absent for /1, which measured the whole world).
#include "importers/ImportSupport.h"

namespace moewb::importers {

class ProbeJsonImporter {
public:
    static constexpr const char* kFormat = "probe-json";
    static ImportResult parse(const QByteArray& bytes, const QString& fileName);
    static ImportResult importFile(const QString& path) { return importWith(path, parse); }
};

} // namespace moewb::importers
