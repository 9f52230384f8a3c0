#pragma once
// Translation context of the stage gates (Stages::tr("...")) and shared wording.
#include "record/Comparability.h"

#include <QCoreApplication>
#include <QStringList>

namespace moewb::stages {
class Stages {
    Q_DECLARE_TR_FUNCTIONS(Stages)
};

// One reason per missing or invalid field of a refused comparison.
inline QStringList refusalReasons(const record::ComparisonPlan& plan) {
    QStringList out;
    for (const record::RunIssues& run : plan.blocking)
        for (const record::FieldIssue& issue : run.issues)
            out << Stages::tr("Comparison refused: run %1's config record: %2")
                       .arg(run.runName, issue.message);
    return out;
}
} // namespace moewb::stages
