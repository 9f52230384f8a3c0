#pragma once
// What page 1 of the report decides (private to app/report): can the conclusions be
// used for this cluster and budget, from the stages' states and overrides — and how
// an override is quoted.
#include "ReportData.h"

#include <QString>

namespace moewb::report {

// The first page's decision and its colour token: "pass", "stop", "warn".
struct Decision {
    QString text;
    QString token;
};

Decision decide(const ReportData& d);

// "“justification” — author, date", marked when the stop's runs changed since.
QString overrideLine(const store::OverrideRow& o, const StageSection& s);

} // namespace moewb::report
