#pragma once
// A clean copy of a project file that was refused for its schema (a planted trigger or
// view, a foreign table, an altered definition; isForeignSchemaRefusal): a new file
// with moewb's own schema holding only the rows of the tables moewb knows, each checked
// on its way. `moewb project clean IN -o OUT` and the window's "Save a clean copy…"
// (docs/store.md, "What opening a project checks").
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace moewb::store {

struct CleanTable {
    QString table;
    qint64 copied = 0;
    qint64 skipped = 0;
    // The first rows skipped, each with where it was and why ("rowid 12: name: a blob
    // where moewb stores text"); at most kListedRows of them.
    QStringList skippedRows;
    static constexpr int kListedRows = 20;
    // Why nothing was read from it (a view in its place, a definition moewb does not
    // give it, missing); empty when it was read.
    QString notRead;
};

struct CleanReport {
    QString source;
    QString target;
    int sourceVersion = 0; // the source's schema version
    int targetVersion = 0; // the copy's (the current one, or the source's when its upgrade failed)
    QList<CleanTable> tables; // each table moewb's schema has, in the order copied
    QStringList leftOut;      // the source's objects that moewb did not create or that differ (shown safely)
    qint64 copied() const;
    qint64 skipped() const;
};

// Writes `target` (which must not exist) from `source`: a new file with moewb's schema
// of the source's version, each known table's rows copied one by one. A row is copied
// only when every column holds the type moewb stores there (integer, real, text in
// UTF-8, blob; NULL only where allowed) and moewb's constraints accept it (unique keys,
// checks, references to rows copied before it); the others are skipped and counted.
// Nothing of the source's schema runs: it is read with views and triggers off, from
// the tables whose definition is moewb's only (by name, no index used), and a table
// that is a view or has another definition is not read at all. A copy of an older
// version is then upgraded to the current one (its backup removed). The source is
// never written.
Expected<CleanReport, StoreError> cleanProjectCopy(const QString& source, const QString& target);

// Whether ProjectStore::open refused the file with this error for its schema: objects
// that moewb did not create, or altered ones (a trigger, a view, a foreign table, a
// changed definition), named in the message. Nothing in the file ran or was read; a
// clean copy (cleanProjectCopy) keeps its known rows (docs/store.md, "What opening a
// project checks").
bool isForeignSchemaRefusal(const StoreError& error);

} // namespace moewb::store
