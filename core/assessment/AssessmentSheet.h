#pragma once
// The assessment sheet (seed 003 §4): ten review dimensions, each with its core
// question and verification method, rated with notes and evidence linked to runs
// and stages; and the cost estimate (resources, communication, people, migration).
// The wording is here (translated); the rows live in the project file
// (ProjectStore::saveAssessment / assessment()). docs/report.md.
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <optional>

namespace moewb::assessment {

class Assessment {
    Q_DECLARE_TR_FUNCTIONS(Assessment)
};

// A qualitative rating (the seed's "result interpretation" is qualitative).
enum class Rating { NotRated, Insufficient, Partial, Adequate, Strong, NotApplicable };
QList<Rating> allRatings(); // in the order a picker lists them
// "not_rated", "insufficient", "partial", "adequate", "strong", "not_applicable".
QString ratingToken(Rating rating);
std::optional<Rating> ratingFromToken(const QString& token);
// "Not rated", "Insufficient", … (translated).
QString ratingTitle(Rating rating);

struct Dimension {
    QString key;            // stable, stored: "completeness", "principles", …
    QString title;          // "Functional completeness"
    QString question;       // the core question
    QString method;         // the verification method
    QString interpretation; // how to read the result
};
// The ten dimensions in the seed's order (translated at the call).
QList<Dimension> dimensions();
std::optional<Dimension> dimension(const QString& key);

struct CostCategory {
    QString key;      // "resources", "communication", "people", "migration"
    QString title;    // "Resources"
    QString guidance; // what to estimate; the drivers matter more than one number
};
QList<CostCategory> costCategories();

struct DimensionEntry {
    QString key;
    Rating rating = Rating::NotRated;
    QString notes;
    QList<store::EvidenceLink> evidence;
    bool operator==(const DimensionEntry&) const = default;
};

struct CostEntry {
    QString category;
    QString estimate;
    QString drivers;
    QString notes;
    bool operator==(const CostEntry&) const = default;
};

// Always the ten dimensions and the four cost categories, in order.
struct Sheet {
    QList<DimensionEntry> dimensions;
    QList<CostEntry> costs;
    QString author;
    QDateTime updated; // invalid until saved
};

Sheet emptySheet();
// Fills in what the stored rows lack (a dimension or category never saved is
// empty); rows with keys this build does not know are dropped, an unknown rating
// token reads as NotRated.
Sheet sheetFromRow(const store::AssessmentSheetRow& row);
store::AssessmentSheetRow toRow(const Sheet& sheet);

Sheet loadSheet(const store::ProjectStore& project);
Expected<Ok, store::StoreError> saveSheet(store::ProjectStore& project, const Sheet& sheet);

// "run demo-probe-a", "stage 3" (with ": note" when the link has one).
QString evidenceText(const store::EvidenceLink& link);
// Dimensions with a rating other than NotRated.
int ratedCount(const Sheet& sheet);
// True when nothing was entered (no rating, note, evidence or cost text).
bool isBlank(const Sheet& sheet);

} // namespace moewb::assessment
