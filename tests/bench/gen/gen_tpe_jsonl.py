#!/usr/bin/python3
"""Tokens-per-expert JSONL at DeepSeek-V3 size, for the benchmarks (not a test).

Writes the file Megatron-LM's `--save-tokens-per-expert-interval N` writes
(megatron/training/activation_logging.py, ActivationLogger.save_tpe, Megatron-Core
core_v0.18.0 and later; docs/formats.md, "Megatron tokens per expert"): one JSON object
per (iteration, decoder layer), in Python's json.dumps layout,

    {"iter": 1, "block": "decoder", "layer": 0, "tpe": [[4012, 3977, ...]]}

with one micro-batch of `--experts` counts per line (the whole expert set: an
expert-parallel size of 1, or the collector's global view). Defaults: DeepSeek-V3's
routing (256 routed experts, top-8, 58 MoE layers) logged every step for 20,000 steps:
296,960,000 counts, about 1.8 GB.

The counts are what a learned router makes, not noise around the mean:
- per-layer skew: each layer has its own spread of expert popularity (log-normal,
  wider in some layers than others);
- a few hot experts: in a third of the layers one to three experts get 2-6 times
  their share;
- step-to-step drift: every expert's popularity follows a mean-reverting random walk
  (AR(1) over steps), and the skew relaxes over the first steps as balancing acts;
- per step the counts sum to tokens x top-k (each token picks top-k experts), drawn
  as Poisson noise around the expected share.

Deterministic for a given --seed. The text is built with numpy in blocks of steps,
no per-count Python: 16-26 MB/s on one core (the full file in one to two minutes), so the
benchmark caches it.

    gen_tpe_jsonl.py OUT.jsonl [--steps 20000] [--layers 58] [--experts 256]
                     [--top-k 8] [--tokens 131072] [--seed 1] [--record RECORD.json]
                     [--scale F]

--tokens is the tokens one line counts (131,072 = 32 sequences of 4,096: 4,096
assignments per expert on average, so four- and five-digit counts, as in the issue's
1.8 GB figure). --scale F multiplies --steps (0.1: a tenth of the file). --record writes
a matching config record (moe.experts, moe.top_k, model.moe_layers, the batch) that
`moewb record add` accepts, so the file imports as one run.
"""

import argparse
import json
import sys
import time

import numpy as np

DIGITS = 10  # counts < 10^10 (the importer refuses counts >= 2^32 anyway)


