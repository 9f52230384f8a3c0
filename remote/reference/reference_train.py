#!/usr/bin/python3
"""The reference training of `moewb reference`: a tiny byte-level language model trained on
this computer's CPU by --world processes (torch.distributed, gloo, 127.0.0.1), dense or MoE
with real expert parallelism, measured by the moewb_collect collector. docs/reference.md.

    reference_train.py --out DIR --variant dense|moe-cf1.0|moe-cf1.25|moe-dropless
                       [--quick] [--world 4] [--seed 1] [--collect-path PATH] [--no-profile]

Writes DIR/train.log (Megatron-LM console lines), DIR/record.json (config record), for
the MoE variants DIR/tokens_per_expert/ and DIR/moewb_collect/ (the collector's files), and
unless --no-profile DIR/torch_profile/rank-{R}.json: every rank's PyTorch profiler trace of
three training steps (ProfilerStep#N = the iteration N of train.log; see PROFILE_ACTIVE).
Prints `progress <0..1> <text>` lines on stdout; exits 0, or non-zero with one line on
stderr. SIGTERM / SIGINT end every process it started within 2 s.

Runs with /usr/bin/python3 (Debian's python3-torch 1.13). The launcher part (this process)
imports no torch; each rank is this script again with --worker.
"""

import argparse
import datetime
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("dense", "moe-cf1.0", "moe-cf1.25", "moe-dropless")
OUTPUTS = ("train.log", "record.json", "tokens_per_expert", "moewb_collect", "torch_profile")

# Everything that defines the training, the same for every variant (stage 2 compares them):
# the model's dense parts, tokens per step, sequence length, optimizer, schedule, steps, seed
# and validation slice. The dense FFN's hidden size is top_k x the expert's, so that a token
# passes through as many FFN parameters in the dense model as in the MoE (matched activated
# parameters).
MODEL = {
    "d_model": 64,
    "heads": 4,
    "layers": 2,
    "moe_layer_ids": [0, 1],      # every FFN is an MoE layer in the MoE variants
    "seq_len": 64,
    "expert_hidden": 128,
    "experts": 8,
    "top_k": 2,
}
MODEL["dense_hidden"] = MODEL["top_k"] * MODEL["expert_hidden"]
TRAIN = {
    "micro_batch": 8,             # sequences per process and step (no gradient accumulation)
    "peak_lr": 6e-3,
    "min_lr": 6e-4,
    "betas": (0.9, 0.95),
    "eps": 1e-8,
    "weight_decay": 0.1,
    "grad_clip": 1.0,
    "aux_loss_coeff": 0.01,
}
SCHEDULES = {
    # steps, lr warm-up steps, warm-up steps left out of throughput, validation interval,
    # first profiled iteration (past the LR warm-up, clear of the validation steps)
    "quick": {"steps": 100, "lr_warmup": 10, "excluded": 5, "eval_interval": 25, "profile_first": 20},
    "full": {"steps": 600, "lr_warmup": 50, "excluded": 10, "eval_interval": 100, "profile_first": 60},
}
# The PyTorch profiler (torch.profiler, CPU activity; this torch has no Kineto, so the
# trace is the legacy list of events): iterations profile_first .. profile_first + 2 are
# recorded, the one before them is the profiler's warm-up, and each rank writes
# DIR/torch_profile/rank-{R}.json, Megatron-LM's folder and file name
# (megatron/training/training.py: {tensorboard_dir}/../torch_profile/rank-{R}.json.gz;
# here not gzipped).
PROFILE_ACTIVE = 3
VALIDATION_WINDOWS = 256          # fixed windows of the held-out slice, every variant the same


class UsageError(Exception):
    pass


def variant_moe(variant):
    """(capacity_factor or None for dropless) of an MoE variant; None for dense."""
    return {"moe-cf1.0": (1.0,), "moe-cf1.25": (1.25,), "moe-dropless": (None,)}.get(variant)


# ---------------------------------------------------------------------------------------
# The launcher (no torch)
# ---------------------------------------------------------------------------------------

def progress(fraction, text):
    sys.stdout.write("progress %.3f %s\n" % (max(0.0, min(1.0, fraction)), text))
    sys.stdout.flush()


def last_line(path):
    try:
        with open(path, "r", errors="replace") as f:
            lines = [l.strip() for l in f.read().splitlines() if l.strip()]
    except OSError:
        return ""
    for l in reversed(lines):
        if l.startswith("reference_train:"):
            return l
    return lines[-1] if lines else ""


