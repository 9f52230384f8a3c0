#include "importers/JsonlExpertLoadImporter.h"

#include "importers/ExpertLoadJsonl.h"

namespace moewb::importers {

ImportResult JsonlExpertLoadImporter::parse(const QByteArray& bytes, const QString& fileName) {
    return parseExpertLoadJsonl(bytes, fileName, ExpertLoadJsonlLayout{kFormat, "step", "tokens", false});
}

ImportResult JsonlExpertLoadImporter::parseDevice(QIODevice& device, qint64 size, const QString& fileName) {
    return parseExpertLoadJsonl(device, size, fileName, ExpertLoadJsonlLayout{kFormat, "step", "tokens", false});
}

} // namespace moewb::importers
