"""The Collector: counts each MoE layer's routing and times a rank's step.

It runs inside the training, on every rank, and writes per rank (docs/collect.md):

  OUT/tokens_per_expert/rank{N}.jsonl  Megatron-LM's tokens-per-expert JSONL, with the
                                       counts over ALL experts ("experts_scope": "all")
  OUT/moewb_collect/rank{N}.jsonl      the sidecar, format "moewb-collect/1": dropped
                                       tokens / assignments per (step, layer), step timing

Nothing here blocks the training on I/O: a step's rows go into a bounded queue and a
background thread encodes and writes them. On a GPU nothing waits for the device either:
the step's counts are copied to pinned host memory without blocking and the CUDA events
are read by that thread, so the training's stream is never synchronised by the collector. A write that fails (a full disk, a file-size
limit, any OSError) stops collecting with one warning; the training goes on.
Standard library + torch only.
"""

import atexit
import collections
import json
import os
import queue
import threading
import time
import warnings

import torch

FORMAT = "moewb-collect/1"
FRAMEWORKS = ("generic", "megatron-core", "torchtitan", "deepspeed", "huggingface")
DROP_POLICIES = ("position", "probs")

_A2A = 0
_COMPUTE = 1


def capacity_from_factor(num_tokens, num_experts, topk, capacity_factor, min_capacity=None):
    """Expert capacity as Megatron-Core computes it for token dropping.

    megatron/core/transformer/moe/moe_utils.py, apply_router_token_dropping calls
    get_capacity(num_tokens * topk, num_experts, capacity_factor) =
    ceil(num_tokens * topk / num_experts * capacity_factor) (then min_capacity).
    """
    import math

    cap = math.ceil((num_tokens * topk / num_experts) * capacity_factor)
    if min_capacity is not None and cap < min_capacity:
        cap = min_capacity
    return cap


def routing_stats(num_experts, topk, *, topk_indices=None, routing_map=None,
                  kept_map=None, capacity=None, probs=None, drop_policy="position"):
    """One router decision -> (counts [E] int64 tensor, tokens, dropped_tokens).

    counts: assignments kept per expert; tokens: int (T, from the shape);
    dropped_tokens: a 0-d int64 tensor (tokens that lost all their assignments) or the
    int 0 when nothing can have been dropped. All tensor work stays on the input's
    device (no host synchronisation); assignments dropped = T * topk - counts.sum().

    Drops (see docs/collect.md):
      kept_map given       -> kept = kept_map (the framework already dropped)
      capacity given       -> Megatron-Core's apply_router_token_dropping with that
                              capacity per expert: drop_policy "position" keeps, per
                              expert, the first `capacity` assignments in token order;
                              "probs" keeps the `capacity` assignments of highest
                              probability (torch.topk over the tokens, as Megatron does;
                              needs probs)
      neither              -> nothing dropped
    """
    E = int(num_experts)
    if kept_map is not None:
        kept = kept_map if kept_map.dtype == torch.bool else kept_map.bool()
        if kept.dim() != 2 or kept.shape[1] != E:
            raise ValueError(f"kept_map must be [tokens, {E}], got {tuple(kept.shape)}")
        counts = kept.sum(0)
        dropped = (~kept.any(1)).sum()
        return counts, int(kept.shape[0]), dropped

    if topk_indices is None and routing_map is None:
        raise ValueError("record_routing needs topk_indices, routing_map or kept_map")

    if topk_indices is not None:
        idx = topk_indices
        if idx.dim() == 1:
            idx = idx.reshape(-1, 1)
        if idx.dim() != 2:
            raise ValueError(f"topk_indices must be [tokens, k], got {tuple(idx.shape)}")
        T = int(idx.shape[0])
        idx = idx.long()
        if capacity is None:
            # the cheap path: a scatter-add of ones, no [T, E] map, no host sync
            flat = idx.reshape(-1)
            counts = torch.zeros(E, dtype=torch.int64, device=flat.device)
            counts.index_add_(0, flat, torch.ones(1, dtype=torch.int64, device=flat.device)
                              .expand(flat.numel()))
            return counts, T, 0
        rmap = torch.zeros((T, E), dtype=torch.bool, device=idx.device)
        rmap.scatter_(1, idx, True)
    else:
        rmap = routing_map if routing_map.dtype == torch.bool else routing_map.bool()
        if rmap.dim() != 2 or rmap.shape[1] != E:
            raise ValueError(f"routing_map must be [tokens, {E}], got {tuple(rmap.shape)}")
        T = int(rmap.shape[0])
        if capacity is None:
            return rmap.sum(0), T, (~rmap.any(1)).sum()

    cap = int(capacity)
    if cap < 0:
        raise ValueError(f"capacity must be >= 0, got {capacity}")
    if cap >= T:
        kept = rmap  # no expert can receive more than T tokens
    elif drop_policy == "position":
        # per expert, the running count of its assignments in token order
        kept = rmap & (rmap.cumsum(0) <= cap)
    elif drop_policy == "probs":
        if probs is None:
            raise ValueError('drop_policy "probs" needs probs=')
        p = probs
        if p.dim() == 2 and p.shape[1] != E and topk_indices is not None \
                and p.shape == topk_indices.shape:
            p = torch.zeros((T, E), dtype=probs.dtype, device=probs.device) \
                .scatter(1, topk_indices.long(), probs)
        if p.shape != (T, E):
            raise ValueError(f"probs must be [tokens, {E}] or [tokens, k], got {tuple(probs.shape)}")
        p = p.detach() * rmap
        if cap == 0:
            kept = torch.zeros_like(rmap)
        else:
            _, sel = torch.topk(p, k=cap, dim=0, sorted=False)
            mask = torch.zeros_like(rmap).scatter_(0, sel, True)
            kept = rmap & mask
    else:
        raise ValueError(f"drop_policy must be one of {DROP_POLICIES}, got {drop_policy!r}")
    return kept.sum(0), T, (~kept.any(1)).sum()