def launch(args):
    if args.world < 1 or args.world > 64:
        raise UsageError("--world must be between 1 and 64, got %d" % args.world)
    if variant_moe(args.variant) is not None and MODEL["experts"] % args.world != 0:
        raise UsageError("--world must divide the %d experts, got %d" % (MODEL["experts"], args.world))
    collect_path = os.path.abspath(args.collect_path or os.path.join(HERE, "..", "collect"))
    if variant_moe(args.variant) is not None and not os.path.isdir(os.path.join(collect_path, "moewb_collect")):
        raise UsageError("no moewb_collect package in %s (give --collect-path)" % collect_path)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    taken = [n for n in OUTPUTS if os.path.lexists(os.path.join(out, n))]
    if taken:
        raise UsageError("%s already holds %s of an earlier run; give an empty or new folder"
                         % (out, ", ".join(taken)))
    # Everything is written into a hidden folder inside DIR and moved into place when every
    # process has succeeded: a failed or cancelled run leaves nothing half-written.
    work = tempfile.mkdtemp(prefix=".reference-", dir=out)
    procs = []
    state = {"signal": None}

    def stop_all(grace):
        for p in procs:
            if p.poll() is None:
                try:
                    p.terminate()
                except OSError:
                    pass
        deadline = time.monotonic() + grace
        for p in procs:
            left = deadline - time.monotonic()
            try:
                p.wait(timeout=max(0.0, left))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()

    def on_signal(signum, _frame):
        state["signal"] = signum
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        # Rendezvous through a file in the private work folder (torch's FileStore), and gloo's
        # connections on the loopback interface only: nothing listens on the network, and
        # there is no port to race for.
        env = dict(os.environ)
        env.update({"GLOO_SOCKET_IFNAME": "lo", "WORLD_SIZE": str(args.world),
                    "OMP_NUM_THREADS": "1", "PYTHONDONTWRITEBYTECODE": "1"})
        rendezvous = os.path.join(work, ".rendezvous")
        logs = []
        for rank in range(args.world):
            err = os.path.join(work, ".stderr-rank%d" % rank)
            logs.append(err)
            cmd = [sys.executable, os.path.abspath(__file__), "--worker", "--rank", str(rank),
                   "--out", work, "--variant", args.variant, "--world", str(args.world),
                   "--seed", str(args.seed), "--collect-path", collect_path, "--rendezvous", rendezvous]
            if args.quick:
                cmd.append("--quick")
            if args.no_profile:
                cmd.append("--no-profile")
            with open(err, "wb") as ef:
                procs.append(subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                              stdout=None if rank == 0 else subprocess.DEVNULL,
                                              stderr=ef, env=env))
        progress(0.0, "starting %d processes (%s)" % (args.world, args.variant))
        failed = None
        while True:
            running = [p for p in procs if p.poll() is None]
            bad = [(i, p) for i, p in enumerate(procs) if p.poll() not in (None, 0)]
            if bad:
                failed = bad[0]
                break
            if not running:
                break
            time.sleep(0.05)
        if failed is not None:
            # One rank's failure makes its peers fail too ("Connection closed by peer"):
            # name the rank whose error is not about a lost peer, else the first one.
            time.sleep(0.3)
            codes = [p.poll() for p in procs]  # before stop_all ends the others
            stop_all(1.0)
            reasons = []
            for rank, code in enumerate(codes):
                if code is not None and code < 0:
                    reasons.append((rank, "ended by signal %d" % -code))
                elif code:
                    why = last_line(logs[rank]) or ("exit status %d" % code)
                    if why.startswith("reference_train: "):
                        why = why[len("reference_train: "):]
                    reasons.append((rank, why))
            lost_peer = ("closed by peer", "connection reset", "timed out", "timeout", "broken pipe")
            cause = next((r for r in reasons if not any(w in r[1].lower() for w in lost_peer)), reasons[0])
            raise RuntimeError("rank %d failed: %s" % cause)
        # Every rank succeeded: the outputs are moved in whole (a signal now would cut the
        # moves in half, and they take milliseconds).
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for name in OUTPUTS:
            src = os.path.join(work, name)
            if os.path.lexists(src):
                os.rename(src, os.path.join(out, name))
        progress(1.0, "done: %s" % out)
        return 0
    except KeyboardInterrupt:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the clean-up
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop_all(1.5)
        name = {signal.SIGTERM: "SIGTERM", signal.SIGINT: "SIGINT"}.get(state["signal"], "interrupt")
        sys.stderr.write("reference_train: cancelled (%s); nothing written to %s\n" % (name, out))
        return 128 + (state["signal"] or signal.SIGINT)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        stop_all(1.0)
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------------------
# One rank (torch)
# ---------------------------------------------------------------------------------------

