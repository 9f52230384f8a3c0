#include "store/NameRules.h"

// The characters a name may not hold, and how a name is shown, follow the one rule for
// text from a file (common/DisplayText.h): nameProblem refuses every hidden character
// (isHiddenCharacter: controls, bidi marks, overrides and isolates, other invisible
// format characters, line/paragraph separators), named by code point and position in
// characters; printableName is displayText(name, kMaxNameLength), so a longer name shows
// its first kMaxNameLength − 1 characters and "…".

#include "store/SqlSupport.h"

#include "common/DisplayText.h"

namespace moewb::store {
namespace {

QString codePoint(char32_t c) {
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
    qsizetype at = 0; // characters (code points) before name[i]
    for (qsizetype i = 0; i < name.size(); ++i, ++at) {
        char32_t c = name[i].unicode();
        if (name[i].isHighSurrogate() && i + 1 < name.size() && name[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(name[i], name[i + 1]);
            ++i;
        }
        if (!isHiddenCharacter(c))
            continue;
        const QString shown = printableName(name);
        switch (kind) {
        case NameKind::Record:
            return StoreTr::tr("the config record name \"%1\" holds the control character %2 at character %3; "
                              "names may not hold control characters")
                .arg(shown, codePoint(c))
                .arg(at + 1);
        case NameKind::Run:
            return StoreTr::tr("the run name \"%1\" holds the control character %2 at character %3; names may "
                              "not hold control characters")
                .arg(shown, codePoint(c))
                .arg(at + 1);
        case NameKind::Cluster:
            return StoreTr::tr("the cluster name \"%1\" holds the control character %2 at character %3; names "
                              "may not hold control characters")
                .arg(shown, codePoint(c))
                .arg(at + 1);
        }
    }
    return {};
}

QString printableName(const QString& name) {
    return displayText(name, kMaxNameLength);
}

} // namespace moewb::store
