#include "importers/MegatronTpeJsonlImporter.h"

#include "importers/ExpertLoadJsonl.h"

namespace moewb::importers {

ImportResult MegatronTpeJsonlImporter::parse(const QByteArray& bytes, const QString& fileName) {
    return parseExpertLoadJsonl(bytes, fileName, ExpertLoadJsonlLayout{kFormat, "iter", "tpe", true, true});
}

ImportResult MegatronTpeJsonlImporter::parseDevice(QIODevice& device, qint64 size, const QString& fileName) {
    return parseExpertLoadJsonl(device, size, fileName, ExpertLoadJsonlLayout{kFormat, "iter", "tpe", true, true});
}

} // namespace moewb::importers