class _Span:
    """Reusable context manager: the time inside it counts for one kind."""

    __slots__ = ("_col", "_kind")

    def __init__(self, col, kind):
        self._col = col
        self._kind = kind

    def __enter__(self):
        self._col._begin(self._kind)
        return self

    def __exit__(self, exc_type, exc, tb):
        self._col._end(self._kind)
        return False


class Collector:
    """Per-rank collector of routing counts, drops and step timings.

    col = Collector(out_dir, num_experts=E, topk=K, moe_layers=L, every=1,
                    framework="generic", rank=None, world=None)
    Optional keywords beyond the shared interface: drop_policy ("position" |
    "probs", for record_routing(capacity=...)), clock ("auto" | "monotonic" |
    "cuda-events"), max_pending (steps queued for the writer before rows are lost).
    """

    def __init__(self, out_dir, *, num_experts, topk, moe_layers, every=1,
                 framework="generic", rank=None, world=None, drop_policy="position",
                 clock="auto", max_pending=256):
        if int(num_experts) < 1 or int(topk) < 1 or int(topk) > int(num_experts):
            raise ValueError(f"need 1 <= topk <= num_experts, got topk={topk} num_experts={num_experts}")
        if int(moe_layers) < 1:
            raise ValueError(f"moe_layers must be >= 1, got {moe_layers}")
        if int(every) < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        if framework not in FRAMEWORKS:
            raise ValueError(f"framework must be one of {FRAMEWORKS}, got {framework!r}")
        if drop_policy not in DROP_POLICIES:
            raise ValueError(f"drop_policy must be one of {DROP_POLICIES}, got {drop_policy!r}")
        if clock not in ("auto", "monotonic", "cuda-events"):
            raise ValueError(f"clock must be auto, monotonic or cuda-events, got {clock!r}")
        self.out_dir = os.fspath(out_dir)
        self.num_experts = int(num_experts)
        self.topk = int(topk)
        self.moe_layers = int(moe_layers)
        self.every = int(every)
        self.framework = framework
        self.drop_policy = drop_policy
        self.rank = rank
        self.world = world
        self._clock_req = clock
        self.clock = None  # decided at the first step
        self.lost_steps = 0  # steps whose rows were lost to a full queue
        self.stopped = False  # set when a write failed: collecting is over
        self.closed = False

        E = self.num_experts
        # accumulators: one row per layer [E counts, dropped tokens]; tokens per layer
        # in Python (known from shapes) and, for adapters that count on the device,
        # in a second tensor column
        self._rows = {}  # layer -> row index
        self._acc = None  # tensor [rows, E + 2]: counts, dropped tokens, tokens (device)
        self._tok = []  # tokens per row known on the host
        self._seen = []  # row recorded in this step
        self._pending = {}  # router calls of this step, by shape, counted at step_end
        self._n_pending = 0
        self._pending_bytes = 0
        self._pending_limit = 32 << 20  # router outputs held until step_end, at most
        self._rows_cache = {}
        self._E = E

        self._spans = (_Span(self, _A2A), _Span(self, _COMPUTE))
        self._depth = [0, 0]
        self._t_open = [0.0, 0.0]
        self._t_sum = [0.0, 0.0]
        self._used = [False, False]
        self._ev_open = [None, None]
        self._ev_pairs = ([], [])
        self._ev_pool = collections.deque()  # events free for reuse (the writer returns them)
        self._pinned_pool = collections.deque()  # pinned host copies of the accumulator
        self._step_t0 = None
        self._step_ev0 = None
        self._last_end = time.perf_counter()
        self._pre_step_end = []  # adapter callbacks run first in step_end

        self._queue = queue.Queue(maxsize=max(1, int(max_pending)))
        self._thread = None
        self._warned = set()
        self._warn_lock = threading.Lock()
        atexit.register(self.close)

    # ----------------------------------------------------------------- routing

    def record_routing(self, layer, *, topk_indices=None, routing_map=None, kept_map=None,
                       capacity=None, probs=None, drop_policy=None):
        """This rank's router decision for one MoE layer in this step (summed over calls).

        Only shapes are checked here; the tensors are kept (references, no copy) and
        counted at step_end, all calls of one shape in one batch of tensor ops -- the
        same result as routing_stats() per call."""
        if self.stopped or self.closed:
            return
        policy = drop_policy or self.drop_policy
        if policy not in DROP_POLICIES:
            raise ValueError(f"drop_policy must be one of {DROP_POLICIES}, got {policy!r}")
        E = self._E
        if kept_map is not None:
            kind, t, cap = "map", kept_map, None
        elif topk_indices is not None:
            t = topk_indices.reshape(-1, 1) if topk_indices.dim() == 1 else topk_indices
            if t.dim() != 2:
                raise ValueError(f"topk_indices must be [tokens, k], got {tuple(topk_indices.shape)}")
            kind, cap = "idx", capacity
        elif routing_map is not None:
            kind, t, cap = "map", routing_map, capacity
        else:
            raise ValueError("record_routing needs topk_indices, routing_map or kept_map")
        if kind == "map" and (t.dim() != 2 or t.shape[1] != E):
            raise ValueError(f"routing_map/kept_map must be [tokens, {E}], got {tuple(t.shape)}")
        T = int(t.shape[0])
        if cap is not None:
            cap = int(cap)
            if cap < 0:
                raise ValueError(f"capacity must be >= 0, got {capacity}")
            if cap >= T:
                cap = None  # no expert can receive more than T tokens
        p = None
        if cap is not None and policy == "probs":
            if probs is None:
                raise ValueError('drop_policy "probs" needs probs=')
            if probs.shape != (T, E) and not (kind == "idx" and probs.shape == t.shape):
                raise ValueError(f"probs must be [tokens, {E}] or [tokens, k], got {tuple(probs.shape)}")
            p = probs.detach()
        r = self._row(layer, t.device)
        self._tok[r] += T
        self._seen[r] = True
        key = (kind, tuple(t.shape), cap, policy if cap is not None else None,
               None if p is None else tuple(p.shape), t.device)
        self._pending.setdefault(key, []).append((r, t.detach(), p))
        self._n_pending += 1
        self._pending_bytes += t.numel() * t.element_size()
        if self._n_pending >= 1024 or self._pending_bytes >= self._pending_limit:
            self._count_pending()  # bound what is held until step_end

    def _rows_tensor(self, rows):
        t = self._rows_cache.get(rows)
        if t is None:
            t = torch.tensor(rows, dtype=torch.int64, device=self._acc.device)
            self._rows_cache[rows] = t
        return t

    def _count_pending(self):
        """Count every pending router call into the accumulator, one batch per shape."""
        if not self._pending:
            return
        E = self._E
        acc = self._acc
        with torch.no_grad():
            for (kind, _shape, cap, policy, _pshape, _dev), items in self._pending.items():
                rows = self._rows_tensor(tuple(it[0] for it in items))
                ts = torch.stack([it[1] for it in items])
                if ts.device != acc.device:
                    ts = ts.to(acc.device)
                N = ts.shape[0]
                if kind == "idx" and cap is None:
                    # a scatter-add of ones straight into the accumulator rows
                    flat = (ts.long() + (rows * (E + 2)).view(N, 1, 1)).view(-1)
                    acc.view(-1).index_add_(0, flat, torch.ones(1, dtype=torch.int64,
                                                                device=acc.device).expand(flat.numel()))
                    continue
                if kind == "idx" and policy == "position":
                    # per assignment its position among its expert's assignments in token
                    # order: a stable sort of the [N, T*k] experts, no [T, E] map
                    T, k = ts.shape[1], ts.shape[2]
                    flat = ts.long().reshape(N, T * k)
                    demand = torch.zeros((N, E), dtype=torch.int64, device=acc.device)
                    demand.scatter_add_(1, flat, torch.ones(1, dtype=torch.int64,
                                                            device=acc.device).expand(N, T * k))
                    sorted_e, order = torch.sort(flat, dim=1, stable=True)
                    starts = demand.cumsum(1) - demand
                    pos_sorted = torch.arange(T * k, device=acc.device).expand(N, T * k) \
                        - starts.gather(1, sorted_e)
                    pos = torch.empty_like(pos_sorted).scatter_(1, order, pos_sorted)
                    dropped = (pos >= cap).view(N, T, k).all(2).sum(1)
                    src = torch.cat([demand.clamp(max=cap), dropped.view(N, 1),
                                     torch.zeros((N, 1), dtype=torch.int64, device=acc.device)], 1)
                    acc.index_add_(0, rows, src)
                    continue
                if kind == "idx":
                    idx = ts.long()
                    rmap = torch.zeros((N, ts.shape[1], E), dtype=torch.bool, device=acc.device)
                    rmap.scatter_(2, idx, True)
                else:
                    rmap = ts if ts.dtype == torch.bool else ts.bool()
                if cap is None:
                    kept = rmap
                elif policy == "position":
                    kept = rmap & (rmap.cumsum(1) <= cap)
                else:
                    p = torch.stack([it[2] for it in items]).to(acc.device)
                    if p.shape[-1] != E or (kind == "idx" and p.shape == ts.shape):
                        p = torch.zeros(rmap.shape, dtype=p.dtype, device=acc.device) \
                            .scatter(2, ts.long(), p)
                    p = p * rmap
                    if cap == 0:
                        kept = torch.zeros_like(rmap)
                    else:
                        _, sel = torch.topk(p, k=cap, dim=1, sorted=False)
                        kept = rmap & torch.zeros_like(rmap).scatter_(1, sel, True)
                counts = kept.sum(1)
                dropped = (~kept.any(2)).sum(1)
                src = torch.cat([counts, dropped.view(N, 1),
                                 torch.zeros((N, 1), dtype=torch.int64, device=acc.device)], 1)
                acc.index_add_(0, rows, src)
        self._pending.clear()
        self._n_pending = 0
        self._pending_bytes = 0

    def _row(self, layer, device):
        r = self._rows.get(layer)
        if r is None:
            r = len(self._rows)
            self._rows[layer] = r
            self._tok.append(0)
            self._seen.append(False)
            n = max(self.moe_layers, r + 1)
            if self._acc is None:
                self._acc = torch.zeros((n, self._E + 2), dtype=torch.int64, device=device)
            elif r >= self._acc.shape[0]:
                grown = torch.zeros((max(2 * self._acc.shape[0], r + 1), self._E + 2),
                                    dtype=torch.int64, device=self._acc.device)
                grown[: self._acc.shape[0]] = self._acc
                self._acc = grown
        elif self._acc.device != device and self._acc.device.type == "cpu" and device.type == "cuda":
            self._acc = self._acc.to(device)
            self._rows_cache.clear()
        return r

    def _add(self, layer, counts, tokens, dropped, device_tokens=None):
        layer = int(layer)
        r = self._row(layer, counts.device)
        row = self._acc[r]
        if counts.device != row.device:
            counts = counts.to(row.device, non_blocking=True)
        row[: self._E].add_(counts)
        if isinstance(dropped, torch.Tensor):
            row[self._E].add_(dropped.to(row.device))
        if device_tokens is not None:
            row[self._E + 1].add_(device_tokens.to(row.device))
        self._tok[r] += int(tokens)
        self._seen[r] = True

    # ------------------------------------------------------------------ timing

    def alltoall(self):
        """with col.alltoall(): ... -- an all-to-all (dispatch/combine), waiting included."""
        return self._spans[_A2A]

    def expert_compute(self):
        """with col.expert_compute(): ... -- the expert MLPs on this rank."""
        return self._spans[_COMPUTE]

    def _cuda_clock(self):
        return self.clock == "cuda-events"

    def _event(self):
        try:
            return self._ev_pool.pop()
        except IndexError:
            return torch.cuda.Event(enable_timing=True)

    def _pinned_copy(self):
        """A non-blocking copy of the accumulator into pinned host memory, and the event
        after which it is complete."""
        acc = self._acc
        host = None
        try:
            host = self._pinned_pool.pop()
        except IndexError:
            pass
        if host is None or host.shape != acc.shape:
            host = torch.empty(acc.shape, dtype=acc.dtype, pin_memory=True)
        host.copy_(acc, non_blocking=True)
        ready = self._event()
        ready.record()
        return host, ready

    def _begin(self, kind):
        if self.stopped or self.closed:
            return
        if self.clock is None:
            self._decide_clock()
        d = self._depth[kind]
        self._depth[kind] = d + 1
        if d:
            return
        self._used[kind] = True
        if self._cuda_clock():
            ev = self._event()
            ev.record()
            self._ev_open[kind] = ev
        else:
            self._t_open[kind] = time.perf_counter()

    def _end(self, kind):
        d = self._depth[kind]
        if d <= 0:
            return
        self._depth[kind] = d - 1
        if d > 1:
            return
        if self._cuda_clock():
            start = self._ev_open[kind]
            if start is None:
                return
            ev = self._event()
            ev.record()
            self._ev_pairs[kind].append((start, ev))
            self._ev_open[kind] = None
        else:
            self._t_sum[kind] += time.perf_counter() - self._t_open[kind]

    # ------------------------------------------------------------------- steps

    def _decide_clock(self):
        if self.clock is not None:
            return
        if self._clock_req == "auto":
            use_cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
            self.clock = "cuda-events" if use_cuda else "monotonic"
        else:
            self.clock = self._clock_req

    def step_begin(self):
        """Start of a training step (wall clock)."""
        if self.stopped or self.closed:
            return
        self._decide_clock()
        # time spent between steps (evaluation, logging) belongs to no step
        self._t_sum = [0.0, 0.0]
        self._used = [False, False]
        for pairs in self._ev_pairs:
            for s, e in pairs:
                self._ev_pool.extend((s, e))
            pairs.clear()
        self._step_t0 = time.perf_counter()
        if self._cuda_clock():
            ev = self._event()
            ev.record()
            self._step_ev0 = ev

    def step_end(self, step):
        """End of the step `step` (1-based, as Megatron logs it); queues its rows when
        step % every == 0 and resets the step's counters either way."""
        for cb in list(self._pre_step_end):
            try:
                cb()
            except Exception as exc:  # an adapter's read must never stop the training
                self._warn_once(f"moewb_collect: adapter read failed ({exc!r}); collecting stopped",
                                "read")
                self.stopped = True
        if self.stopped or self.closed:
            self._reset_step()
            return
        self._decide_clock()
        now = time.perf_counter()
        t0 = self._step_t0 if self._step_t0 is not None else self._last_end
        step_s = now - t0
        a2a, comp = self._t_sum
        step = int(step)
        emit = step % self.every == 0
        timing = None
        if self._cuda_clock():
            # the events are read by the writer thread: nothing here waits for the GPU
            end = self._event()
            end.record()
            timing = (self._step_ev0, end, list(self._ev_pairs[_A2A]), list(self._ev_pairs[_COMPUTE]))
            if not emit:
                self._return_events(timing)
                timing = None
        if emit:
            self._count_pending()
            self._emit(step, step_s, a2a if self._used[_A2A] else None,
                       comp if self._used[_COMPUTE] else None, timing)
        self._reset_step()
        self._last_end = time.perf_counter()

    def _return_events(self, timing):
        step_ev0, end, a2a_pairs, comp_pairs = timing
        if step_ev0 is not None:
            self._ev_pool.append(step_ev0)
        self._ev_pool.append(end)
        for s, e in a2a_pairs + comp_pairs:
            self._ev_pool.extend((s, e))

    def _read_timing(self, timing, step_s, a2a_s, compute_s):
        """On the writer thread: the step's CUDA event times, in seconds."""
        step_ev0, end, a2a_pairs, comp_pairs = timing
        end.synchronize()
        if a2a_s is not None:
            a2a_s = sum(s.elapsed_time(e) for s, e in a2a_pairs) / 1000.0
        if compute_s is not None:
            compute_s = sum(s.elapsed_time(e) for s, e in comp_pairs) / 1000.0
        if step_ev0 is not None:
            step_s = step_ev0.elapsed_time(end) / 1000.0
        self._return_events(timing)
        return max(0.0, step_s), a2a_s, compute_s

    def _reset_step(self):
        self._pending.clear()
        self._n_pending = 0
        self._pending_bytes = 0
        self._t_sum = [0.0, 0.0]
        self._used = [False, False]
        self._ev_pairs = ([], [])  # the lists went to the writer with the step's events
        self._step_t0 = None
        self._step_ev0 = None
        if self._acc is not None and any(self._seen):
            self._acc.zero_()
            self._tok = [0] * len(self._tok)
            self._seen = [False] * len(self._seen)

    def _emit(self, step, step_s, a2a_s, compute_s, timing=None):
        layout = []  # (layer, accumulator row, tokens known on the host)
        table = None
        if self._acc is not None and any(self._seen):
            for layer in sorted(self._rows):
                r = self._rows[layer]
                if self._seen[r]:
                    layout.append((layer, r, self._tok[r]))
            if self._acc.is_cuda:
                table = self._pinned_copy()  # read by the writer once the copy is done
            else:
                table = self._acc.tolist()  # the one host copy of this step
        if self.rank is None or self.world is None:
            rank, world = 0, 1
            if torch.distributed.is_available() and torch.distributed.is_initialized():
                rank, world = torch.distributed.get_rank(), torch.distributed.get_world_size()
            self.rank = rank if self.rank is None else self.rank
            self.world = world if self.world is None else self.world
        item = (step, layout, table, max(0.0, step_s),
                None if a2a_s is None else max(0.0, a2a_s),
                None if compute_s is None else max(0.0, compute_s), timing)
        if self._thread is None:
            self._start_writer()
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self.lost_steps += 1
            self._warn_once(f"moewb_collect: the writer is behind ({self._queue.maxsize} steps "
                            "queued); rows of later steps are lost until it catches up", "queue")

    # ------------------------------------------------------------------ writer

    def _header(self):
        return {"format": FORMAT, "rank": int(self.rank), "world": int(self.world),
                "framework": self.framework, "experts": self._E, "topk": self.topk,
                "moe_layers": self.moe_layers, "every": self.every, "clock": self.clock}

    def _start_writer(self):
        self._thread = threading.Thread(target=self._writer, args=(self._header(),),
                                        name="moewb-collect-writer", daemon=True)
        self._thread.start()

    def _warn_once(self, msg, key=None):
        """One warning per kind (key, default the message) for the collector's life."""
        key = msg if key is None else key
        with self._warn_lock:
            if key in self._warned:
                return
            self._warned.add(key)
        try:
            # one line on stderr, the warnings module's filters apply
            warnings.warn_explicit(msg, RuntimeWarning, "moewb_collect", 0, module="moewb_collect")
        except Exception:
            pass

    def _writer(self, header):
        rank = header["rank"]
        K = self.topk
        files = []  # [fd, good_offset, path]
        try:
            paths = (os.path.join(self.out_dir, "tokens_per_expert", f"rank{rank}.jsonl"),
                     os.path.join(self.out_dir, "moewb_collect", f"rank{rank}.jsonl"))
            for p in paths:
                os.makedirs(os.path.dirname(p), exist_ok=True)
                fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                files.append([fd, os.fstat(fd).st_size, p])
            if files[1][1] == 0:
                self._write(files[1], (json.dumps(header, separators=(", ", ": ")) + "\n").encode())
        except OSError as exc:
            self._fail(files, exc)
            return
        while True:
            item = self._queue.get()
            if item is None:
                break
            step, layout, table, step_s, a2a_s, compute_s, timing = item
            if isinstance(table, tuple):  # a pinned copy on its way from the GPU
                host, ready = table
                ready.synchronize()
                table = host.tolist()
                self._pinned_pool.append(host)
                self._ev_pool.append(ready)
            if timing is not None:
                step_s, a2a_s, compute_s = self._read_timing(timing, step_s, a2a_s, compute_s)
            E = self._E
            rows = [(layer, table[r][:E], table[r][E], tok + table[r][E + 1]) for layer, r, tok in layout]
            tpe = []
            side = []
            for layer, counts, dropped, tokens in rows:
                kept = sum(counts)
                tpe.append('{"iter": %d, "block": "decoder", "layer": %d, "tpe": [%s], '
                           '"experts_scope": "all"}\n' % (step, layer, ", ".join(map(str, counts))))
                side.append('{"kind": "drops", "step": %d, "layer": %d, "tokens": %d, '
                            '"assignments": %d, "dropped_tokens": %d, "dropped_assignments": %d}\n'
                            % (step, layer, tokens, tokens * K, dropped, max(0, tokens * K - kept)))
            side.append(json.dumps({"kind": "time", "step": step, "step_s": round(step_s, 9),
                                    "a2a_s": None if a2a_s is None else round(a2a_s, 9),
                                    "compute_s": None if compute_s is None else round(compute_s, 9)},
                                   separators=(", ", ": ")) + "\n")
            try:
                if tpe:
                    self._write(files[0], "".join(tpe).encode())
                self._write(files[1], "".join(side).encode())
            except OSError as exc:
                self._fail(files, exc)
                return
        for f in files:
            try:
                os.close(f[0])
            except OSError:
                pass

    @staticmethod
    def _write(f, data):
        view = memoryview(data)
        while view:
            n = os.write(f[0], view)
            view = view[n:]
        f[1] += len(data)

    def _fail(self, files, exc):
        self.stopped = True
        for fd, good, _ in files:
            try:  # never leave a half-written line behind
                os.ftruncate(fd, good)
            except OSError:
                pass
            try:
                os.close(fd)
            except OSError:
                pass
        self._warn_once(f"moewb_collect: writing under {self.out_dir} failed ({exc}); "
                        "collecting stopped, the training goes on", "write")
        # let close() and the training never wait on a dead writer
        try:
            while True:
                self._queue.get_nowait()
        except queue.Empty:
            pass

    def close(self):
        """Flush the queued rows and close the files (also at exit)."""
        if self.closed:
            return
        self.closed = True
        t = self._thread
        if t is not None and t.is_alive():
            try:
                self._queue.put(None, timeout=30)
            except queue.Full:
                pass
            t.join(timeout=60)
        try:
            atexit.unregister(self.close)
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
