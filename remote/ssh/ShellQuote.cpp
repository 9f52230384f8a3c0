#include "ShellQuote.h"

namespace moewb::remote {

QString shellQuote(const QString& arg) {
    QString out;
    out.reserve(arg.size() + 2);
    out += QLatin1Char('\'');
    for (QChar c : arg) {
        if (c == QLatin1Char('\''))
            out += QStringLiteral("'\\''");
        else
            out += c;
    }
    out += QLatin1Char('\'');
    return out;
}

QString shellJoin(const QStringList& argv) {
    QStringList quoted;
    quoted.reserve(argv.size());
    for (const QString& a : argv)
        quoted << shellQuote(a);
    return quoted.join(QLatin1Char(' '));
}

} // namespace moewb::remote
