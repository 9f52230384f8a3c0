#!/bin/bash
# Benchmark: moe-probe's tcp backend against a plain MPI_Alltoall loop (Open MPI, TCP over
# loopback) on the same 4 local ranks, 64 KiB to 64 MiB per rank, like with like:
#   MPI default   Open MPI's own algorithm choice (coll tuned, fixed decision rules)
#   MPI linear    forced basic_linear: every pair in flight at once
#   MPI pairwise  forced pairwise: n-1 steps, send to rank+k while receiving from rank-k
#   probe mesh      moe-probe --schedule mesh (every pair in flight; the default)
#   probe pairwise  moe-probe --schedule pairwise
# Ratios: probe mesh / MPI linear and probe pairwise / MPI pairwise (same schedule on both
# sides), and each probe schedule / MPI default. Target >= 1.0 from 1 MiB.
# Not part of the test suite. Usage:
#   tests/bench/probe/run_probe_vs_mpi.sh BUILD_DIR [ROUNDS]
# BUILD_DIR must hold remote/probe/moe-probe and tests/bench/probe/probe-mpi-alltoall-baseline.
# Each round runs the five sweeps, in reverse order every other round (MPI and probe
# interleaved), and each size's median over ROUNDS is compared, so a busy machine
# disturbs every side alike. The load average is printed before and after: quote it
# with the figures.
set -euo pipefail
build=${1:?usage: run_probe_vs_mpi.sh BUILD_DIR [ROUNDS]}
rounds=${2:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2; }
probe=$build/remote/probe/moe-probe
baseline=$build/tests/bench/probe/probe-mpi-alltoall-baseline
min=65536 max=67108864 warmup=5 iters=20
for f in "$probe" "$baseline"; do
  [[ -x $f ]] || { echo "missing $f (build the moe-probe and probe-mpi-alltoall-baseline targets)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mpi_common=(--allow-run-as-root --oversubscribe -np 4 --mca btl "tcp,self" --mca btl_tcp_if_include lo)
# name -> extra mpirun arguments
declare -A mpi_algorithm=(
  [mpi-default]=""
  [mpi-linear]="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm 1"
  [mpi-pairwise]="--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm 2"
)

port=$((29000 + RANDOM % 2000))
# The probe's ranks prove this run's secret to each other (docs/probe.md).
MOEWB_PROBE_SECRET=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
export MOEWB_PROBE_SECRET
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run_side() { # NAME ROUND
  local name=$1 round=$2
  case $name in
    mpi-*)
      # shellcheck disable=SC2086 # the MCA flags are split on purpose
      mpirun "${mpi_common[@]}" ${mpi_algorithm[$name]} "$baseline" $min $max $warmup $iters \
        > "$work/$name.$round"
      ;;
    probe-*)
      port=$((port + 1))
      local pids=() r
      for r in 0 1 2 3; do
        "$probe" --rank $r --world 4 --rendezvous 127.0.0.1:$port --listen 127.0.0.$((r + 1)) \
          --schedule "${name#probe-}" -b $min -e $max -w $warmup -n $iters --timeout 60 \
          -J "$work/$name.$round.json" > /dev/null &
        pids+=($!)
      done
      for r in "${pids[@]}"; do wait "$r"; done
      ;;
  esac
}

order=(mpi-default probe-mesh mpi-linear probe-pairwise mpi-pairwise)
for round in $(seq 1 "$rounds"); do
  if ((round % 2)); then sides=("${order[@]}"); else sides=(); for ((i = ${#order[@]} - 1; i >= 0; i--)); do sides+=("${order[i]}"); done; fi
  for side in "${sides[@]}"; do run_side "$side" "$round"; done
done

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/python3 - "$work" "$rounds" "$load_before" "$load_after" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
load_before, load_after = sys.argv[3], sys.argv[4]
gbps = {}  # side -> bytes -> [algbw]
for r in range(1, rounds + 1):
    for side in ("mpi-default", "mpi-linear", "mpi-pairwise"):
        for line in open(f"{work}/{side}.{r}"):
            b, algbw, _ = line.split()
            gbps.setdefault(side, {}).setdefault(int(b), []).append(float(algbw))
    for side in ("probe-mesh", "probe-pairwise"):
        doc = json.load(open(f"{work}/{side}.{r}.json"))
        assert doc["environment"].get("schedule", "mesh") == side[len("probe-"):], f"{side}: wrong schedule"
        for res in doc["results"]:
            gbps.setdefault(side, {}).setdefault(res["requested_bytes_per_rank"], []).append(res["algbw_gbps"])

def med(side, b):
    v = gbps.get(side, {}).get(b)
    return statistics.median(v) if v else float("nan")

def ratio(a, b):
    return a / b if b else float("nan")

print(f"# moe-probe tcp backend vs MPI_Alltoall (Open MPI, btl tcp over lo), 4 local ranks")
print(f"# algbw in GB/s (bytes each rank sends / median iteration time, max over ranks), median of {rounds} rounds")
print(f"# load average (1, 5, 15 min): {load_before} before, {load_after} after; {__import__('os').cpu_count()} CPUs")
print("#   MPI default  = Open MPI's own algorithm choice")
print("#   MPI linear   = forced basic_linear (coll_tuned_alltoall_algorithm 1): every pair in flight")
print("#   MPI pairwise = forced pairwise (coll_tuned_alltoall_algorithm 2)")
print("#   mesh/lin = probe --schedule mesh / MPI linear; pw/pw = probe --schedule pairwise / MPI pairwise;")
print("#   mesh/def, pw/def = probe --schedule mesh, pairwise / MPI default")
hdr = ("bytes/rank", "MPI default", "MPI linear", "MPI pairwise", "probe mesh", "probe pairwise",
       "mesh/lin", "pw/pw", "mesh/def", "pw/def")
print(f"{hdr[0]:>10} {hdr[1]:>11} {hdr[2]:>10} {hdr[3]:>12} {hdr[4]:>10} {hdr[5]:>14} "
      f"{hdr[6]:>8} {hdr[7]:>6} {hdr[8]:>8} {hdr[9]:>6}")
lowest = {"mesh/lin": None, "pw/pw": None, "mesh/def": None, "pw/def": None}
for b in sorted(gbps["mpi-default"]):
    d, lin, pw = med("mpi-default", b), med("mpi-linear", b), med("mpi-pairwise", b)
    pm, pp = med("probe-mesh", b), med("probe-pairwise", b)
    ratios = {"mesh/lin": ratio(pm, lin), "pw/pw": ratio(pp, pw), "mesh/def": ratio(pm, d), "pw/def": ratio(pp, d)}
    if b >= 1 << 20:
        for k, v in ratios.items():
            lowest[k] = v if lowest[k] is None else min(lowest[k], v)
    print(f"{b:>10} {d:>11.3f} {lin:>10.3f} {pw:>12.3f} {pm:>10.3f} {pp:>14.3f} "
          f"{ratios['mesh/lin']:>8.2f} {ratios['pw/pw']:>6.2f} {ratios['mesh/def']:>8.2f} {ratios['pw/def']:>6.2f}")
print("# lowest ratio from 1 MiB: " + ", ".join(f"{k} {v:.2f}" for k, v in lowest.items()) + " (target >= 1.00)")
PY
