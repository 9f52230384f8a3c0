#pragma once
// A run's headline numbers, as the runs list shows them beside its name (the summary
// columns W&B's run table has): the last logged training and validation loss, the
// steady throughput per GPU (as stage 2 counts it), the last logged token drop rate.
// Each is unset when the run logged nothing for it.
#include "store/ProjectStore.h"

#include <optional>

namespace moewb::stages {

struct RunSummary {
    std::optional<double> finalLoss;             // lm_loss at the last step that logged it
    std::optional<double> valLoss;               // val_loss at the last step that logged it
    std::optional<double> tokensPerSecondPerGpu; // steadyThroughput (StageTwoGate.h)
    std::optional<double> dropRate;              // drop_rate at the last step that logged it (0..1)
};

RunSummary runSummary(const store::ProjectStore& project, const store::RunRow& run);

} // namespace moewb::stages