def die_with_parent():
    """The ranks end when the launcher ends, even if it was killed (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        os._exit(1)


def lr_at(step, sched):
    """Linear warm-up to the peak, then cosine down to min_lr at the last step."""
    peak, low = TRAIN["peak_lr"], TRAIN["min_lr"]
    if step <= sched["lr_warmup"]:
        return peak * step / sched["lr_warmup"]
    frac = (step - sched["lr_warmup"]) / max(1, sched["steps"] - sched["lr_warmup"])
    return low + 0.5 * (peak - low) * (1 + math.cos(math.pi * min(1.0, frac)))


def megatron_time():
    t = time.time()
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + ".%06d" % int((t % 1) * 1e6)


def count_params(model, world, moe):
    """(total, activated) over the whole model: the dense parts once, every expert of every
    rank, and per token the dense parts plus top_k experts per MoE layer."""
    dense = sum(p.numel() for p in model.parameters() if not getattr(p, "is_expert", False))
    if moe is None:
        return dense, dense
    per_expert = MODEL["d_model"] * MODEL["expert_hidden"] * 2
    moe_layers = len(MODEL["moe_layer_ids"])
    total = dense + moe_layers * MODEL["experts"] * per_expert
    activated = dense + moe_layers * MODEL["top_k"] * per_expert
    return total, activated


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def build_record(args, sched, total, activated, corpus, variant):
    moe = variant_moe(variant)
    steps = sched["steps"]
    batch_tokens = TRAIN["micro_batch"] * args.world * MODEL["seq_len"]
    validation_id = "common-licenses-last10pct-%s" % corpus["sha256"][:12]
    record = {
        "format_version": 1,
        "name": "reference-%s%s" % (variant, "-quick" if args.quick else ""),
        "notes": ("Measured on this computer: CPU, gloo, tiny model - the method is real, the scale is not. "
                  "Byte-level LM trained by %d processes (torch.distributed gloo over 127.0.0.1) on %s "
                  "(Debian base-files%s; %d regular files in sorted order, symbolic links left out: %s), "
                  "%d bytes, sha256 %s; the last %d bytes held out for validation. Variant %s, seed %d, "
                  "%d steps%s. Written by remote/reference/reference_train.py."
                  % (args.world, corpus["directory"],
                     " " + corpus["base_files_version"] if corpus["base_files_version"] else "",
                     len(corpus["files"]), ", ".join(corpus["files"]), corpus["bytes"], corpus["sha256"],
                     corpus["validation_bytes"], variant, args.seed, steps, " (--quick)" if args.quick else "")),
        "cluster": {
            "nodes": 1,
            "accelerators_per_node": args.world,
            "accelerator_model": "CPU process, 1 thread (%s)" % cpu_model(),
            "network_type": "gloo over TCP loopback",
            "topology": {
                "description": "one computer, %d processes (one per rank) sharing its CPU cores" % args.world,
                "intra_node_link": "TCP over the loopback interface (gloo)",
                "inter_node_fabric": "none",
                "rail_optimized": False,
            },
        },
        "model": {
            "kind": "dense" if moe is None else "moe",
            "total_params": total,
            "activated_params": activated,
            "layers": MODEL["layers"],
            "hidden_size": MODEL["d_model"],
            "ffn_hidden_size": MODEL["dense_hidden"] if moe is None else MODEL["expert_hidden"],
        },
        "parallelism": {"dp": args.world, "tp": 1, "pp": 1},
        "batch": {"global_batch_tokens": batch_tokens, "sequence_length": MODEL["seq_len"]},
        "throughput": {"data_loading_included": False, "warmup_steps_excluded": sched["excluded"]},
        "recipe": {
            "optimizer": "AdamW beta1=%g beta2=%g eps=%g weight_decay=%g, grad clip %g"
                         % (TRAIN["betas"][0], TRAIN["betas"][1], TRAIN["eps"], TRAIN["weight_decay"],
                            TRAIN["grad_clip"]),
            "lr_schedule": "linear warm-up %d steps to %g, cosine to %g at step %d"
                           % (sched["lr_warmup"], TRAIN["peak_lr"], TRAIN["min_lr"], steps),
            "tokens_trained": batch_tokens * steps,
            "validation_set": validation_id,
        },
    }
    if moe is not None:
        cf = moe[0]
        record["moe"] = {
            "experts": MODEL["experts"],
            "shared_experts": 0,
            "top_k": MODEL["top_k"],
            "capacity_factor": cf if cf is not None else "none",
            "overflow_policy": "drop" if cf is not None else "dropless",
            "load_balancing": {"method": "aux_loss", "coefficient": TRAIN["aux_loss_coeff"]},
            "router_score_function": "softmax",
        }
        if cf is not None:
            record["moe"]["drop_order"] = "position"
        record["model"]["moe_layers"] = len(MODEL["moe_layer_ids"])
        record["parallelism"]["ep"] = args.world
    return record


def start_profiler(torch, dist, out, rank, sched):
    """The PyTorch profiler over iterations profile_first .. + PROFILE_ACTIVE - 1 (the one
    before them its warm-up), started; (profiler, the profiled iterations). The caller
    calls step() at the top of every iteration, before its timed part, so step_num = the
    iteration, and marks ProfilerStep#N itself (record_steps is off)."""
    from torch.profiler import ProfilerActivity, profile, schedule
    first = sched["profile_first"]
    profiled = tuple(range(first, first + PROFILE_ACTIVE))

    def write(p):
        folder = os.path.join(out, "torch_profile")
        os.makedirs(folder, exist_ok=True)
        p.export_chrome_trace(os.path.join(folder, "rank-%d.json" % rank))
        # The export takes each rank a different time: meet again before the next timed
        # step, so that its all-to-alls do not wait for a peer still writing its trace.
        dist.barrier()

    prof = profile(activities=[ProfilerActivity.CPU],
                   schedule=schedule(wait=first - 1, warmup=1, active=PROFILE_ACTIVE, repeat=1),
                   on_trace_ready=write)
    prof.record_steps = False  # ProfilerStep#N is marked by the training loop (see there)
    prof.start()
    return prof, profiled


