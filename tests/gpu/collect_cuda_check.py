#!/usr/bin/env python3
"""moewb_collect on a real GPU (not part of the CPU test suite: it needs CUDA).

Checks, on the first CUDA device:
  1. counts and drops of routing decisions made on the GPU equal a brute-force count in
     plain Python (tests/collect/helpers.py), for top-k indices with and without capacity;
  2. the clock is "cuda-events", every step has its time row, and the all-to-all and
     expert-compute spans (real GPU work inside them) are positive and fit in the step;
  3. step_end never waits for the GPU: with ~0.5 s of matrix products queued on the
     stream, step_end returns in far less than that (the writer thread reads the events
     and the pinned copy of the counts).
Exit status 0 when every check holds; prints what it measured.

    python3 tests/gpu/collect_cuda_check.py [OUT_DIR]
"""

import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "collect"))
from helpers import brute_force  # noqa: E402  (also puts remote/collect on sys.path)

import torch  # noqa: E402
from moewb_collect import Collector  # noqa: E402

E, K, LAYERS, T, STEPS = 16, 2, 3, 256, 6
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def read(d, sub):
    with open(os.path.join(d, sub, "rank0.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to check")
        return 2
    dev = torch.device("cuda")
    torch.cuda.init()
    print(f"device: {torch.cuda.get_device_name(dev)}, torch {torch.__version__}")
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="collect-cuda-")
    g = torch.Generator(device="cpu").manual_seed(7)
    a = torch.randn(4096, 4096, device=dev)
    expect = {}  # (step, layer) -> (counts, tokens, dropped_tokens, dropped_assignments)
    col = Collector(out, num_experts=E, topk=K, moe_layers=LAYERS)
    for step in range(1, STEPS + 1):
        col.step_begin()
        for layer in range(LAYERS):
            # skewed scores so that some experts overflow their capacity
            scores = torch.rand(T, E, generator=g) + torch.linspace(0, 1.5, E)
            idx = torch.topk(scores, K, dim=1).indices
            cap = None if layer == 0 else 24 + 8 * layer
            with col.alltoall():
                b = a @ a  # real GPU work inside the span
            with col.expert_compute():
                b = b @ a
            col.record_routing(layer, topk_indices=idx.to(dev), capacity=cap)
            expect[(step, layer)] = brute_force(E, K, idx.tolist(), capacity=cap)
        col.step_end(step)
    # step_end must not wait for work queued on the stream
    col.step_begin()
    col.record_routing(0, topk_indices=torch.zeros(T, K, dtype=torch.long, device=dev) + torch.arange(K, device=dev))
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(200):
        a @ a
    queued = time.perf_counter() - t0
    t1 = time.perf_counter()
    col.step_end(STEPS + 1)
    step_end_s = time.perf_counter() - t1
    t2 = time.perf_counter()
    torch.cuda.synchronize()
    gpu_left = time.perf_counter() - t2
    col.close()
    print(f"queued 200 matrix products in {queued * 1e3:.1f} ms; step_end took {step_end_s * 1e3:.2f} ms; "
          f"the GPU then still had {gpu_left * 1e3:.1f} ms of work")
    check(gpu_left > 0.05 and step_end_s < gpu_left / 5, "step_end returned without waiting for the GPU")

    header, *side = read(out, "moewb_collect")
    tpe = read(out, "tokens_per_expert")
    check(header.get("clock") == "cuda-events", f"clock is cuda-events (header: {header.get('clock')})")
    got = {(r["iter"], r["layer"]): r["tpe"] for r in tpe}
    drops = {(r["step"], r["layer"]): r for r in side if r.get("kind") == "drops"}
    times = {r["step"]: r for r in side if r.get("kind") == "time"}
    bad = []
    for key, (counts, tokens, dt, da) in expect.items():
        d = drops.get(key, {})
        if got.get(key) != counts or d.get("tokens") != tokens or d.get("dropped_tokens") != dt \
                or d.get("dropped_assignments") != da:
            bad.append((key, got.get(key), counts, d, (tokens, dt, da)))
    check(not bad, f"counts and drops of {len(expect)} (step, layer) decisions equal the brute force"
          + (f"; first mismatch {bad[0]}" if bad else ""))
    check(sorted(times) == list(range(1, STEPS + 2)), f"a time row for every step ({sorted(times)})")
    fits = all(t["a2a_s"] and t["compute_s"] and t["a2a_s"] > 0 and t["compute_s"] > 0
               and t["a2a_s"] + t["compute_s"] <= t["step_s"] * 1.001 for s, t in times.items() if s <= STEPS)
    check(fits, "all-to-all and compute spans positive and within the step")
    for s in sorted(times):
        t = times[s]
        print(f"  step {s}: step {t['step_s'] * 1e3:.2f} ms, a2a {t['a2a_s'] and t['a2a_s'] * 1e3}, "
              f"compute {t['compute_s'] and t['compute_s'] * 1e3}")
    print(f"files under {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
