#include "NodeAddress.h"

#include "RemoteTr.h"

namespace moewb::remote {

namespace {
bool validPort(const QString& s, int& out) {
    if (s.isEmpty() || s.size() > 5)
        return false;
    for (QChar c : s)
        if (!c.isDigit())
            return false;
    const int p = s.toInt();
    if (p < 1 || p > 65535)
        return false;
    out = p;
    return true;
}

bool validHostChars(const QString& h) {
    for (QChar c : h) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                        u == '.' || u == '-' || u == '_';
        if (!ok)
            return false;
    }
    return true;
}
} // namespace

QString NodeAddress::display() const {
    QString out;
    if (!user.isEmpty())
        out += user + QLatin1Char('@');
    out += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (port > 0)
        out += QLatin1Char(':') + QString::number(port);
    return out;
}

Expected<NodeAddress, QString> NodeAddress::parse(const QString& text) {
    const QString t = text.trimmed();
    auto fail = [&](const QString& why) {
        return unexpected(RemoteSsh::tr("invalid node address '%1': %2").arg(text, why));
    };
    if (t.isEmpty())
        return fail(RemoteSsh::tr("empty"));
    NodeAddress a;
    QString rest = t;
    const qsizetype at = rest.lastIndexOf(QLatin1Char('@'));
    if (at >= 0) {
        a.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (a.user.isEmpty())
            return fail(RemoteSsh::tr("empty user name"));
        for (QChar c : a.user)
            if (c.isSpace() || c == QLatin1Char('@') || c == QLatin1Char(':') || c == QLatin1Char('/'))
                return fail(RemoteSsh::tr("bad character in user name"));
    }
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(RemoteSsh::tr("missing ']'"));
        a.host = rest.mid(1, close - 1);
        const QString tail = rest.mid(close + 1);
        if (!a.host.contains(QLatin1Char(':')))
            return fail(RemoteSsh::tr("brackets are for IPv6 addresses"));
        const qsizetype zone = a.host.indexOf(QLatin1Char('%'));  // fe80::1%eth0
        for (qsizetype i = 0; i < a.host.size(); ++i) {
            const QChar c = a.host.at(i);
            const bool hex = c.isDigit() || (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
                             (c >= QLatin1Char('A') && c <= QLatin1Char('F')) || c == QLatin1Char(':') ||
                             c == QLatin1Char('.');
            const bool inZone = zone >= 0 && i > zone &&
                                ((c.unicode() < 128 && c.isLetterOrNumber()) || c == QLatin1Char('_') ||
                                 c == QLatin1Char('-') || c == QLatin1Char('.'));
            if (!(hex && (zone < 0 || i < zone)) && !inZone && i != zone)
                return fail(RemoteSsh::tr("bad character in IPv6 address"));
        }
        if (!tail.isEmpty()) {
            if (!tail.startsWith(QLatin1Char(':')) || !validPort(tail.mid(1), a.port))
                return fail(RemoteSsh::tr("bad port"));
        }
    } else {
        const qsizetype colons = rest.count(QLatin1Char(':'));
        if (colons > 1)
            return fail(RemoteSsh::tr("IPv6 addresses must be written in brackets, e.g. [::1]:22"));
        if (colons == 1) {
            const qsizetype c = rest.indexOf(QLatin1Char(':'));
            if (!validPort(rest.mid(c + 1), a.port))
                return fail(RemoteSsh::tr("bad port"));
            rest = rest.left(c);
        }
        a.host = rest;
        if (!validHostChars(a.host))
            return fail(RemoteSsh::tr("bad character in host name"));
    }
    if (a.host.isEmpty())
        return fail(RemoteSsh::tr("empty host"));
    if (a.host.startsWith(QLatin1Char('-')))
        return fail(RemoteSsh::tr("host may not start with '-'"));
    return a;
}

} // namespace moewb::remote
