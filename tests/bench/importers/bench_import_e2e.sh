#!/usr/bin/env bash
# Benchmark (not a test): `moewb import` of a DeepSeek-V3-size tokens-per-expert JSONL
# end to end, then `moewb stage 3` on the imported run, against two baselines measured
# in the same run on the same file: `cat FILE > /dev/null` (reading the bytes) and a
# Python json + numpy parse of the file into an array (tpe_json_numpy_baseline.py).
#
#   tests/bench/importers/bench_import_e2e.sh [--scale F] [--build DIR] [--cache DIR]
#                                             [--no-python] [--keep]
#
# --scale F: steps × F (1 = 20,000 steps × 58 layers × 256 experts, 297 M counts,
# about 1.85 GB; 0.1 on a small machine). The file and its record are generated once by
# tests/bench/gen/gen_tpe_jsonl.py into --cache (default ${TMPDIR:-/tmp}/moewb-bench-tpe)
# and reused. Timings are taken with the file in the page cache (a warm `cat` first).
# Prints the machine's load, each figure, the ratios and the targets (import ≥ 300 MB/s,
# stage 3 < 1 s). Peak memory of the import from /usr/bin/time -v. Exit status 0 unless
# a step fails; a missed target is printed, not an error.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
scale=1
build="$root/build"
cache="${TMPDIR:-/tmp}/moewb-bench-tpe"
python=1
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
    --scale) scale=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --no-python) python=0; shift ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bench_import_e2e.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

moewb="$build/app/moewb"
[ -x "$moewb" ] || { echo "bench_import_e2e.sh: $moewb not built (cmake --build $build --target moewb)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench_import_e2e.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

mkdir -p "$cache"
tag="s${scale}"
file="$cache/tpe-deepseek-v3-$tag.jsonl"
record="$cache/tpe-deepseek-v3-$tag.record.json"
if [ ! -s "$file" ] || [ ! -s "$record" ]; then
    echo "generating $file ..."
    /usr/bin/python3 "$root/tests/bench/gen/gen_tpe_jsonl.py" "$file.part" --scale "$scale" --record "$record"
    mv "$file.part" "$file"
fi
bytes=$(stat -c %s "$file")
work=$(mktemp -d "${TMPDIR:-/tmp}/moewb-bench-e2e.XXXXXX")
cleanup() { [ "$keep" = 1 ] && echo "kept $work" || rm -rf "$work"; }
trap cleanup EXIT

now() { date +%s.%N; }
mbps() { awk -v b="$bytes" -v s="$1" 'BEGIN { printf "%.0f", b / 1e6 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "file: $file ($bytes bytes)"

# Baseline 1: the bytes, read (warm page cache).
cat "$file" > /dev/null
t0=$(now); cat "$file" > /dev/null; t1=$(now)
cat_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# Baseline 2: Python json + numpy into an array.
py_s=
if [ "$python" = 1 ]; then
    py_line=$(/usr/bin/python3 "$here/tpe_json_numpy_baseline.py" "$file")
    py_s=${py_line%% s,*}
fi

# moewb import, end to end: a fresh project, the record, the file as one run.
export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config"
mkdir -p "$HOME"
project="$work/bench.moewb"
"$moewb" init "$project" > /dev/null
"$moewb" --project "$project" record add "$record" > /dev/null
t0=$(now)
/usr/bin/time -v -o "$work/import.time" "$moewb" --project "$project" import "$file" --run ds3-bench \
    --max-bytes 64G > "$work/import.out" 2>&1 || { cat "$work/import.out" >&2; echo "moewb import failed" >&2; exit 3; }
t1=$(now)
import_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
import_rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/import.time")
import_cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$work/import.time")

# moewb stage 3 --preview on the imported run: its tables and what the gate would say
# (stages 1 and 2 have no verdict in this project, so a plain `stage 3` is locked).
# Exit 1 = the gate would stop: still a result.
t0=$(now)
/usr/bin/time -v -o "$work/stage3.time" "$moewb" --project "$project" stage 3 --preview > "$work/stage3.out" 2>&1 ||
    [ $? = 1 ] || { cat "$work/stage3.out" >&2; echo "moewb stage 3 failed" >&2; exit 3; }
t1=$(now)
stage3_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
stage3_rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/stage3.time")

printf '%-44s %9.2f s  %7s MB/s\n' "cat FILE > /dev/null (baseline)" "$cat_s" "$(mbps "$cat_s")"
[ -n "$py_s" ] && printf '%-44s %9.2f s  %7s MB/s\n' "Python json + numpy (baseline)" "$py_s" "$(mbps "$py_s")"
printf '%-44s %9.2f s  %7s MB/s  peak RSS %s MB  CPU %s s\n' "moewb import (end to end)" "$import_s" \
    "$(mbps "$import_s")" "$((import_rss_kb / 1024))" "$import_cpu"
printf '%-44s %9.2f s  peak RSS %s MB\n' "moewb stage 3 --preview" "$stage3_s" "$((stage3_rss_kb / 1024))"
echo "ratio moewb import / cat:                    $(ratio "$import_s" "$cat_s") x the time"
[ -n "$py_s" ] && echo "ratio Python baseline / moewb import:        $(ratio "$py_s" "$import_s") x faster"
awk -v m="$(mbps "$import_s")" -v s="$stage3_s" 'BEGIN {
    printf "target import >= 300 MB/s: %s; stage 3 < 1 s: %s\n", (m >= 300 ? "yes" : "NO"), (s < 1 ? "yes" : "NO") }'
