#!/usr/bin/python3
"""Baseline for bench_import_e2e.sh (not a test): parse a Megatron tokens-per-expert
JSONL (docs/formats.md, "Megatron tokens per expert") with Python's json module into
a numpy array [lines, experts] of uint32, micro-batches summed per expert, as a script
reading the file would. Prints one line: seconds, lines, counts, bytes, total tokens.

    tpe_json_numpy_baseline.py FILE
"""
import json
import os
import sys
import time

import numpy as np


def main():
    path = sys.argv[1]
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        first = json.loads(f.readline())
    experts = len(first["tpe"][0]) if first["tpe"] and isinstance(first["tpe"][0], list) else len(first["tpe"])
    size = os.path.getsize(path)
    capacity = 1024
    out = np.empty((capacity, experts), np.uint32)
    keys = np.empty((capacity, 2), np.int64)
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            tpe = d["tpe"]
            row = np.asarray(tpe, dtype=np.uint64)
            if row.ndim == 2:
                row = row.sum(axis=0)
            if n == capacity:
                capacity *= 2
                out = np.resize(out, (capacity, experts))
                keys = np.resize(keys, (capacity, 2))
            out[n] = row
            keys[n] = (d["iter"], d["layer"])
            n += 1
    out = out[:n]
    seconds = time.perf_counter() - t0
    print(f"{seconds:.3f} s, {n} lines, {n * experts} counts, {size} bytes, {int(out.sum(dtype=np.uint64))} tokens")


if __name__ == "__main__":
    main()
