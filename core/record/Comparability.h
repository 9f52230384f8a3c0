#pragma once
// Which runs may share a comparison table (SPEC §1): none while any record has a
// missing or invalid field; runs that differ in capacity factor, overflow policy or
// top-k go to separate tables, each titled with its values. A dense control record
// has no routing, so it joins every group (stage 2 puts it beside each MoE setting).
#include "record/ConfigRecord.h"

#include <QStringList>
#include <optional>

namespace moewb::record {

struct ComparisonRun {
    QString runName;
    ConfigRecord record;
};

struct ComparisonGroup {
    QString title; // e.g. "top-k 2 · capacity factor 1.25 · overflow drop"; "dense" when only dense runs
    std::optional<double> capacityFactor; // std::nullopt for "none" (and for a dense-only group)
    QString overflowPolicy;               // JSON token ("drop", ...); empty for a dense-only group
    int topK = 0;                         // 0 for a dense-only group
    QStringList runNames;                 // input order; dense runs included
    bool denseOnly = false;
};

struct RunIssues {
    QString runName;
    QList<FieldIssue> issues;
};

struct ComparisonPlan {
    bool refused = false;
    QList<RunIssues> blocking;     // when refused: each run that has issues, in input order
    QList<ComparisonGroup> groups; // when not refused: in order of first appearance
    // Not refused and exactly one group.
    bool singleTable() const;
    // Translated, multi-line: why the comparison is refused, run by run and field by
    // field. Empty when not refused.
    QString refusalText() const;
};

ComparisonPlan planComparison(const QList<ComparisonRun>& runs);

// JSON paths of the record fields whose values differ across records (a field set
// in some and missing in others differs too), in recordFields() order. "name",
// "notes" and "format_version" are not config and are never listed.
QStringList differingFields(const QList<ConfigRecord>& records);

// The title planComparison() gives a group with these values.
QString comparisonGroupTitle(int topK, std::optional<double> capacityFactor, const QString& overflowPolicy);

} // namespace moewb::record
