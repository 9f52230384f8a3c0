#!/usr/bin/python3
"""Overhead of moewb_collect on a training step (not a test; docs/collect.md).

The same small MoE training (64 experts x 32 MoE layers, top-2, capacity factor 1.25,
hidden 32 on the CPU by default, one process; --device cuda runs it on a GPU, where
the collector uses CUDA events and never synchronises the stream) runs without and with the collector, alternating step by
step in the same process (so a change in the machine's load hits both alike); per
variant the step times' min and median, and the ratios. It also times the collector's own calls alone on the same routing (the part of
the step it adds), which is far less noisy than a difference of two step times.

    /usr/bin/python3 tests/bench/collect/bench_collect_overhead.py [--pairs 30] [--tokens 512]
    python3 tests/bench/collect/bench_collect_overhead.py --device cuda --hidden 512 --ffn 1024 --tokens 8192
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "remote", "collect"))

import torch  # noqa: E402
from moewb_collect import Collector, capacity_from_factor  # noqa: E402

E, K, LAYERS, H, FFN = 64, 2, 32, 32, 64


class MoEStack(torch.nn.Module):
    def __init__(self, hidden=H, ffn=FFN, device="cpu"):
        super().__init__()
        self.routers = torch.nn.ModuleList(torch.nn.Linear(hidden, E, bias=False, device=device)
                                           for _ in range(LAYERS))
        # one parameter per expert matrix: indexing one big tensor would make autograd
        # write a full-size gradient per expert call
        self.w1 = torch.nn.ParameterList(torch.nn.Parameter(torch.randn(hidden, ffn, device=device) * 0.05)
                                         for _ in range(LAYERS * E))
        self.w2 = torch.nn.ParameterList(torch.nn.Parameter(torch.randn(ffn, hidden, device=device) * 0.05)
                                         for _ in range(LAYERS * E))

    def forward(self, x, cf, col, routing_log):
        T = x.shape[0]
        cap = capacity_from_factor(T, E, K, cf)
        for layer in range(LAYERS):
            probs = torch.softmax(self.routers[layer](x), dim=-1)
            top_p, idx = torch.topk(probs, K, dim=-1)
            routing_log.append((layer, idx, cap))
            if col is not None:
                col.record_routing(layer, topk_indices=idx, capacity=cap)
            # the training's own capacity dropping (position)
            rmap = torch.zeros(T, E, dtype=torch.bool, device=x.device).scatter_(1, idx, True)
            kept = (rmap & (rmap.cumsum(0) <= cap)).gather(1, idx)
            tok = torch.arange(T, device=x.device).unsqueeze(1).expand(T, K)[kept]
            exp_ids = idx[kept]
            w = top_p[kept]
            order = torch.argsort(exp_ids)
            tok, exp_ids, w = tok[order], exp_ids[order], w[order]
            counts = torch.bincount(exp_ids, minlength=E).tolist()
            if col is not None:
                col._begin(1)
            xs = x[tok]
            outs = []
            start = 0
            for e, n in enumerate(counts):
                if n:
                    h = torch.relu(xs[start:start + n] @ self.w1[layer * E + e]) @ self.w2[layer * E + e]
                    outs.append(h)
                start += n
            y = torch.cat(outs) * w.unsqueeze(1)
            if col is not None:
                col._end(1)
            x = x + torch.zeros_like(x).index_add(0, tok, y)
        return x


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def run_round(model, opt, steps, tokens, cf, col, step0, hidden=H, device=torch.device("cpu")):
    times = []
    for s in range(steps):
        log = []
        sync(device)
        t0 = time.perf_counter()
        if col is not None:
            col.step_begin()
        x = torch.randn(tokens, hidden, device=device)
        loss = model(x, cf, col, log).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        if col is not None:
            col.step_end(step0 + s)
        sync(device)  # the step's wall time includes the GPU's work
        times.append(time.perf_counter() - t0)
    return times, log


def collector_alone(col, log, reps, step0, device=torch.device("cpu")):
    """The collector's calls of one step, on that step's routing, alone."""
    ts = []
    for r in range(reps):
        sync(device)
        t0 = time.perf_counter()
        col.step_begin()
        for layer, idx, cap in log:
            col.record_routing(layer, topk_indices=idx, capacity=cap)
            col._begin(1)
            col._end(1)
        col.step_end(step0 + r)
        sync(device)
        ts.append(time.perf_counter() - t0)
    return ts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=30, help="steps per variant, alternating")
    ap.add_argument("--tokens", type=int, default=512)
    ap.add_argument("--capacity-factor", type=float, default=1.25)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu", help="cpu or cuda")
    ap.add_argument("--hidden", type=int, default=H)
    ap.add_argument("--ffn", type=int, default=FFN)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    dev = torch.device(a.device)
    model = MoEStack(a.hidden, a.ffn, dev)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    rr = dict(hidden=a.hidden, device=dev)
    with tempfile.TemporaryDirectory() as d:
        col = Collector(d, num_experts=E, topk=K, moe_layers=LAYERS)
        run_round(model, opt, 2, a.tokens, a.capacity_factor, None, 1, **rr)  # warm-up
        run_round(model, opt, 2, a.tokens, a.capacity_factor, col, 1, **rr)
        base, with_col = [], []
        step = 100
        for _ in range(a.pairs):
            t, _ = run_round(model, opt, 1, a.tokens, a.capacity_factor, None, step, **rr)
            base += t
            t, log = run_round(model, opt, 1, a.tokens, a.capacity_factor, col, step, **rr)
            with_col += t
            step += 1
        alone = collector_alone(col, log, 50, 10_000, dev)
        clock = col.clock
        col.close()
        lines = sum(1 for _ in open(os.path.join(d, "tokens_per_expert", "rank0.jsonl")))
    mb, mw, ma = statistics.median(base), statistics.median(with_col), statistics.median(alone)
    print(f"model: {E} experts x {LAYERS} MoE layers, top-{K}, capacity factor {a.capacity_factor}, "
          f"hidden {a.hidden}, ffn {a.ffn}, {a.tokens} tokens/step, "
          f"{torch.cuda.get_device_name(dev) if dev.type == 'cuda' else 'CPU'}, {a.threads} thread(s); "
          f"{a.pairs} steps each, alternating; collector clock {clock}")
    print(f"without collector: step min {min(base) * 1e3:.1f} ms, median {mb * 1e3:.1f} ms")
    print(f"with collector:    step min {min(with_col) * 1e3:.1f} ms, median {mw * 1e3:.1f} ms")
    print(f"ratio of medians (with / without): {mw / mb:.4f}  ({(mw / mb - 1) * 100:+.2f} %); "
          f"of minima: {min(with_col) / min(base):.4f}  ({(min(with_col) / min(base) - 1) * 100:+.2f} %)")
    print(f"collector calls alone per step: min {min(alone) * 1e3:.3f} ms, median {ma * 1e3:.3f} ms "
          f"= {ma / mb * 100:.2f} % of the median step, {min(alone) / min(base) * 100:.2f} % of the "
          f"fastest (min/min)")
    print(f"rows written: {lines} tokens-per-expert lines")
    print("load:", os.popen("uptime").read().strip())


if __name__ == "__main__":
    main()
