#pragma once
// What the tests of hostile project files share (test_store_hostile,
// test_moewb_hostile_project, test_hostile_project_window): changing a project file
// with the SQLite C API as an attacker with the sqlite3 shell would (no Qt, no moewb),
// reading one value back the same way, and a file's digest.
#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QString>

#include <sqlite3.h>

namespace moewb::testing {

inline QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

// Runs `script` on `path`: empty on success, else SQLite's message.
inline QString plant(const QString& path, const char* script) {
    sqlite3* db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        const QString e = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_close(db);
        return e;
    }
    char* message = nullptr;
    QString e;
    if (sqlite3_exec(db, script, nullptr, nullptr, &message) != SQLITE_OK)
        e = QString::fromUtf8(message ? message : "error");
    sqlite3_free(message);
    sqlite3_close(db);
    return e;
}

// The first column of the first row of `query` on `path`, as text (read-only; empty
// when the query fails or gives no row).
inline QString firstValue(const QString& path, const QString& query) {
    sqlite3* db = nullptr;
    QString out;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, query.toUtf8().constData(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return out;
}

} // namespace moewb::testing
