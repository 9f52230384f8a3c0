#!/bin/bash
# Every check that needs a GPU, in one pass (a GPU machine is scarce: run this once,
# read its log). Not part of the CPU test suite.
#
#   tests/gpu/run_gpu_checks.sh NCCL_TESTS_TARBALL_OR_DIR [OUT_DIR]
#
# 1. moe-probe built standalone with its nccl backend, run on every GPU of this machine
#    (one process, -g N) beside NVIDIA nccl-tests' alltoall_perf at the same sizes:
#    time and algbw side by side, and the probe's data check (wrong bytes must be 0).
#    With one GPU the all-to-all is a copy within the device (busbw is 0 by definition),
#    which still runs the probe's whole CUDA/NCCL path: driver API, streams, events,
#    the NCCL communicator and grouped send/recv.
# 2. moe-probe --inventory: the node facts the workbench reads (GPU model, driver, NCCL).
# 3. tests/gpu/collect_cuda_check.py: moewb_collect's counts on GPU tensors against a
#    brute-force count, the cuda-events clock, and step_end never waiting for the GPU.
# 4. tests/bench/collect/bench_collect_overhead.py on the GPU (the collector's overhead).
# Environment: PROBE_ROUNDS (default 1) repeats the probe's run and data check.
# NCCL and nccl.h: from the Python environment's nvidia-nccl wheel if there is one, else
# from CUDA_HOME; NCCL_INCLUDE overrides where nccl.h is taken from.
# Outputs (logs, probe JSON, collector files) go to OUT_DIR (default: $OUT, else a
# temporary folder). Exit status: the number of failed checks.
set -uo pipefail
src=${1:?usage: run_gpu_checks.sh NCCL_TESTS_TARBALL_OR_DIR [OUT_DIR]}
out=${2:-${OUT:-$(mktemp -d)}}
mkdir -p "$out"
repo=$(cd "$(dirname "$0")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
work=$(mktemp -d)
fails=0
step() { echo; echo "== $* ($(date +%T))"; }
fail() { echo "FAILED: $*"; fails=$((fails + 1)); }

step "machine"
nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv
ngpus=$(nvidia-smi -L | wc -l)
"$cuda/bin/nvcc" --version | tail -2
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version())'
nproc

step "NCCL"
lib=$(python3 - <<'PY' 2>/dev/null
import glob, os
try:
    import nvidia.nccl as n
    for d in n.__path__:
        for c in glob.glob(os.path.join(d, "lib", "libnccl.so*")):
            print(c); raise SystemExit
except ImportError:
    pass
PY
)
[[ -z $lib ]] && lib=$(ls "$cuda"/lib64/libnccl.so.2 "$cuda"/targets/x86_64-linux/lib/libnccl.so.2 2>/dev/null | head -1)
[[ -n $lib ]] || { fail "no libnccl.so.2 found"; lib=; }
inc=${NCCL_INCLUDE:-}
# a wheel's include folder may lack nccl_device/ (nccl-tests >= 2.17 includes it)
if [[ -z $inc && -n $lib && -f $(dirname "$lib")/../include/nccl.h && -d $(dirname "$lib")/../include/nccl_device ]]; then inc=$(cd "$(dirname "$lib")/../include" && pwd); fi
[[ -z $inc && -f $cuda/include/nccl.h ]] && inc=$cuda/include
echo "libnccl: $lib"; echo "nccl.h:  $inc"
home=$work/ncclhome
mkdir -p "$home/include" "$home/lib"
ln -s "$inc"/nccl* "$home/include/"  # nccl.h, and nccl_device.h with its folder (NCCL >= 2.28)
[[ -n $lib ]] && ln -s "$lib" "$home/lib/libnccl.so" && ln -s "$lib" "$home/lib/libnccl.so.2"
export LD_LIBRARY_PATH="$home/lib:$cuda/lib64:${LD_LIBRARY_PATH:-}"

step "building moe-probe (nccl backend)"
if cmake -S "$repo/remote/probe" -B "$work/probe" -G Ninja -DMOEWB_WITH_NCCL=ON -DCUDAToolkit_ROOT="$cuda" \
      -DNCCL_HOME="$home" > "$work/probe-cmake.log" 2>&1 &&
   cmake --build "$work/probe" --target moe-probe -j"$(nproc)" > "$work/probe-build.log" 2>&1; then
  probe=$work/probe/moe-probe
  "$probe" --version
