#!/bin/bash
# Benchmark: moe-probe's tcp backend against a plain MPI_Alltoall loop (Open MPI from
# Debian, TCP over loopback) on the same 4 local ranks, 64 KiB to 64 MiB per rank.
# Prints the algbw of each and the ratio probe / MPI per size; target >= 0.9 from 1 MiB.
# Not part of the test suite. Usage:
#   tests/bench/probe/run_probe_vs_mpi.sh BUILD_DIR [ROUNDS]
# BUILD_DIR must hold remote/probe/moe-probe and tests/bench/probe/probe-mpi-alltoall-baseline.
# The sweeps alternate (MPI, probe, MPI, probe, ...) and each size's median over ROUNDS
# is compared, so a busy machine disturbs both sides alike.
set -euo pipefail
build=${1:?usage: run_probe_vs_mpi.sh BUILD_DIR [ROUNDS]}
rounds=${2:-3}
probe=$build/remote/probe/moe-probe
baseline=$build/tests/bench/probe/probe-mpi-alltoall-baseline
min=65536 max=67108864 warmup=5 iters=20
for f in "$probe" "$baseline"; do
  [[ -x $f ]] || { echo "missing $f (build the moe-probe and probe-mpi-alltoall-baseline targets)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

port=$((29000 + RANDOM % 2000))
for round in $(seq 1 "$rounds"); do
  mpirun --allow-run-as-root --oversubscribe -np 4 --mca btl tcp,self --mca btl_tcp_if_include lo \
    "$baseline" $min $max $warmup $iters > "$work/mpi.$round"
  port=$((port + 1))
  pids=()
  for r in 0 1 2 3; do
    "$probe" --rank $r --world 4 --rendezvous 127.0.0.1:$port --listen 127.0.0.$((r + 1)) \
      -b $min -e $max -w $warmup -n $iters --timeout 60 -J "$work/probe.$round.json" > /dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
done

/usr/bin/python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
mpi, probe = {}, {}
for r in range(1, rounds + 1):
    for line in open(f"{work}/mpi.{r}"):
        b, algbw, _ = line.split()
        mpi.setdefault(int(b), []).append(float(algbw))
    for res in json.load(open(f"{work}/probe.{r}.json"))["results"]:
        probe.setdefault(res["requested_bytes_per_rank"], []).append(res["algbw_gbps"])
print(f"# moe-probe tcp vs MPI_Alltoall (Open MPI, btl tcp over lo), 4 ranks, median of {rounds} rounds")
print(f"{'bytes/rank':>12} {'mpi GB/s':>9} {'probe GB/s':>10} {'ratio':>6}")
worst = None
for b in sorted(mpi):
    m, p = statistics.median(mpi[b]), statistics.median(probe.get(b, [0]))
    ratio = p / m if m else float("nan")
    if b >= 1 << 20:
        worst = ratio if worst is None else min(worst, ratio)
    print(f"{b:>12} {m:>9.3f} {p:>10.3f} {ratio:>6.2f}")
print(f"# lowest ratio from 1 MiB: {worst:.2f} (target >= 0.90)")
PY
