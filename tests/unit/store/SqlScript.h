#pragma once
// Runs an SQL script (several statements) through one Qt Sql connection: QSqlQuery
// executes one statement at a time, so the script is split on ';' outside quotes,
// comments and trigger bodies.
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>

namespace moewb::store::testing {

inline QString runSqlScript(QSqlDatabase& db, const QString& script) {
    QString statement;
    bool inQuote = false, inComment = false;
    auto flush = [&]() -> QString {
        const QString s = statement.trimmed();
        statement.clear();
        if (s.isEmpty())
            return {};
        QSqlQuery q(db);
        if (!q.exec(s))
            return QStringLiteral("%1\n  in: %2").arg(q.lastError().text(), s);
        return {};
    };
    for (qsizetype i = 0; i < script.size(); ++i) {
        const QChar c = script[i];
        if (inComment) {
            if (c == '\n')
                inComment = false;
            continue;
        }
        if (!inQuote && c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
            inComment = true;
            continue;
        }
        if (c == '\'')
            inQuote = !inQuote;
        if (c == ';' && !inQuote) {
            // A trigger's body holds statements of its own: it ends at END;.
            const QString sofar = statement.trimmed();
            if (sofar.startsWith(QLatin1String("CREATE TRIGGER"), Qt::CaseInsensitive) &&
                !sofar.endsWith(QLatin1String("END"), Qt::CaseInsensitive)) {
                statement += c;
                continue;
            }
            if (const QString e = flush(); !e.isEmpty())
                return e;
            continue;
        }
        statement += c;
    }
    return flush();
}

} // namespace moewb::store::testing
