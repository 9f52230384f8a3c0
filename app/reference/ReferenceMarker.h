#pragma once
// How a project says it is the reference evaluation measured on this computer
// (`moewb reference`, docs/reference.md): its clusters' facts and its training runs'
// environment carry {"reference_evaluation": {...}} (below). The window shows the
// banner above every page and the report prints it on its first page.
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace moewb::reference {

class Reference {
    Q_DECLARE_TR_FUNCTIONS(Reference)
};

// The key in cluster facts and run environments.
inline constexpr const char* kMarkerKey = "reference_evaluation";

// What the marker holds:
//   {"measured_on": "this computer", "scale": "CPU, gloo, tiny model",
//    "quick": bool, "stage4": "measured" | "not-measured",
//    "stage4_why_not": "…" (English sentence, when not measured),
//    "cluster_b_rate": "100mbit" (when measured)}
struct ReferenceInfo {
    bool quick = false;
    bool stageFourMeasured = false;
    QString stageFourWhyNot; // as written (the writer's language)
    QString clusterBRate;
};

QJsonObject markerJson(const ReferenceInfo& info);

// The marker of the project (the first cluster or run that carries one), or nullopt.
std::optional<ReferenceInfo> referenceInfo(const store::ProjectStore& project);

// "Measured on this computer: CPU, gloo, tiny model — the method is real, the scale is not."
QString bannerText();
// The banner and, when stage 4 was not measured, why and how to add a real second cluster.
QString bannerText(const ReferenceInfo& info);
// How to measure stage 4 on a real second cluster (the commands).
QString secondClusterHowTo();

} // namespace moewb::reference
