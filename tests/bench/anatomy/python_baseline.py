#!/usr/bin/env python3
"""The least a Python tool must do to get a step anatomy out of PyTorch profiler (Kineto)
traces, as a speed baseline for the workbench's importer (core/anatomy/RankTrace):

    python_baseline.py FILE [FILE ...]      (.json, or .json.gz read through gzip)

Per file: json.load the whole trace, the ProfilerStep#N spans, the launches
(cuda_runtime, by args.correlation), each GPU kernel / memcpy / memset tied to the step
whose span holds its launch, then per step the union of the compute kernels and the
union of the communication kernels (NCCL, DeepEP), clipped to the step. Prints one line:

    python_baseline: <bytes> bytes in <s> s = <MB/s> MB/s

bytes = the uncompressed JSON read; MB = 10^6 bytes. Standard library only.
"""

import bisect
import gzip
import json
import os
import sys
import time


def union_length(intervals, lo, hi):
    total, end = 0.0, lo
    for a, b in sorted(intervals):
        a, b = max(a, lo, end), min(b, hi)
        if b > a:
            total += b - a
            end = b
    return total


def digest(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    trace = json.loads(raw)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    steps, launch, gpu = [], {}, []
    for e in events:
        if e.get("ph") != "X":
            continue
        cat = e.get("cat")
        if cat == "cuda_runtime" or cat == "cuda_driver":
            c = e.get("args", {}).get("correlation")
            if c is not None:
                launch[c] = e["ts"]
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            gpu.append(e)
        elif e.get("name", "").startswith("ProfilerStep#"):
            steps.append((e["ts"], e["ts"] + e["dur"], e["name"]))
    steps.sort()
    starts = [s[0] for s in steps]
    compute = [[] for _ in steps]
    comm = [[] for _ in steps]
    for e in gpu:
        t = launch.get(e.get("args", {}).get("correlation"))
        if t is None:
            continue
        i = bisect.bisect_right(starts, t) - 1
        if i < 0 or t >= steps[i][1]:
            continue
        name = e["name"]
        iv = (e["ts"], e["ts"] + e["dur"])
        if name.startswith("nccl") or "deep_ep::" in name:
            comm[i].append(iv)
        elif e["cat"] == "kernel":
            compute[i].append(iv)
    out = []
    for i, (s0, s1, name) in enumerate(steps):
        out.append((name, s1 - s0, union_length(compute[i], s0, s1), union_length(comm[i], s0, s1)))
    return len(raw), out


def main(argv):
    if not argv:
        sys.stderr.write("usage: python_baseline.py FILE [FILE ...]\n")
        return 2
    total = 0
    t0 = time.perf_counter()
    results = []
    for path in argv:
        n, rows = digest(path)
        total += n
        results.append((path, rows))
    dt = time.perf_counter() - t0
    for path, rows in results:
        sys.stderr.write("%s: %d steps%s\n" % (os.path.basename(path), len(rows),
                                                 (", first %s: step %.1f us, compute %.1f us, comm %.1f us" % rows[0])
                                                 if rows else ""))
    print("python_baseline: %d bytes in %.3f s = %.1f MB/s" % (total, dt, total / 1e6 / dt if dt > 0 else 0.0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