else
  tail -30 "$work/probe-cmake.log" "$work/probe-build.log"; fail "moe-probe did not build"; probe=
fi

step "building nccl-tests alltoall_perf"
if [[ -d $src ]]; then nt=$src; else mkdir -p "$work/nt" && tar xzf "$src" -C "$work/nt" && nt=$work/nt/nccl-tests; fi
if make -C "$nt/src" -j"$(nproc)" ../build/alltoall_perf CUDA_HOME="$cuda" NCCL_HOME="$home" \
        NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" > "$work/nt-build.log" 2>&1; then
  perf=$nt/build/alltoall_perf
else
  tail -30 "$work/nt-build.log"; fail "alltoall_perf did not build"; perf=
fi

min=1M max=1G
if [[ -n $perf ]]; then
  step "alltoall_perf -g $ngpus -b $min -e $max -f 2 -n 20 -w 5 -c 1"
  timeout 180 "$perf" -g "$ngpus" -b $min -e $max -f 2 -n 20 -w 5 -c 1 | tee "$out/nccl-tests-alltoall.txt" ||
    fail "alltoall_perf"
fi
if [[ -n $probe ]]; then
  # PROBE_ROUNDS (default 1) runs the probe that many times, each with its data check:
  # a race between the probe's stream and its buffers shows as wrong bytes now and then.
  for ((round = 1; round <= ${PROBE_ROUNDS:-1}; ++round)); do
    step "moe-probe --backend nccl -g $ngpus (same sizes, 3 repeats), round $round"
    timeout 180 "$probe" --backend nccl -g "$ngpus" -b $min -e $max -f 2 -n 20 -w 5 -R 3 -c 1 \
        -J "$out/probe-nccl.json" > "$out/probe-nccl.txt" 2>&1 || fail "moe-probe nccl run (round $round)"
    if ((round == 1)); then cat "$out/probe-nccl.txt"; else grep -E "wrong|Out of bounds|error" "$out/probe-nccl.txt"; fi
  done
  step "moe-probe --inventory"
  timeout 60 "$probe" --inventory > "$out/probe-inventory.json" && cat "$out/probe-inventory.json" ||
    fail "moe-probe --inventory"
fi
if [[ -f $out/probe-nccl.json && -f $out/nccl-tests-alltoall.txt ]]; then
  step "side by side (algbw GB/s; with one GPU busbw is 0 by definition)"
  python3 - "$out/nccl-tests-alltoall.txt" "$out/probe-nccl.json" <<'PY' || fail "probe data check"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
has_root = any(l.startswith("#") and " root " in l for l in lines)
off = 5 if has_root else 4
ref = {}
for line in lines:
    f = line.split()
    if f and f[0].isdigit() and not line.lstrip().startswith("#") and len(f) >= off + 3:
        ref[int(f[0])] = (float(f[off]), float(f[off + 1]))  # out-of-place time (us), algbw
doc = json.load(open(sys.argv[2]))
env = doc["environment"]
print(f"# NCCL {env['nccl']['version']} at {env['nccl']['path']}; {env['gpu']['count']} x {env['gpu']['model']}")
print(f"{'bytes':>12} {'nccl-tests us':>14} {'moe-probe us':>13} {'nt algbw':>9} {'probe algbw':>12} {'ratio':>6} {'cv%':>6}")
for r in doc["results"]:
    b = r["requested_bytes_per_rank"]
    if b in ref:
        t, bw = ref[b]
        pb = r["algbw_gbps"]
        print(f"{b:>12} {t:>14.1f} {r['time_us']['median']:>13.1f} {bw:>9.2f} {pb:>12.2f} {pb / bw if bw else float('nan'):>6.2f} {100 * r['cv']:>6.2f}")
wrong = doc["summary"]["wrong_bytes"]
print(f"# moe-probe wrong bytes: {wrong}")
sys.exit(1 if wrong else 0)
PY
fi

step "moewb_collect on the GPU"
timeout 240 python3 "$repo/tests/gpu/collect_cuda_check.py" "$out/collect" || fail "collect_cuda_check"

step "moewb_collect overhead on the GPU"
timeout 240 python3 "$repo/tests/bench/collect/bench_collect_overhead.py" --device cuda --hidden 512 --ffn 1024 \
    --tokens 8192 --pairs 20 || fail "bench_collect_overhead"

step "done: $fails failed"
rm -rf "$work"
exit $fails