def worker(args):
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sched = SCHEDULES["quick" if args.quick else "full"]
    try:
        import torch
        import torch.distributed as dist
    except ImportError as e:
        raise RuntimeError("PyTorch is not importable by %s (%s); install Debian's python3-torch"
                           % (sys.executable, e))
    sys.path.insert(0, HERE)
    import reference_corpus
    from reference_moe import ByteLM

    torch.set_num_threads(1)
    rank, world = args.rank, args.world
    moe_cfg = variant_moe(args.variant)
    collector = None
    if moe_cfg is not None:
        sys.path.insert(0, args.collect_path)
        from moewb_collect import Collector

    data, corpus = reference_corpus.load()
    dist.init_process_group("gloo", init_method="file://" + args.rendezvous, rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=120))

    torch.manual_seed(args.seed)
    moe = None if moe_cfg is None else {"experts": MODEL["experts"], "top_k": MODEL["top_k"],
                                         "capacity_factor": moe_cfg[0], "rank": rank, "world": world}
    model = ByteLM(MODEL, moe, args.seed)
    total_params, activated_params = count_params(model, world, moe)
    if moe_cfg is not None:
        collector = Collector(args.out, num_experts=MODEL["experts"], topk=MODEL["top_k"],
                              moe_layers=len(MODEL["moe_layer_ids"]), every=1, framework="generic",
                              rank=rank, world=world)
        model.set_collector(collector)

    expert_params = [p for p in model.parameters() if getattr(p, "is_expert", False)]
    dense_params = [p for p in model.parameters() if not getattr(p, "is_expert", False)]
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": TRAIN["weight_decay"]},
                             {"params": no_decay, "weight_decay": 0.0}],
                            lr=TRAIN["peak_lr"], betas=TRAIN["betas"], eps=TRAIN["eps"])

    train = torch.frombuffer(bytearray(data[:corpus["train_bytes"]]), dtype=torch.uint8).long()
    val = torch.frombuffer(bytearray(data[corpus["train_bytes"]:]), dtype=torch.uint8).long()
    seq, mb = MODEL["seq_len"], TRAIN["micro_batch"]
    # Validation: VALIDATION_WINDOWS windows spread evenly over the held-out slice, split
    # over the ranks in whole batches (every rank runs the same number of forward passes:
    # the MoE layers' all-to-alls need every rank).
    n_val = VALIDATION_WINDOWS - VALIDATION_WINDOWS % (world * mb)
    starts = torch.linspace(0, val.numel() - seq - 1, n_val).long()
    val_x = torch.stack([val[s:s + seq] for s in starts.tolist()])
    val_y = torch.stack([val[s + 1:s + seq + 1] for s in starts.tolist()])

    def batch(step):
        g = torch.Generator().manual_seed(args.seed * 7919 + step)
        s = torch.randint(0, train.numel() - seq - 1, (world * mb,), generator=g)[rank * mb:(rank + 1) * mb]
        x = torch.stack([train[i:i + seq] for i in s.tolist()])
        y = torch.stack([train[i + 1:i + seq + 1] for i in s.tolist()])
        return x, y

    def validate():
        model.eval()
        total = torch.zeros(2, dtype=torch.float64)
        with torch.no_grad():
            mine = list(range(rank, n_val, world))
            for i in range(0, len(mine), mb):
                idx = mine[i:i + mb]
                logits = model(val_x[idx])
                total[0] += torch.nn.functional.cross_entropy(logits.reshape(-1, 256), val_y[idx].reshape(-1),
                                                              reduction="sum").double()
                total[1] += len(idx) * seq
        dist.all_reduce(total)
        model.train()
        return (total[0] / total[1]).item()

    log = open(os.path.join(args.out, "train.log"), "w") if rank == 0 else None

    def say(line):
        if log is not None:
            log.write(line + "\n")
            log.flush()

    if rank == 0:
        say("Reference training of MoE Workbench (remote/reference/reference_train.py): variant %s, "
            "%d processes (torch %s, gloo, 127.0.0.1), seed %d" % (args.variant, world, torch.__version__, args.seed))
        say("corpus: %s (Debian base-files%s), %d files, %d bytes, sha256 %s; training %d bytes, "
            "validation the last %d bytes" % (corpus["directory"],
                                               " " + corpus["base_files_version"] if corpus["base_files_version"] else "",
                                               len(corpus["files"]), corpus["bytes"], corpus["sha256"],
                                               corpus["train_bytes"], corpus["validation_bytes"]))
        say("model: %d layers, hidden %d, %d heads, sequence %d, %s; parameters: %d total, %d activated"
            % (MODEL["layers"], MODEL["d_model"], MODEL["heads"], seq,
               "dense FFN hidden %d" % MODEL["dense_hidden"] if moe is None else
               "MoE in layers %s: %d experts (%d per process), top-%d, expert hidden %d, capacity factor %s"
               % (MODEL["moe_layer_ids"], MODEL["experts"], MODEL["experts"] // world, MODEL["top_k"],
                  MODEL["expert_hidden"], moe_cfg[0] if moe_cfg[0] is not None else "none (dropless)"),
               total_params, activated_params))
        say("training ...")

    steps = sched["steps"]
    global_batch = mb * world
    tokens_per_step = global_batch * seq
    stats = torch.zeros(3, dtype=torch.float64)
    prof, profiled = (None, ()) if args.no_profile else start_profiler(torch, dist, args.out, rank, sched)
    for step in range(1, steps + 1):
        x, y = batch(step)  # data loading, outside the timed step (data_loading_included: false)
        if prof is not None:
            # The profiler's step_num becomes `step` (it starts at 0 and each step()
            # adds one), so its schedule sees the logged iteration number; the warm-up,
            # the start and the trace's export (plus a barrier, in the handler) happen
            # here, outside the timed step.
            prof.step()
        mark = None
        if step in profiled:
            # ProfilerStep#N is marked here, around the timed part of iteration N (what
            # train.log's "elapsed time per iteration" measures), so N = the logged
            # iteration on every torch (1.13's own marker would say N-1: it names the
            # step after step_num before the increment; 2.x after it).
            mark = torch.profiler.record_function("ProfilerStep#%d" % step)
            mark.__enter__()
        t0 = time.perf_counter()
        if collector is not None:
            collector.step_begin()
        lr = lr_at(step, sched)
        for group in opt.param_groups:
            group["lr"] = lr
        logits = model(x)
        lm_loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 256), y.reshape(-1))
        aux = model.aux_losses()
        loss = lm_loss + TRAIN["aux_loss_coeff"] * sum(aux) if aux else lm_loss
        opt.zero_grad(set_to_none=True)
        # Each rank's loss is 1/world of the global mean: the experts' gradients arrive
        # summed over the ranks through the reverse all-to-all, the dense ones are summed
        # by one all_reduce.
        (loss / world).backward()
        grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in dense_params]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        off = 0
        for p in dense_params:
            n = p.numel()
            p.grad = flat[off:off + n].view_as(p).clone()
            off += n
        # Grad norm over the whole model (experts live on one rank each) and the loss
        # figures, in one small all_reduce.
        expert_sq = sum(float(p.grad.double().pow(2).sum()) for p in expert_params if p.grad is not None)
        stats[0] = expert_sq
        stats[1] = float(lm_loss.detach())
        stats[2] = float(sum(a.detach() for a in aux) / len(aux)) if aux else 0.0
        dist.all_reduce(stats)
        grad_norm = math.sqrt(float(flat.double().pow(2).sum()) + float(stats[0]))
        if grad_norm > TRAIN["grad_clip"]:
            for p in model.parameters():
                if p.grad is not None:
                    p.grad.mul_(TRAIN["grad_clip"] / (grad_norm + 1e-6))
        opt.step()
        if collector is not None:
            collector.step_end(step)
        elapsed = time.perf_counter() - t0
        if mark is not None:
            mark.__exit__(None, None, None)
        if rank == 0:
            fields = [
                "consumed samples: %12d" % (step * global_batch),
                "consumed tokens: %12d" % (step * tokens_per_step),
                "elapsed time per iteration (ms): %.1f" % (elapsed * 1000),
                "tokens per second per GPU: %.1f" % (tokens_per_step / world / elapsed),
                "learning rate: %.6E" % lr,
                "global batch size: %5d" % global_batch,
                "lm loss: %.6E" % (stats[1] / world),
            ]
            if aux:
                fields.append("load_balancing_loss: %.6E" % (stats[2] / world))
            fields += ["loss scale: 1.0", "grad norm: %.3f" % grad_norm,
                       "number of skipped iterations:   0", "number of nan iterations:   0"]
            say(" [%s] iteration %8d/%8d | %s |" % (megatron_time(), step, steps, " | ".join(fields)))
            if step % 5 == 0 or step == steps:
                progress(0.02 + 0.96 * step / steps, "iteration %d/%d" % (step, steps))
        if step % sched["eval_interval"] == 0 or step == steps:
            v = validate()
            if rank == 0:
                say("-" * 100)
                say(" validation loss at iteration %d | lm loss value: %.6E | lm loss PPL: %.6E | "
                    % (step, v, math.exp(min(v, 700))))
                say("-" * 100)
    if collector is not None:
        collector.close()
    if prof is not None:
        prof.stop()
    dist.barrier()
    if rank == 0:
        record = build_record(args, sched, total_params, activated_params, corpus, args.variant)
        with open(os.path.join(args.out, "record.json"), "w") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
        log.close()
    dist.destroy_process_group()
    return 0


def parse_args(argv):
    p = argparse.ArgumentParser(prog="reference_train.py",
                                description="MoE Workbench's reference training (docs/reference.md).")
    p.add_argument("--out", required=True, help="folder for train.log, record.json and the collector's files")
    p.add_argument("--variant", required=True, choices=VARIANTS)
    p.add_argument("--quick", action="store_true", help="the short schedule (under 45 s on 2 cores)")
    p.add_argument("--world", type=int, default=4, help="processes (ranks); default 4")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--collect-path", default=None,
                   help="folder holding the moewb_collect package (default ../collect next to this script)")
    p.add_argument("--no-profile", action="store_true",
                   help="write no PyTorch profiler traces (DIR/torch_profile/)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--rank", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--rendezvous", default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    try:
        if args.worker:
            return worker(args)
        return launch(args)
    except UsageError as e:
        sys.stderr.write("reference_train: %s\n" % e)
        return 2
    except Exception as e:  # one line, never a traceback
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        sys.stderr.write("reference_train: %s\n" % msg)
        if args.worker:
            sys.stderr.flush()
            os._exit(1)
        return 1


if __name__ == "__main__":
    sys.exit(main())
