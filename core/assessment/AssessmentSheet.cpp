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
    // Seed 003 §4, in its order: dimension, core question, verification method,
    // result interpretation — applied to the team's MoE training plan and this
    // evaluation (the seed's questions were about a document).
    return {
        {QStringLiteral("completeness"), Assessment::tr("Functional completeness"),
         Assessment::tr("Does the team's MoE training plan cover the whole workflow?"),
         Assessment::tr(
             "Check the plan item by item: model structure — configuration record — training — monitoring — "
             "troubleshooting — recovery."),
         Assessment::tr(
             "The more complete the coverage, the better it serves as the team's knowledge baseline.")},
        {QStringLiteral("principles"), Assessment::tr("Correctness of principles"),
         Assessment::tr("Do the plan's routing, capacity and load-balancing choices hold together?"),
         Assessment::tr(
             "Cross-read the config records, the routing lab and the stage 3 load figures; the same top-k, "
             "capacity factor and overflow policy everywhere."),
         Assessment::tr("Vague or contradictory key concepts call for caution.")},
        {QStringLiteral("operability"), Assessment::tr("Engineering operability"),
         Assessment::tr("Can the team run the evaluation and the training from written steps?"),
         Assessment::tr("Have a developer set up a small-scale run from the records and the stage commands alone."),
         Assessment::tr("A clear operating checklist means high engineering value.")},
        {QStringLiteral("reproducibility"), Assessment::tr("Experimental reproducibility"),
         Assessment::tr("Do this evaluation's measurements reproduce?"),
         Assessment::tr("Stage 1 repeats and a second baseline; training runs that control experts, top-k, batch and parallelism."),
         Assessment::tr("Reproducing the key trends matters more than any single conclusion.")},
        {QStringLiteral("tuning"), Assessment::tr("Performance tuning guidance"),
         Assessment::tr("Does the evaluation show what limits the plan's performance?"),
         Assessment::tr("Stages 1–3: throughput, all-to-all time against message size, load distribution and the busiest device."),
         Assessment::tr("Explaining causes and limits is worth more than absolute numbers.")},
        {QStringLiteral("stability"), Assessment::tr("Stability and fault tolerance"),
         Assessment::tr("Does the plan cover failures and recovery of MoE training?"),
         Assessment::tr("Inject load imbalance and resource pressure, restore from a checkpoint, and note what the runs show."),
         Assessment::tr("Failure modes with troubleshooting paths make it a valuable reference.")},
        {QStringLiteral("observability"), Assessment::tr("Observability"),
         Assessment::tr("Does the training log what MoE needs watched?"),
         Assessment::tr(
             "Check that the runs carry routing distribution, tokens per expert, communication time and dropped "
             "tokens (stage 3 needs them)."),
         Assessment::tr("The more observable the metrics, the easier production troubleshooting.")},
        {QStringLiteral("usability"), Assessment::tr("Usability"),
         Assessment::tr("Can the people who decide read this evaluation?"),
         Assessment::tr(
             "Give the report to readers of different experience; note what they could not answer from it."),
         Assessment::tr("Animations should serve understanding, not only add visual complexity.")},
        {QStringLiteral("cost"), Assessment::tr("Cost controllability"),
         Assessment::tr("Are the plan's resource and operating costs estimated?"),
         Assessment::tr("Fill the cost estimate: resources, communication, people and migration, with their drivers."),
         Assessment::tr("Pointing out the cost drivers is enough to support the choice.")},
        {QStringLiteral("security"), Assessment::tr("Security and compliance"),
         Assessment::tr("Are the plan's data, permission and audit risks handled?"),
         Assessment::tr("Check sensitive data in training data and logs, access to clusters, and checkpoint management."),
         Assessment::tr("It does not replace the security rules, but should state its limits.")},
    };
}

std::optional<Dimension> dimension(const QString& key) {
    for (const Dimension& d : dimensions())
        if (d.key == key)
            return d;
    return std::nullopt;
}

QList<CostCategory> costCategories() {
    return {
        {QStringLiteral("resources"), Assessment::tr("Resources"),
         Assessment::tr("GPU hours, memory and storage for the evaluation and for production training.")},
        {QStringLiteral("communication"), Assessment::tr("Communication"),
         Assessment::tr(
             "All-to-all traffic and network: expert-parallel size, topology, bandwidth upgrades.")},
        {QStringLiteral("people"), Assessment::tr("People"),
         Assessment::tr("Engineering and operations effort to run, monitor and maintain MoE training.")},
        {QStringLiteral("migration"), Assessment::tr("Migration"),
         Assessment::tr(
             "Changes to frameworks, checkpoints, pipelines and clusters to move from dense to MoE.")},
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
