#pragma once
// Canonical step-metric names (docs/formats.md, "Step metrics") and the range a
// value of each may take before it is called absurd.
#include <QString>
#include <QStringList>

namespace moewb::importers {

// lm_loss, val_loss, val_ppl, load_balancing_loss, z_loss, moe_loss,
// tokens_per_s_per_gpu, tflops_per_gpu, elapsed_ms_per_iter, global_batch_size,
// learning_rate, grad_norm, skipped_iterations, nan_iterations, tokens, drop_rate,
// dropped_tokens
const QStringList& canonicalMetricNames();

// "Lm Loss" -> "lm_loss", "throughput per GPU (TFLOP/s/GPU)" -> "throughput_per_gpu_tflop_s_gpu".
QString snakeCase(QStringView text);

// A Megatron-LM / Megatron-DeepSpeed `key: value` key as a metric name: the canonical
// name when the key is one of the known spellings, else its snake_case form.
QString megatronMetricName(QStringView key);

// A metric name a generic file may use: [a-z][a-z0-9_]*, at most 64 characters.
bool isValidMetricName(QStringView name);

struct MetricRange {
    double min;
    double max;
};
// Values outside are refused as absurd (a unit mistake or a corrupt file).
MetricRange metricRange(const QString& name);

// Steps (iterations) are 0 .. kMaxStep.
inline constexpr qint64 kMaxStep = 1000000000000LL;
// Layers 0 .. kMaxLayer, experts per layer 1 .. kMaxExperts (as the config record's bounds).
inline constexpr int kMaxLayer = 10000;
inline constexpr int kMaxExperts = 1048576;

} // namespace moewb::importers
