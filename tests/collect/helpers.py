"""Shared by the collector tests: the package on sys.path, brute-force references and
readers of the files the collector writes (docs/collect.md)."""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "remote", "collect"))
sys.path.insert(0, os.path.join(HERE, "standins"))


def brute_force(num_experts, topk, rows, capacity=None, policy="position", probs=None):
    """Plain Python over one router decision. rows: per token, the list of its experts.
    Returns (counts, tokens, dropped_tokens, dropped_assignments).

    Capacity, as the interface states it: per expert, "position" keeps the first
    `capacity` assignments in token order; "probs" the `capacity` of highest
    probability (probs[t][e])."""
    kept = [[True] * len(r) for r in rows]
    if capacity is not None:
        for e in range(num_experts):
            holders = [(t, j) for t, r in enumerate(rows) for j, x in enumerate(r) if x == e]
            if policy == "probs":
                holders.sort(key=lambda tj: -probs[tj[0]][e])
            for n, (t, j) in enumerate(holders):
                if n >= capacity:
                    kept[t][j] = False
    counts = [0] * num_experts
    dropped_tokens = 0
    kept_total = 0
    for t, r in enumerate(rows):
        k = 0
        for j, x in enumerate(r):
            if kept[t][j]:
                counts[x] += 1
                k += 1
        kept_total += k
        if k == 0:
            dropped_tokens += 1
    return counts, len(rows), dropped_tokens, len(rows) * topk - kept_total


def megatron_capacity(tokens, experts, topk, factor):
    """ceil(tokens * topk / experts * factor), written out here independently."""
    return int(math.ceil(tokens * topk / experts * factor))


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text == "" or text.endswith("\n"), f"{path}: last line not complete"
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def read_outputs(out_dir, rank=0):
    """(tpe {(step, layer): counts}, header, drops {(step, layer): row}, times {step: row})"""
    tpe = {}
    for o in read_jsonl(os.path.join(out_dir, "tokens_per_expert", f"rank{rank}.jsonl")):
        assert o["experts_scope"] == "all" and o["block"] == "decoder"
        key = (o["iter"], o["layer"])
        assert key not in tpe
        tpe[key] = o["tpe"]
    side = read_jsonl(os.path.join(out_dir, "moewb_collect", f"rank{rank}.jsonl"))
    header = side[0]
    drops = {}
    times = {}
    for o in side[1:]:
        if o["kind"] == "drops":
            drops[(o["step"], o["layer"])] = o
        elif o["kind"] == "time":
            times[o["step"]] = o
        else:
            raise AssertionError(f"unknown kind {o}")
    return tpe, header, drops, times
