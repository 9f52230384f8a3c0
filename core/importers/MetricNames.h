#pragma once
// Canonical step-metric names (docs/formats.md, "Step metrics") and the range a
// value of each may take before it is called absurd.
#include <QString>
#include <QStringList>

namespace moewb::importers {

// lm_loss, val_loss, val_ppl, load_balancing_loss, z_loss, moe_loss,
// tokens_per_s_per_gpu, tflops_per_gpu, elapsed_ms_per_iter, global_batch_size,
// learning_rate, grad_norm, skipped_iterations, nan_iterations, tokens, drop_rate,
// dropped_tokens, seq_load_balancing_loss, global_load_balancing_loss, lm_loss_max,
// mfu_percent, memory_max_reserved_gib, memory_max_reserved_percent,
// memory_max_active_gib, memory_max_active_percent, time_metrics_data_loading_s,
// time_metrics_data_loading_percent, consumed_samples, trace_busiest_share,
// trace_mean_share, avg_overload_factor, max_overload_factor, max_cum_overload_factor.
// Per-layer MoE names (`<name>_layer_<i>`, Megatron-Core's --moe-per-layer-logging)
// are a pattern, not listed: they take the range of <name>.
const QStringList& canonicalMetricNames();

// "Lm Loss" -> "lm_loss", "throughput per GPU (TFLOP/s/GPU)" -> "throughput_per_gpu_tflop_s_gpu".
QString snakeCase(QStringView text);

// A Megatron-LM / Megatron-DeepSpeed `key: value` key as a metric name: the canonical
// name when the key is one of the known spellings, else its snake_case form.
QString megatronMetricName(QStringView key);

// A scalar key written by a metrics logger (TensorBoard tag, W&B key) as a metric name:
// torchtitan's keys (`loss_metrics/global_avg_loss`, `throughput(tps)`, `mfu(%)`,
// `time_metrics/end_to_end(s)`, `validation_metrics/...`), NeMo's (`reduced_train_loss`,
// `train_step_timing in s`, `lr`), Megatron's (`lm loss`, `iteration-time`, `throughput`,
// `moe/<name>_layer_<i>`), else the snake_case form with `%` read as "percent".
// `scale` is what a value must be multiplied by (seconds -> ms: 1000).
QString loggedMetricName(const QString& key, double& scale);

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