def digit_matrix(values, width):
    """values (N,) non-negative ints -> (N, width) ASCII digits and a mask that keeps
    the significant ones (at least the last)."""
    v = values.astype(np.int64)
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    d = (v[:, None] // powers[None, :]) % 10
    significant = v[:, None] >= powers[None, :]
    significant[:, -1] = True
    d += ord("0")
    return d.astype(np.uint8), significant


def encode_block(iters, layers, counts):
    """Rows of (iter, layer, counts[E]) -> the JSONL bytes, built column-wise: each row
    is a fixed-width byte matrix with a keep-mask; the kept bytes in order are the text."""
    rows, experts = counts.shape
    pre1 = np.frombuffer(b'{"iter": ', np.uint8)
    pre2 = np.frombuffer(b', "block": "decoder", "layer": ', np.uint8)
    pre3 = np.frombuffer(b', "tpe": [[', np.uint8)
    sep = np.frombuffer(b", ", np.uint8)
    end = np.frombuffer(b"]]}\n", np.uint8)
    it_d, it_m = digit_matrix(iters, 10)
    ly_d, ly_m = digit_matrix(layers, 6)
    cw = max(1, int(counts.max()).bit_length() * 3 // 10 + 1)  # enough digits for the block's max
    cw = min(cw, DIGITS)
    c_d, c_m = digit_matrix(counts.reshape(-1), cw)
    c_d = c_d.reshape(rows, experts, cw)
    c_m = c_m.reshape(rows, experts, cw)
    # counts with their separators: (rows, experts, cw + 2); the last separator slot of
    # the last count is dropped and the line end appended instead.
    body = np.empty((rows, experts, cw + 2), np.uint8)
    body_m = np.empty((rows, experts, cw + 2), bool)
    body[:, :, :cw] = c_d
    body_m[:, :, :cw] = c_m
    body[:, :, cw:] = sep
    body_m[:, :, cw:] = True
    body_m[:, -1, cw:] = False
    parts = [
        (np.broadcast_to(pre1, (rows, pre1.size)), np.ones((rows, pre1.size), bool)),
        (it_d, it_m),
        (np.broadcast_to(pre2, (rows, pre2.size)), np.ones((rows, pre2.size), bool)),
        (ly_d, ly_m),
        (np.broadcast_to(pre3, (rows, pre3.size)), np.ones((rows, pre3.size), bool)),
        (body.reshape(rows, -1), body_m.reshape(rows, -1)),
        (np.broadcast_to(end, (rows, end.size)), np.ones((rows, end.size), bool)),
    ]
    text = np.concatenate([p[0] for p in parts], axis=1)
    mask = np.concatenate([p[1] for p in parts], axis=1)
    return text[mask].tobytes()


class Router:
    """Expected expert shares per (layer, step) with skew, hot experts and drift."""

    def __init__(self, layers, experts, rng):
        self.rng = rng
        self.layers, self.experts = layers, experts
        # per-layer skew: the spread of log-popularity, 0.15 .. 0.55
        spread = rng.uniform(0.15, 0.55, size=(layers, 1))
        self.base = rng.standard_normal((layers, experts)) * spread
        # a few hot experts: a third of the layers, one to three experts each
        for layer in range(layers):
            if rng.random() < 1 / 3:
                hot = rng.choice(experts, size=rng.integers(1, 4), replace=False)
                self.base[layer, hot] += np.log(rng.uniform(2.0, 6.0, size=hot.size))
        self.walk = np.zeros((layers, experts))
        self.rho = 0.995  # AR(1): drift over a few hundred steps
        self.sigma = 0.12  # stationary spread of the drift

    def shares(self, step):
        # mean-reverting random walk, the skew relaxing over the first 2,000 steps
        noise = self.rng.standard_normal((self.layers, self.experts))
        self.walk = self.rho * self.walk + np.sqrt(1 - self.rho**2) * self.sigma * noise
        relax = 0.55 + 0.45 * np.exp(-step / 2000.0)
        logits = self.base * relax + self.walk
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True)


def counts_for(shares, assignments, tokens, rng):
    """Poisson counts around the shares, summing to `assignments` per row, each at most
    `tokens` (a token picks an expert once)."""
    c = rng.poisson(shares * assignments)
    c = np.minimum(c, tokens)
    diff = assignments - c.sum(axis=1)
    # put the rounding difference on each row's largest expert (kept within 0..tokens)
    top = c.argmax(axis=1)
    rows = np.arange(c.shape[0])
    c[rows, top] = np.clip(c[rows, top] + diff, 0, tokens)
    return c


def record_for(args):
    """A config record matching the generated run (DeepSeek-V3's MoE, this batch)."""
    sequences = max(1, args.tokens // 4096)
    seq_len = args.tokens // sequences
    ep = 8 if args.experts % 8 == 0 else 1
    dp = 8 if sequences % 8 == 0 else 1
    if dp % ep:
        ep = 1
    return {
        "format_version": 1,
        "name": "deepseek-v3-bench",
        "notes": "Benchmark run shaped like DeepSeek-V3's routing (tests/bench/gen/gen_tpe_jsonl.py).",
        "cluster": {
            "nodes": 1,
            "accelerators_per_node": dp,
            "accelerator_model": "H800 80GB",
            "network_type": "NVLink",
            "topology": {
                "description": "one node",
                "intra_node_link": "NVLink via NVSwitch",
                "inter_node_fabric": "none",
                "rail_optimized": False,
            },
        },
        "moe": {
            "experts": args.experts,
            "shared_experts": 1,
            "top_k": args.top_k,
            "capacity_factor": "none",
            "overflow_policy": "dropless",
            "load_balancing": {"method": "aux_loss_free_bias", "update_rate": 0.001},
            "router_score_function": "sigmoid",
        },
        "model": {
            "kind": "moe",
            "total_params": 671000000000,
            "activated_params": 37000000000,
            "layers": args.layers + 3,
            "moe_layers": args.layers,
            "hidden_size": 7168,
            "ffn_hidden_size": 2048,
        },
        "parallelism": {"dp": dp, "tp": 1, "pp": 1, "ep": ep, "cp": 1},
        "batch": {"global_batch_tokens": sequences * seq_len, "sequence_length": seq_len},
        "throughput": {"data_loading_included": False, "warmup_steps_excluded": 20},
        "recipe": {
            "optimizer": "AdamW beta1=0.9 beta2=0.95 weight_decay=0.1",
            "lr_schedule": "2000 warm-up steps to 2.2e-4, constant, cosine to 2.2e-5",
            "tokens_trained": args.tokens * args.steps,
            "validation_set": "held-out",
        },
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--layers", type=int, default=58)
    ap.add_argument("--experts", type=int, default=256)
    ap.add_argument("--top-k", type=int, default=8)
    ap.add_argument("--tokens", type=int, default=131072)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--record")
    args = ap.parse_args()
    args.steps = max(1, int(round(args.steps * args.scale)))
    if not (1 <= args.top_k <= args.experts) or args.layers < 1 or args.tokens < 1:
        sys.exit("gen_tpe_jsonl.py: need 1 <= top-k <= experts, layers >= 1, tokens >= 1")

    rng = np.random.default_rng(args.seed)
    router = Router(args.layers, args.experts, rng)
    assignments = args.tokens * args.top_k
    block_steps = max(1, 400000 // (args.layers * args.experts) or 1)
    written = 0
    t0 = time.perf_counter()
    layer_ids = np.arange(args.layers)
    with open(args.out, "wb") as f:
        for first in range(1, args.steps + 1, block_steps):
            last = min(args.steps, first + block_steps - 1)
            n = last - first + 1
            counts = np.empty((n, args.layers, args.experts), np.int64)
            for i in range(n):
                counts[i] = counts_for(router.shares(first + i), assignments, args.tokens, rng)
            iters = np.repeat(np.arange(first, last + 1), args.layers)
            layers = np.tile(layer_ids, n)
            chunk = encode_block(iters, layers, counts.reshape(n * args.layers, args.experts))
            f.write(chunk)
            written += len(chunk)
    seconds = time.perf_counter() - t0
    if args.record:
        with open(args.record, "w") as f:
            json.dump(record_for(args), f, indent=2)
            f.write("\n")
    counts_total = args.steps * args.layers * args.experts
    print(
        f"{args.out}: {args.steps} steps x {args.layers} layers x {args.experts} experts = "
        f"{counts_total} counts, {written} bytes, {seconds:.1f} s ({written / 1e6 / max(seconds, 1e-9):.0f} MB/s)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
