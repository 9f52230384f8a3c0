# Vectorized numpy baseline for bench_topk_routing: the same shape (T x E float32), top-2
# per token with argpartition, loads with bincount, capacity ignored (numpy has no
# token-order cumulative cap without a Python loop). Prints milliseconds as JSON.
import json, sys, time
import numpy as np

T, E, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(1)
s = rng.random((T, E), dtype=np.float32)
read, topk = [], []
for _ in range(reps):
    t0 = time.perf_counter(); x = float(s.sum()); read.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    idx = np.argpartition(-s, 2, axis=1)[:, :2]
    loads = np.bincount(idx.ravel(), minlength=E)
    topk.append(time.perf_counter() - t0)
print(json.dumps({"read_ms": min(read) * 1e3, "topk_ms": min(topk) * 1e3, "loads_sum": int(loads.sum()), "x": x}))
