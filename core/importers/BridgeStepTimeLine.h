#pragma once
// Megatron-Bridge's performance line (src/megatron/bridge/training/utils/train_utils.py,
// training_log, NVIDIA-NeMo/Megatron-Bridge 067f987d, 0.7.0, August 2026):
//   print_rank_0(f"Step Time : {elapsed_time_per_iteration:.2f}s GPU utilization: "
//                f"{per_gpu_tf:.1f}MODEL_TFLOP/s/GPU")
// printed at each log interval just before the iteration line it belongs to: the
// interval's mean seconds per iteration and the model TFLOP/s per GPU (the FLOPs done
// in the interval / its time / world size). A launcher may put a prefix before it
// ("ain_fp8_mx/0 Step Time : …").
#include "importers/ImportError.h"

#include <optional>
#include <string_view>

namespace moewb::importers {

struct BridgeStepTime {
    double seconds = 0.0;
    double tflopsPerGpu = 0.0;
};

// nullopt when the line is not one (no "Step Time :" followed by "MODEL_TFLOP/s/GPU");
// with *error set when it is one whose numbers cannot be read.
std::optional<BridgeStepTime> readBridgeStepTimeLine(std::string_view line, const QString& file, qint64 lineNumber,
                                                     std::optional<ImportError>* error);

} // namespace moewb::importers
