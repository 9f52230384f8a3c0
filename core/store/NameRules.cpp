#include "store/NameRules.h"

#include "store/SqlSupport.h"

namespace moewb::store {
namespace {

bool refusedCharacter(char16_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

QString codePoint(char16_t c) {
    return QStringLiteral("U+") + QStringLiteral("%1").arg(uint(c), 4, 16, QLatin1Char('0')).toUpper();
}

} // namespace

QString nameProblem(NameKind kind, const QString& name) {
    if (name.trimmed().isEmpty()) {
        switch (kind) {
        case NameKind::Record:
            return StoreTr::tr("a config record needs a name");
        case NameKind::Run:
            return StoreTr::tr("a run needs a name");
        case NameKind::Cluster:
            return StoreTr::tr("a cluster needs a name");
        }
    }
    if (name.size() > kMaxNameLength) {
        switch (kind) {
        case NameKind::Record:
            return StoreTr::tr("a config record name may be at most %1 characters long; this one has %2")
                .arg(kMaxNameLength)
                .arg(name.size());
        case NameKind::Run:
            return StoreTr::tr("a run name may be at most %1 characters long; this one has %2")
                .arg(kMaxNameLength)
                .arg(name.size());
        case NameKind::Cluster:
            return StoreTr::tr("a cluster name may be at most %1 characters long; this one has %2")
                .arg(kMaxNameLength)
                .arg(name.size());
        }
    }
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char16_t c = name[i].unicode();
        if (!refusedCharacter(c))
            continue;
        const QString shown = printableName(name);
        switch (kind) {
        case NameKind::Record:
            return StoreTr::tr("the config record name \"%1\" holds the control character %2 at character %3; "
                              "names may not hold control characters")
                .arg(shown, codePoint(c))
                .arg(i + 1);
        case NameKind::Run:
            return StoreTr::tr("the run name \"%1\" holds the control character %2 at character %3; names may "
                              "not hold control characters")
                .arg(shown, codePoint(c))
                .arg(i + 1);
        case NameKind::Cluster:
            return StoreTr::tr("the cluster name \"%1\" holds the control character %2 at character %3; names "
                              "may not hold control characters")
                .arg(shown, codePoint(c))
                .arg(i + 1);
        }
    }
    return {};
}

QString printableName(const QString& name) {
    bool escape = false;
    for (QChar c : name)
        escape = escape || refusedCharacter(c.unicode());
    if (!escape && name.size() <= kMaxNameLength)
        return name;
    QString out;
    out.reserve(std::min<qsizetype>(name.size(), kMaxNameLength) + 8);
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (i == kMaxNameLength) {
            out += QChar(0x2026);
            break;
        }
        const char16_t c = name[i].unicode();
        if (escape && c == u'\\') // unambiguous once anything is escaped
            out += QStringLiteral("\\\\");
        else if (refusedCharacter(c))
            out += c < 0x100 ? QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'))
                             : QStringLiteral("\\u{%1}").arg(uint(c), 4, 16, QLatin1Char('0'));
        else
            out += name[i];
    }
    return out;
}

} // namespace moewb::store
