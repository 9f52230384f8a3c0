#include "importers/ImportError.h"

namespace moewb::importers {

QString ImportError::text() const {
    QString t = file;
    if (line > 0)
        t += QLatin1Char(':') + QString::number(line);
    t += QStringLiteral(": ");
    if (!field.isEmpty())
        t += field + QStringLiteral(": ");
    return t + message;
}

} // namespace moewb::importers
