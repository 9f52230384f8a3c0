#include "importers/ImportError.h"

namespace moewb::importers {

QString ImportError::text() const {
    QString t = file;
    if (line > 0)
        t += QLatin1Char(':') + QString::number(line);
    t += QStringLiteral(": ");
    // Bounded here too, for errors built without importError(): a field or message
    // that quotes the input never echoes more than a few hundred characters of it.
    auto cut = [](const QString& s, qsizetype max) { return s.size() <= max ? s : s.left(max) + QChar(0x2026); };
    if (!field.isEmpty())
        t += cut(field, 200) + QStringLiteral(": ");
    return t + cut(message, 1000);
}

} // namespace moewb::importers
