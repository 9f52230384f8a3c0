#pragma once
// Small pieces shared by the store's .cpp files (not part of the public API).
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

#include <optional>

struct sqlite3;

namespace moewb::store {
// Translation context of the store's messages: StoreTr::tr("...").
class StoreTr {
    Q_DECLARE_TR_FUNCTIONS(Store)
};
} // namespace moewb::store

namespace moewb::store::sql {

// Times are stored as ISO 8601 UTC text with milliseconds: sortable and readable
// with the sqlite3 shell.
QString toDbTime(const QDateTime& time);
// Qt binds a null QString as SQL NULL; text columns are NOT NULL, '' when empty.
inline QVariant toDbText(const QString& text) {
    return text.isNull() ? QVariant(QStringLiteral("")) : QVariant(text);
}
QDateTime fromDbTime(const QVariant& value);
QString toDbJson(const QJsonObject& object);
QString toDbJson(const QJsonArray& array);

// Text read from the file is bounded and made safe to show here, the one place every
// reader goes through (docs/store.md, "Reading a project from someone else"): a project
// may come from someone else, and a 1 MiB name or reason, or a right-to-left override in
// a run name, would otherwise reach every table, page, plot and report. Names (runs,
// records, clusters, nodes) come back as common/DisplayText.h shows them: hidden
// characters (controls, bidi and other format characters) escaped, longer than
// kMaxNameLength (NameRules.h) cut to their first kMaxNameLength − 1 characters and "…";
// other text (reasons, justifications, notes, paths, and every string inside a JSON
// column) likewise at kMaxTextLength characters, newlines and tabs kept. A JSON column
// longer than its byte limit reads as empty (and is logged). Rows read to be rewritten
// use the raw readers.
inline constexpr qsizetype kMaxTextLength = 4096;
inline constexpr qsizetype kMaxJsonBytes = qsizetype(4) << 20;
// A verdict's basis names every run it was computed on: 100,000 runs fit.
inline constexpr qsizetype kMaxBasisJsonBytes = qsizetype(64) << 20;
// `text` as shown: displayText(text, limit, LineBreaks::Keep).
QString capText(const QString& text, qsizetype limit = kMaxTextLength);
QString nameFromDb(const QVariant& value);
QString textFromDb(const QVariant& value);
// Bounded: every string capped with capText, the whole column at most maxBytes.
QJsonObject objectFromDb(const QVariant& value, qsizetype maxBytes = kMaxJsonBytes);
QJsonArray arrayFromDb(const QVariant& value, qsizetype maxBytes = kMaxJsonBytes);
// A verdict's basis (kMaxBasisJsonBytes), each run's name in it cut like a name.
QJsonObject basisFromDb(const QVariant& value);
// As stored: for a row that is read to be changed and written back.
QJsonObject rawObjectFromDb(const QVariant& value);
// The id of the row of `table` (run, config_record or cluster) named `name`, or — when
// no name is that, and `name` is a name as nameFromDb showed it (cut or escaped) — of
// the one row it was shown for. nullopt when none (or several) match.
std::optional<qint64> idByName(QSqlDatabase& db, const char* table, const QString& name);

// The connection's defences against a hostile project file, set right after it opens
// and before any statement (docs/store.md, "What opening a project checks"; SQLite's
// "Defense Against the Dark Arts"): SQLITE_DBCONFIG_DEFENSIVE on, views and triggers
// off (SQLITE_DBCONFIG_ENABLE_VIEW / ENABLE_TRIGGER: nothing stored in the schema runs;
// moewb's own trigger is replaced by code, docs/store.md), schema not trusted
// (trusted_schema=OFF), no extension loading, PRAGMA cell_size_check=ON, no memory-mapped
// I/O, and limits on a value's length, a statement's length and an expression's depth.
// False, with *error set, when the Qt SQLite driver's SQLite is not the one moewb is
// linked with (its handle cannot be configured then) or a setting is refused.
bool hardenConnection(QSqlDatabase& db, QString* error);
// The connection's SQLite handle (the Qt SQLite driver's); null when it has none.
sqlite3* sqliteHandle(QSqlDatabase& db);
// The longest string or blob a project connection reads or writes (SQLITE_LIMIT_LENGTH):
// far above anything moewb stores (an expert-load chunk is kilobytes), far below what
// would exhaust memory.
inline constexpr int kMaxValueBytes = 256 << 20;

// Runs one statement; on failure returns false and sets *error to the statement's
// error text.
bool exec(QSqlDatabase& db, const QString& statement, QString* error);
bool exec(QSqlQuery& query, QString* error); // a prepared query
// The query's error as SQLite said it. A statement that SQLite refused to prepare
// ("no such table", "unsafe use of load_extension()") and was then run with bound
// values makes Qt say "Parameter count mismatch": the statement is prepared again to
// give SQLite's own words.
QString errorText(const QSqlQuery& query);

// parallelism.ep of a config record's JSON; 0 when absent or not a positive integer.
int expertParallelOfRecord(QSqlDatabase& db, qint64 recordId);

// BEGIN IMMEDIATE ... COMMIT, rolled back when left without commit(). IMMEDIATE
// takes the write lock up front, so busy_timeout applies at BEGIN rather than
// failing half-way through with SQLITE_BUSY on a lock upgrade.
class Transaction {
public:
    explicit Transaction(QSqlDatabase& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    bool begin(QString* error);
    bool commit(QString* error);
    void rollback();

private:
    QSqlDatabase& m_db;
    bool m_active = false;
};

} // namespace moewb::store::sql
