#!/usr/bin/env bash
# Builds the importer fuzz targets (and the probe's control-plane parser, and the project
# file's readers) with clang-14 (libFuzzer + ASan + UBSan) in
# build-fuzz and runs each for SECONDS (default 10) over its corpus: the good fixtures
# and the malformed corpus of its format (tests/fixtures/importers; the store's seeds in
# tests/fixtures/store-fuzz, written by its make-seeds.py). New inputs go to
# build-fuzz/corpus/<target>; a crash leaves build-fuzz/artifacts/<target>-crash-* and
# makes the script exit 1, printing the sanitizer report and the input (base64) so a CI log
# is enough to reproduce it. The seed is fixed (MOEWB_FUZZ_SEED, default 1) so that CI runs
# the same mutations every time; MOEWB_FUZZ_SEED=0 lets libFuzzer pick one (exploring).
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS] [TARGET...]   (default: every target)
set -euo pipefail
SECONDS_PER_TARGET=${1:-10}
SEED=${MOEWB_FUZZ_SEED:-1}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${MOEWB_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
FIX=$ROOT/tests/fixtures/importers
JOBS=${MOEWB_FUZZ_JOBS:-$(nproc)}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DMOEWB_WITH_GUI=OFF \
    -DCMAKE_C_FLAGS="$SAN -fsanitize=fuzzer-no-link" \
    -DCMAKE_CXX_FLAGS="$SAN -fsanitize=fuzzer-no-link -O1 -g0" \
    -DCMAKE_CXX_FLAGS_RELEASE="" -DCMAKE_EXE_LINKER_FLAGS="$SAN" >/dev/null
fi
# Targets named on the command line: only those are built.
if [ $# -gt 1 ]; then
  cmake --build "$BUILD" -j"$JOBS" --target $(printf '%s_fuzz ' "${@:2}")
else
  cmake --build "$BUILD" --target moewb_importer_fuzzers -j"$JOBS"
fi

# target -> corpus folders (fixtures of that format + its malformed corpus)
declare -A SEEDS=(
  [probe_json]="probe malformed/probe-json"
  [nccl_tests]="real nccl-tests malformed/nccl-tests"
  [nccl_tests_matrix]="nccl-tests-matrix"
  [nccl_tests_json]="nccl-tests-json malformed/nccl-tests-json"
  [megatron_log]="real megatron malformed/megatron-log"
  [megatron_tpe_jsonl]="tpe malformed/megatron-tpe-jsonl"
  [routing_trace_jsonl]="routing malformed/routing-trace-jsonl"
  [megatron_routing_trace]="megatron-routing-trace malformed/megatron-routing-trace"
  [tensorboard]="tensorboard malformed/tensorboard"
  [csv_metrics]="csv malformed/csv-metrics"
  [jsonl_metrics]="jsonl malformed/jsonl-metrics"
  [csv_expert_load]="csv malformed/csv-expert-load"
  [jsonl_expert_load]="jsonl malformed/jsonl-expert-load"
  [torchtitan_log]="torchtitan malformed/torchtitan-log"
  [nemo_log]="nemo malformed/nemo-log"
  [wandb_csv]="wandb malformed/wandb-csv"
  [moewb_collect_jsonl]="collect malformed/moewb-collect-jsonl"
  [control_frame]="../probe-control"
  [store_blob]="../store-fuzz/blob"
  [store_file]="../store-fuzz/file"
  [detect_format]="probe nccl-tests nccl-tests-json megatron tpe routing megatron-routing-trace tensorboard csv jsonl torchtitan nemo wandb collect"
)
failed=0
passed_targets=0
failed_targets=0
mkdir -p "$BUILD/artifacts"
TARGETS=("${@:2}")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(probe_json nccl_tests nccl_tests_matrix nccl_tests_json megatron_log megatron_tpe_jsonl routing_trace_jsonl megatron_routing_trace \
              tensorboard csv_metrics jsonl_metrics csv_expert_load jsonl_expert_load \
              torchtitan_log nemo_log wandb_csv moewb_collect_jsonl detect_format control_frame store_blob store_file)
for target in "${TARGETS[@]}"; do
  work="$BUILD/corpus/$target"
  mkdir -p "$work"
  seeds=()
  for s in ${SEEDS[$target]}; do seeds+=("$FIX/$s"); done
  echo "== $target: ${SECONDS_PER_TARGET}s"
  if ! ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
       "$BUILD/fuzz/${target}_fuzz" -seed="$SEED" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 -print_final_stats=1 -artifact_prefix="$BUILD/artifacts/${target}-" \
       "$work" "${seeds[@]}" > "$BUILD/artifacts/${target}.log" 2>&1; then
    echo "   FAILED: see $BUILD/artifacts/${target}.log"
    grep -m1 -A40 -E '^==[0-9]+==ERROR|runtime error:|deadly signal' "$BUILD/artifacts/${target}.log" \
      | grep -vE '^ +#[0-9]+ .* in (fuzzer::|__libc_start|_start)' || tail -30 "$BUILD/artifacts/${target}.log"
    for crash in "$BUILD/artifacts/${target}"-*; do
      [ -f "$crash" ] || continue
      case "$crash" in *.log) continue ;; esac
      echo "   input $(basename "$crash") (base64; decode with base64 -d):"; base64 -w 100 "$crash" | head -200
    done
    failed=1
    failed_targets=$((failed_targets + 1))
  else
    passed_targets=$((passed_targets + 1))
    grep -E 'stat::number_of_executed_runs|Done [0-9]+ runs' "$BUILD/artifacts/${target}.log" | tail -1 | sed 's/^/   /'
  fi
done
echo "fuzz: $passed_targets passed, $failed_targets failed"
exit $failed
