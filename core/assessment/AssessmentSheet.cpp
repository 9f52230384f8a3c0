#include "assessment/AssessmentSheet.h"

#include <QHash>

namespace moewb::assessment {

QList<Rating> allRatings() {
    return {Rating::NotRated, Rating::Insufficient, Rating::Partial,
            Rating::Adequate, Rating::Strong,       Rating::NotApplicable};
}

QString ratingToken(Rating rating) {
    switch (rating) {
    case Rating::NotRated:
        return QStringLiteral("not_rated");
    case Rating::Insufficient:
        return QStringLiteral("insufficient");
    case Rating::Partial:
        return QStringLiteral("partial");
    case Rating::Adequate:
        return QStringLiteral("adequate");
    case Rating::Strong:
        return QStringLiteral("strong");
    case Rating::NotApplicable:
        return QStringLiteral("not_applicable");
    }
    return {};
}

std::optional<Rating> ratingFromToken(const QString& token) {
    for (Rating r : allRatings())
        if (ratingToken(r) == token)
            return r;
    return std::nullopt;
}

QString ratingTitle(Rating rating) {
    switch (rating) {
    case Rating::NotRated:
        return Assessment::tr("Not rated");
    case Rating::Insufficient:
        return Assessment::tr("Insufficient");
    case Rating::Partial:
        return Assessment::tr("Partial");
    case Rating::Adequate:
        return Assessment::tr("Adequate");
    case Rating::Strong:
        return Assessment::tr("Strong");
    case Rating::NotApplicable:
        return Assessment::tr("Not applicable");
    }
    return {};
}

QList<Dimension> dimensions() {
    using A = Assessment;
    // Seed 003 §4, in its order: dimension, core question, verification method,
    // result interpretation.
    return {
        {QStringLiteral("completeness"), A::tr("Functional completeness"),
         A::tr("Does it cover the typical MoE training workflow?"),
         A::tr("Check item by item against the list: structure — configuration — training — monitoring — "
               "troubleshooting — recovery."),
         A::tr("The more complete the coverage, the better it serves as the team's knowledge baseline.")},
        {QStringLiteral("principles"), A::tr("Correctness of principles"),
         A::tr("Are routing, capacity and load balancing explained consistently?"),
         A::tr("Cross-read formulas, figures and examples; check that concepts stay consistent throughout."),
         A::tr("Vague or contradictory key concepts call for caution.")},
        {QStringLiteral("operability"), A::tr("Engineering operability"),
         A::tr("Does it give executable steps and checks?"),
         A::tr("Have a developer draft a small-scale configuration from it."),
         A::tr("A clear operating checklist means high engineering value.")},
        {QStringLiteral("reproducibility"), A::tr("Experimental reproducibility"),
         A::tr("Can the small-scale phenomena be reproduced?"),
         A::tr("Design a baseline experiment; control expert count, top-k, batch and parallelism."),
         A::tr("Reproducing the key trends matters more than any single conclusion.")},
        {QStringLiteral("tuning"), A::tr("Performance tuning guidance"),
         A::tr("Does it explain what drives performance?"),
         A::tr("Record trends of throughput, memory, communication wait and load distribution."),
         A::tr("Explaining causes and limits is worth more than absolute numbers.")},
        {QStringLiteral("stability"), A::tr("Stability and fault tolerance"),
         A::tr("Does it cover failures and recovery?"),
         A::tr("Inject load imbalance, resource pressure and checkpoint recovery scenarios."),
         A::tr("Failure modes with troubleshooting paths make it a valuable reference.")},
        {QStringLiteral("observability"), A::tr("Observability"),
         A::tr("Does it say which metrics to watch?"),
         A::tr("Check that routing distribution, expert load, communication time and dropped tokens are "
               "covered."),
         A::tr("The more observable the metrics, the easier production troubleshooting.")},
        {QStringLiteral("usability"), A::tr("Usability"),
         A::tr("Are the organisation, figures and animations effective?"),
         A::tr("Have readers of different experience complete comprehension tasks and record their questions."),
         A::tr("Animations should serve understanding, not only add visual complexity.")},
        {QStringLiteral("cost"), A::tr("Cost controllability"),
         A::tr("Does it help estimate resource and operating costs?"),
         A::tr("Build a list of resource, communication, people and migration costs."),
         A::tr("Pointing out the cost drivers is enough to support the choice.")},
        {QStringLiteral("security"), A::tr("Security and compliance"),
         A::tr("Does it point out data, permission and audit risks?"),
         A::tr("Check what it says about sensitive data, logs and checkpoint management."),
         A::tr("It does not replace the security rules, but should state its limits.")},
    };
}

std::optional<Dimension> dimension(const QString& key) {
    for (const Dimension& d : dimensions())
        if (d.key == key)
            return d;
    return std::nullopt;
}

QList<CostCategory> costCategories() {
    using A = Assessment;
    return {
        {QStringLiteral("resources"), A::tr("Resources"),
         A::tr("GPU hours, memory and storage for the evaluation and for production training.")},
        {QStringLiteral("communication"), A::tr("Communication"),
         A::tr("All-to-all traffic and network: expert-parallel size, topology, bandwidth upgrades.")},
        {QStringLiteral("people"), A::tr("People"),
         A::tr("Engineering and operations effort to run, monitor and maintain MoE training.")},
        {QStringLiteral("migration"), A::tr("Migration"),
         A::tr("Changes to frameworks, checkpoints, pipelines and clusters to move from dense to MoE.")},
    };
}

Sheet emptySheet() {
    Sheet s;
    for (const Dimension& d : dimensions())
        s.dimensions.append({d.key, Rating::NotRated, {}, {}});
    for (const CostCategory& c : costCategories())
        s.costs.append({c.key, {}, {}, {}});
    return s;
}

Sheet sheetFromRow(const store::AssessmentSheetRow& row) {
    Sheet s = emptySheet();
    s.author = row.author;
    s.updated = row.updated;
    for (DimensionEntry& e : s.dimensions) {
        for (const store::AssessmentDimensionRow& d : row.dimensions) {
            if (d.key != e.key)
                continue;
            e.rating = ratingFromToken(d.rating).value_or(Rating::NotRated);
            e.notes = d.notes;
            e.evidence = d.evidence;
        }
    }
    for (CostEntry& e : s.costs) {
        for (const store::CostEstimateRow& c : row.costs) {
            if (c.category != e.category)
                continue;
            e.estimate = c.estimate;
            e.drivers = c.drivers;
            e.notes = c.notes;
        }
    }
    return s;
}

store::AssessmentSheetRow toRow(const Sheet& sheet) {
    store::AssessmentSheetRow row;
    row.author = sheet.author;
    row.updated = sheet.updated;
    for (const DimensionEntry& e : sheet.dimensions)
        row.dimensions.append({e.key, ratingToken(e.rating), e.notes, e.evidence});
    for (const CostEntry& c : sheet.costs)
        row.costs.append({c.category, c.estimate, c.drivers, c.notes});
    return row;
}

Sheet loadSheet(const store::ProjectStore& project) {
    return sheetFromRow(project.assessment());
}

Expected<Ok, store::StoreError> saveSheet(store::ProjectStore& project, const Sheet& sheet) {
    return project.saveAssessment(toRow(sheet));
}

QString evidenceText(const store::EvidenceLink& link) {
    const QString target = link.kind == store::EvidenceKind::Run
                               ? Assessment::tr("run %1").arg(link.run)
                               : Assessment::tr("stage %1").arg(link.stage);
    return link.note.trimmed().isEmpty() ? target : QStringLiteral("%1: %2").arg(target, link.note.trimmed());
}

int ratedCount(const Sheet& sheet) {
    int n = 0;
    for (const DimensionEntry& e : sheet.dimensions)
        n += e.rating != Rating::NotRated ? 1 : 0;
    return n;
}

bool isBlank(const Sheet& sheet) {
    for (const DimensionEntry& e : sheet.dimensions)
        if (e.rating != Rating::NotRated || !e.notes.trimmed().isEmpty() || !e.evidence.isEmpty())
            return false;
    for (const CostEntry& c : sheet.costs)
        if (!c.estimate.trimmed().isEmpty() || !c.drivers.trimmed().isEmpty() || !c.notes.trimmed().isEmpty())
            return false;
    return true;
}

} // namespace moewb::assessment
