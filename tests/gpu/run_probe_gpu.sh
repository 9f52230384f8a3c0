#!/bin/bash
# moe-probe's nccl backend against NVIDIA nccl-tests' alltoall_perf on this machine's
# GPUs, at the same sizes, busbw side by side. Needs a GPU machine with the CUDA
# toolkit (nvcc) and NCCL; cannot download, so the nccl-tests source tree is an argument.
#
#   tests/gpu/run_probe_gpu.sh NCCL_TESTS_SRC [BUILD_DIR] [NGPUS]
#
# NCCL_TESTS_SRC  a checkout of https://github.com/NVIDIA/nccl-tests (built here with make)
# BUILD_DIR       where moe-probe is built standalone (default: build-gpu; MOEWB_WITH_NCCL=ON)
# NGPUS           GPUs to use (default: all that nvidia-smi lists)
# Environment: CUDA_HOME (default /usr/local/cuda), NCCL_HOME (default: CUDA_HOME),
#              MIN/MAX (default 1M/256M), ITERS (20), WARMUP (5).
# Both sides run one process driving all GPUs (nccl-tests -g N, moe-probe -g N), so
# no MPI is needed. Prints the two busbw columns and their ratio; exits 1 when the
# probe's data check fails.
set -euo pipefail
src=${1:?usage: run_probe_gpu.sh NCCL_TESTS_SRC [BUILD_DIR] [NGPUS]}
build=${2:-build-gpu}
cuda=${CUDA_HOME:-/usr/local/cuda}
nccl=${NCCL_HOME:-$cuda}
min=${MIN:-1M} max=${MAX:-256M} iters=${ITERS:-20} warmup=${WARMUP:-5}
ngpus=${3:-$(nvidia-smi -L | wc -l)}
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== building moe-probe (nccl backend) in $build"
# The probe alone (no Qt needed on the GPU machine).
cmake -S "$repo/remote/probe" -B "$build" -DMOEWB_WITH_NCCL=ON -DCUDAToolkit_ROOT="$cuda" -DNCCL_HOME="$nccl" \
      > "$work/cmake.log"
cmake --build "$build" --target moe-probe -j"$(nproc)" > "$work/build.log"
probe="$build/moe-probe"

echo "== building nccl-tests from $src"
make -C "$src" -j"$(nproc)" CUDA_HOME="$cuda" NCCL_HOME="$nccl" src.build > "$work/nccl-tests-build.log"
perf="$src/build/alltoall_perf"
[[ -x $perf ]] || { echo "alltoall_perf was not built; see $work/nccl-tests-build.log" >&2; exit 3; }

export LD_LIBRARY_PATH="$nccl/lib:$nccl/lib64:$cuda/lib64:${LD_LIBRARY_PATH:-}"
echo "== alltoall_perf -g $ngpus -b $min -e $max -f 2 -n $iters -w $warmup"
"$perf" -g "$ngpus" -b "$min" -e "$max" -f 2 -n "$iters" -w "$warmup" -c 1 | tee "$work/nccl-tests.txt"
echo "== moe-probe --backend nccl -g $ngpus (same sizes)"
# No --nccl-lib: the probe finds libnccl.so.2 through LD_LIBRARY_PATH, the same library
# alltoall_perf was linked against; the JSON records the path it loaded.
"$probe" --backend nccl -g "$ngpus" -b "$min" -e "$max" -f 2 -n "$iters" -w "$warmup" -R 3 -c 1 \
         -J "$work/probe.json" | tee "$work/probe.txt"

/usr/bin/env python3 - "$work/nccl-tests.txt" "$work/probe.json" <<'PY'
import json, sys
ref = {}
lines = open(sys.argv[1]).read().splitlines()
# Columns: size count type redop [root] time algbw busbw #wrong ... (out-of-place first);
# older nccl-tests have no root column, so read the header rather than assume.
has_root = any(l.startswith("#") and " root " in l for l in lines)
off = 5 if has_root else 4
for line in lines:
    f = line.split()
    if not f or line.lstrip().startswith("#") or not f[0].isdigit() or len(f) < off + 3:
        continue
    ref[int(f[0])] = (float(f[off]), float(f[off + 2]))
doc = json.load(open(sys.argv[2]))
print(f"# NCCL {doc['environment']['nccl']['version']} at {doc['environment']['nccl']['path']}; "
      f"{doc['environment']['gpu']['count']} x {doc['environment']['gpu']['model']}")
print(f"{'bytes':>12} {'nccl-tests busbw':>17} {'moe-probe busbw':>16} {'ratio':>6} {'probe cv%':>9}")
for r in doc["results"]:
    b = r["requested_bytes_per_rank"]
    if b not in ref:
        continue
    nt = ref[b][1]
    mp = r["busbw_gbps"]
    print(f"{b:>12} {nt:>17.2f} {mp:>16.2f} {mp / nt if nt else float('nan'):>6.2f} {100 * r['cv']:>9.2f}")
wrong = doc["summary"]["wrong_bytes"]
print(f"# moe-probe wrong bytes: {wrong}")
sys.exit(1 if wrong else 0)
PY
