#pragma once
// The project file's schema: the current version's DDL (for new files) and the
// ordered list of migrations that bring older files up to it. docs/store.md
// describes every table.
#include <QMap>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

#include <optional>

#include <vector>

namespace moewb::store::schema {

// Creates the current schema in an empty database and seeds the placeholder
// thresholds. The caller holds the transaction and sets user_version.
bool createLatest(QSqlDatabase& db, QString* error);

// Creates the schema of `version` (1 .. ProjectStore::kSchemaVersion) in an empty
// database, with no rows: the current version as createLatest makes it, an older one
// as version 1's or 2's statements and the migrations up to it make it. The caller
// sets user_version.
bool createAtVersion(QSqlDatabase& db, int version, QString* error);

// One object of a file's sqlite_master.
struct SchemaObject {
    QString type;  // "table", "index", "view", "trigger"
    QString name;
    QString table; // tbl_name
    QString sql;   // as stored; empty for the indexes SQLite makes itself (sqlite_autoindex_…)
};

// What moewb's schema of `version` holds, object by object ("type name" → the object;
// `sql` normalized with normalizedSql). Computed once per version by running this
// file's own statements and migrations in an in-memory database, for each way a file
// reaches the version (created at version 1, created at version 2 or later, or created
// new at the current version), and cached: never a list kept by hand, so that a table
// added by a new version is known without more. `variants` holds every normalized
// definition the object can have (the same table after ALTER TABLE or RENAME reads
// differently).
struct KnownObject {
    QString type;
    QString name;
    QString table;
    QStringList variants;
};
using KnownSchema = QMap<QString, KnownObject>;
const KnownSchema* knownSchema(int version, QString* error);

// SQL text as tokens: keywords and identifiers in lower case with their quotes removed,
// string and number literals as written, comments dropped, one space between tokens.
// Two definitions that differ only in layout, case or identifier quoting read the same.
QString normalizedSql(const QString& sql);

// The schema objects of a file (its sqlite_master, read without running anything).
bool readSchemaObjects(QSqlDatabase& db, QList<SchemaObject>* objects, QString* error);

// How a file's schema departs from moewb's schema of `version`: an empty list when
// every object is one moewb creates, with the definition moewb gives it, and none is
// missing; else one phrase per departure, names shown safely (escaped, cut):
// "a trigger zz_flip that moewb did not create", "a view run in place of moewb's table
// run", "the table verdict with a definition moewb does not give it", "no table
// override". Nothing when the known schema cannot be built (*error set).
std::optional<QStringList> schemaDepartures(const QList<SchemaObject>& objects, int version, QString* error);

// The refusal of a file with departures: "this project contains …; it may have been
// altered — not opened" (at most a few objects named, then how many more).
QString foreignSchemaMessage(const QStringList& departures);

// Remembered refusals for a foreign schema (ProjectStore::open notes each one), so
// that isForeignSchemaRefusal (store/ProjectClean.h) can tell them from other errors.
void noteForeignSchemaRefusal(const QString& file, const QString& message);
bool wasForeignSchemaRefusal(const QString& file, const QString& message);

// A name from the file as a message shows it: control and invisible format characters
// (bidi overrides included) as \u{XXXX}, at most `maxChars` characters then "…".
QString shownName(const QString& name, int maxChars = 64);

// Inserts every placeholder threshold whose key the file does not have yet.
bool seedMissingThresholds(QSqlDatabase& db, QString* error);

// One step: from schema version `from` to `from + 1`. An upgrade runs all its steps in
// ONE transaction (with foreign keys off, checked by foreign_key_check after each
// step), the caller bumping user_version after each and checking that the step made
// moewb's schema of the next version (knownSchema); any failure, an exception thrown
// from a step included, rolls all of them back.
struct Migration {
    int from;
    const char* summary;
    bool (*apply)(QSqlDatabase& db, QString* error);
};
const std::vector<Migration>& migrations();

} // namespace moewb::store::schema
