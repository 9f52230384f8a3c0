#pragma once
// The project file's schema: the current version's DDL (for new files) and the
// ordered list of migrations that bring older files up to it. docs/store.md
// describes every table.
#include <QSqlDatabase>
#include <QString>

#include <vector>

namespace moewb::store::schema {

// Creates the current schema in an empty database and seeds the placeholder
// thresholds. The caller holds the transaction and sets user_version.
bool createLatest(QSqlDatabase& db, QString* error);

// Inserts every placeholder threshold whose key the file does not have yet.
bool seedMissingThresholds(QSqlDatabase& db, QString* error);

// One step: from schema version `from` to `from + 1`. Each step runs in its own
// transaction (with foreign keys off, checked by foreign_key_check before the
// commit), and the caller bumps user_version inside that transaction.
struct Migration {
    int from;
    const char* summary;
    bool (*apply)(QSqlDatabase& db, QString* error);
};
const std::vector<Migration>& migrations();

} // namespace moewb::store::schema
