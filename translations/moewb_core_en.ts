<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>Anatomy</name>
        <message numerus="yes">
            <source>clocks of %n rank(s) aligned on the ends of the collectives they share</source>
            <translation>
                <numerusform>clocks of %n rank aligned on the ends of the collectives they share</numerusform>
                <numerusform>clocks of %n ranks aligned on the ends of the collectives they share</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Assessment</name>
        <message numerus="yes">
            <source>%n config record(s) and %1 run(s) in the project.</source>
            <translation>
                <numerusform>%n config record and %1 run in the project.</numerusform>
                <numerusform>%n config records and %1 runs in the project.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Routing across %n MoE config record(s): top-k %1; capacity factor %2; overflow policy %3.</source>
            <translation>
                <numerusform>Routing across %n MoE config record: top-k %1; capacity factor %2; overflow policy %3.</numerusform>
                <numerusform>Routing across %n MoE config records: top-k %1; capacity factor %2; overflow policy %3.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 of %n config record(s) complete; the stages take runs of complete records only.</source>
            <translation>
                <numerusform>%1 of %n config record complete; the stages take runs of complete records only.</numerusform>
                <numerusform>%1 of %n config records complete; the stages take runs of complete records only.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Stages 2–3: %n training run(s), %1 of them MoE; per-expert load in %2.</source>
            <translation>
                <numerusform>Stages 2–3: %n training run, %1 of them MoE; per-expert load in %2.</numerusform>
                <numerusform>Stages 2–3: %n training runs, %1 of them MoE; per-expert load in %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (%n step(s))</source>
            <translation>
                <numerusform>%1 (%n step)</numerusform>
                <numerusform>%1 (%n steps)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>No loss spike in %n run(s) with a training loss (a step over 1.2× the median of the 20 steps before it).</source>
            <translation>
                <numerusform>No loss spike in %n run with a training loss (a step over 1.2× the median of the 20 steps before it).</numerusform>
                <numerusform>No loss spike in %n runs with a training loss (a step over 1.2× the median of the 20 steps before it).</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>per-expert load in %1 of %n MoE run(s)</source>
            <translation>
                <numerusform>per-expert load in %1 of %n MoE run</numerusform>
                <numerusform>per-expert load in %1 of %n MoE runs</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>validation loss in %1 of %n training run(s)</source>
            <translation>
                <numerusform>validation loss in %1 of %n training run</numerusform>
                <numerusform>validation loss in %1 of %n training runs</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n repeat(s) per message size</source>
            <translation>
                <numerusform>%n repeat per message size</numerusform>
                <numerusform>%n repeats per message size</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Stage 1: %n probe run(s), %1</source>
            <translation>
                <numerusform>Stage 1: %n probe run, %1</numerusform>
                <numerusform>Stage 1: %n probe runs, %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Checks</name>
        <message numerus="yes">
            <source>%n run(s) with throughput from a cluster that has no stage 1 baseline: %1</source>
            <translation>
                <numerusform>%n run with throughput from a cluster that has no stage 1 baseline: %1</numerusform>
                <numerusform>%n runs with throughput from a cluster that has no stage 1 baseline: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n MoE run(s) with mixed or unrecorded routing settings: %1</source>
            <translation>
                <numerusform>%n MoE run with mixed or unrecorded routing settings: %1</numerusform>
                <numerusform>%n MoE runs with mixed or unrecorded routing settings: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n MoE run(s) without per-expert load or EP size: %1</source>
            <translation>
                <numerusform>%n MoE run without per-expert load or EP size: %1</numerusform>
                <numerusform>%n MoE runs without per-expert load or EP size: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run pair(s) faster but with a worse loss: %1</source>
            <translation>
                <numerusform>%n run pair faster but with a worse loss: %1</numerusform>
                <numerusform>%n run pairs faster but with a worse loss: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) train at a node count stage 1 did not measure: %1</source>
            <translation>
                <numerusform>%n run train at a node count stage 1 did not measure: %1</numerusform>
                <numerusform>%n runs train at a node count stage 1 did not measure: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) with warm-up steps inside their throughput: %1</source>
            <translation>
                <numerusform>%n run with warm-up steps inside their throughput: %1</numerusform>
                <numerusform>%n runs with warm-up steps inside their throughput: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Comparability</name>
        <message numerus="yes">
            <source>Comparison refused: %n run(s) have missing or invalid config-record fields.</source>
            <translation>
                <numerusform>Comparison refused: %n run have missing or invalid config-record fields.</numerusform>
                <numerusform>Comparison refused: %n runs have missing or invalid config-record fields.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Importers</name>
        <message numerus="yes">
            <source>%n byte(s)</source>
            <translation>
                <numerusform>%n byte</numerusform>
                <numerusform>%n bytes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>must have at least %n item(s), got %1</source>
            <translation>
                <numerusform>must have at least %n item, got %1</numerusform>
                <numerusform>must have at least %n items, got %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (and %n more damaged line(s); nothing usable remains)</source>
            <translation>
                <numerusform>%1 (and %n more damaged line; nothing usable remains)</numerusform>
                <numerusform>%1 (and %n more damaged lines; nothing usable remains)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n more: %1</source>
            <translation>
                <numerusform>%n more: %1</numerusform>
                <numerusform>%n more: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>only Megatron-Bridge "Step Time" lines (%n), no iteration line: they carry no iteration number to put their figures at</source>
            <translation>
                <numerusform>only Megatron-Bridge "Step Time" lines (%n), no iteration line: they carry no iteration number to put their figures at</numerusform>
                <numerusform>only Megatron-Bridge "Step Time" lines (%n), no iteration line: they carry no iteration number to put their figures at</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Placement</name>
        <message numerus="yes">
            <source>%1 (and %n more part(s) of its expert load)</source>
            <translation>
                <numerusform>%1 (and %n more part of its expert load)</numerusform>
                <numerusform>%1 (and %n more parts of its expert load)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RunImport</name>
        <message numerus="yes">
            <source>%1 and %n more</source>
            <translation>
                <numerusform>%1 and %n more</numerusform>
                <numerusform>%1 and %n more</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>left out %n step(s) not every collector sidecar has</source>
            <translation>
                <numerusform>left out %n step not every collector sidecar has</numerusform>
                <numerusform>left out %n steps not every collector sidecar has</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>collector: rank %1 of %2, %n step(s)</source>
            <translation>
                <numerusform>collector: rank %1 of %2, %n step</numerusform>
                <numerusform>collector: rank %1 of %2, %n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>busiest-device share measured in %n step(s): the rank with the most expert compute time, its compute + all-to-all time / its step time</source>
            <translation>
                <numerusform>busiest-device share measured in %n step: the rank with the most expert compute time, its compute + all-to-all time / its step time</numerusform>
                <numerusform>busiest-device share measured in %n steps: the rank with the most expert compute time, its compute + all-to-all time / its step time</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>left out %n step(s) not every rank file has: %1</source>
            <translation>
                <numerusform>left out %n step not every rank file has: %1</numerusform>
                <numerusform>left out %n steps not every rank file has: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n MTP layer(s) kept apart, numbered from %1</source>
            <translation>
                <numerusform>%n MTP layer kept apart, numbered from %1</numerusform>
                <numerusform>%n MTP layers kept apart, numbered from %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n communication sample(s)</source>
            <translation>
                <numerusform>%n communication sample</numerusform>
                <numerusform>%n communication samples</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>expert load: %n block(s)</source>
            <translation>
                <numerusform>expert load: %n block</numerusform>
                <numerusform>expert load: %n blocks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>no file to read (%n skipped)</source>
            <translation>
                <numerusform>no file to read (%n skipped)</numerusform>
                <numerusform>no file to read (%n skipped)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n step(s) of tokens_per_s_per_gpu derived: %1</source>
            <translation>
                <numerusform>%n step of tokens_per_s_per_gpu derived: %1</numerusform>
                <numerusform>%n steps of tokens_per_s_per_gpu derived: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>  %1  %2  %n row(s)  %3</source>
            <translation>
                <numerusform>  %1  %2  %n row  %3</numerusform>
                <numerusform>  %1  %2  %n rows  %3</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 lacks %n step(s): %2</source>
            <translation>
                <numerusform>%1 lacks %n step: %2</numerusform>
                <numerusform>%1 lacks %n steps: %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n collector sidecar(s) merged over %1 ranks: drop rate = tokens dropped / tokens over ranks and MoE layers (%2)</source>
            <translation>
                <numerusform>%n collector sidecar merged over %1 ranks: drop rate = tokens dropped / tokens over ranks and MoE layers (%2)</numerusform>
                <numerusform>%n collector sidecars merged over %1 ranks: drop rate = tokens dropped / tokens over ranks and MoE layers (%2)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n step(s)</source>
            <translation>
                <numerusform>%n step</numerusform>
                <numerusform>%n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 %2 merged into %3 experts per layer: EP %4 × %5 local experts, summed over %n expert-DP group(s)%6</source>
            <translation>
                <numerusform>%1 %2 merged into %3 experts per layer: EP %4 × %5 local experts, summed over %n expert-DP group%6</numerusform>
                <numerusform>%1 %2 merged into %3 experts per layer: EP %4 × %5 local experts, summed over %n expert-DP groups%6</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>profiler trace of rank %1: %n profiled step(s) (%2–%3)</source>
            <translation>
                <numerusform>profiler trace of rank %1: %n profiled step (%2–%3)</numerusform>
                <numerusform>profiler trace of rank %1: %n profiled steps (%2–%3)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>; %n kernel(s) outside every profiled step left out</source>
            <translation>
                <numerusform>; %n kernel outside every profiled step left out</numerusform>
                <numerusform>; %n kernels outside every profiled step left out</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>busiest-device share measured from profiler traces in %n step(s): mean %1 (the mean device %2)</source>
            <translation>
                <numerusform>busiest-device share measured from profiler traces in %n step: mean %1 (the mean device %2)</numerusform>
                <numerusform>busiest-device share measured from profiler traces in %n steps: mean %1 (the mean device %2)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n more test(s) left out: %2</source>
            <translation>
                <numerusform>%1: %n more test left out: %2</numerusform>
                <numerusform>%1: %n more tests left out: %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1:%2: damaged line, %n field(s) kept; left out: %3</source>
            <translation>
                <numerusform>%1:%2: damaged line, %n field kept; left out: %3</numerusform>
                <numerusform>%1:%2: damaged line, %n fields kept; left out: %3</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n more damaged line(s) (import with --strict to refuse the file instead)</source>
            <translation>
                <numerusform>%1: %n more damaged line (import with --strict to refuse the file instead)</numerusform>
                <numerusform>%1: %n more damaged lines (import with --strict to refuse the file instead)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %2 ranks name %n host(s), more than the record's %3 accelerators per node: host names repeat across nodes (containers?), so nodes cannot be told apart by name</source>
            <translation>
                <numerusform>%1: %2 ranks name %n host, more than the record's %3 accelerators per node: host names repeat across nodes (containers?), so nodes cannot be told apart by name</numerusform>
                <numerusform>%1: %2 ranks name %n hosts, more than the record's %3 accelerators per node: host names repeat across nodes (containers?), so nodes cannot be told apart by name</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: its ranks name %n host(s), but the record's cluster has %2 nodes</source>
            <translation>
                <numerusform>%1: its ranks name %n host, but the record's cluster has %2 nodes</numerusform>
                <numerusform>%1: its ranks name %n hosts, but the record's cluster has %2 nodes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n more nccl-tests file(s) of the same test: their rows are further repeats of one baseline</source>
            <translation>
                <numerusform>%n more nccl-tests file of the same test: their rows are further repeats of one baseline</numerusform>
                <numerusform>%n more nccl-tests files of the same test: their rows are further repeats of one baseline</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n Megatron-Bridge Step Time line(s): model TFLOP/s/GPU per iteration (tflops_per_gpu). The log gives no tokens/s/GPU: stage 2 derives it from the step time as the record's global batch tokens (global batch × sequence length) ÷ (step time × world size), and says so.</source>
            <translation>
                <numerusform>%1: %n Megatron-Bridge Step Time line: model TFLOP/s/GPU per iteration (tflops_per_gpu). The log gives no tokens/s/GPU: stage 2 derives it from the step time as the record's global batch tokens (global batch × sequence length) ÷ (step time × world size), and says so.</numerusform>
                <numerusform>%1: %n Megatron-Bridge Step Time lines: model TFLOP/s/GPU per iteration (tflops_per_gpu). The log gives no tokens/s/GPU: stage 2 derives it from the step time as the record's global batch tokens (global batch × sequence length) ÷ (step time × world size), and says so.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n Step Time line(s) left out: no iteration line after them to give their iteration number</source>
            <translation>
                <numerusform>%1: %n Step Time line left out: no iteration line after them to give their iteration number</numerusform>
                <numerusform>%1: %n Step Time lines left out: no iteration line after them to give their iteration number</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Stages</name>
        <message numerus="yes">
            <source>… and %n more impossible value(s).</source>
            <translation>
                <numerusform>… and %n more impossible value.</numerusform>
                <numerusform>… and %n more impossible values.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n new run(s): %1</source>
            <translation>
                <numerusform>%n new run: %1</numerusform>
                <numerusform>%n new runs: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) re-imported since: %1</source>
            <translation>
                <numerusform>%n run re-imported since: %1</numerusform>
                <numerusform>%n runs re-imported since: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) no longer there: %1</source>
            <translation>
                <numerusform>%n run no longer there: %1</numerusform>
                <numerusform>%n runs no longer there: %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>stage 4 needs the stage 1 baselines of exactly two clusters; the project has %n cluster(s) with stage 1 runs. Name them: --run SOURCE --run TARGET</source>
            <translation>
                <numerusform>stage 4 needs the stage 1 baselines of exactly two clusters; the project has %n cluster with stage 1 runs. Name them: --run SOURCE --run TARGET</numerusform>
                <numerusform>stage 4 needs the stage 1 baselines of exactly two clusters; the project has %n clusters with stage 1 runs. Name them: --run SOURCE --run TARGET</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>run %1 (%n node(s))</source>
            <translation>
                <numerusform>run %1 (%n node)</numerusform>
                <numerusform>run %1 (%n nodes)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>the last %n step(s), %1–%2</source>
            <translation>
                <numerusform>the last %n step, %1–%2</numerusform>
                <numerusform>the last %n steps, %1–%2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>record %1 trains on %n node(s), but these baselines do not say on how many nodes they ran: %2. A moe-probe report or a whole nccl-tests rank list does</source>
            <translation>
                <numerusform>record %1 trains on %n node, but these baselines do not say on how many nodes they ran: %2. A moe-probe report or a whole nccl-tests rank list does</numerusform>
                <numerusform>record %1 trains on %n nodes, but these baselines do not say on how many nodes they ran: %2. A moe-probe report or a whole nccl-tests rank list does</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>record %1 trains on %n node(s): no baseline at that node count on its cluster</source>
            <translation>
                <numerusform>record %1 trains on %n node: no baseline at that node count on its cluster</numerusform>
                <numerusform>record %1 trains on %n nodes: no baseline at that node count on its cluster</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>record %1 trains on %n node(s): no baseline at that node count; the baselines were measured at %2</source>
            <translation>
                <numerusform>record %1 trains on %n node: no baseline at that node count; the baselines were measured at %2</numerusform>
                <numerusform>record %1 trains on %n nodes: no baseline at that node count; the baselines were measured at %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n node(s)</source>
            <translation>
                <numerusform>%n node</numerusform>
                <numerusform>%n nodes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>record %1: baseline %2 matches its %n node(s) and its concurrency.</source>
            <translation>
                <numerusform>record %1: baseline %2 matches its %n node and its concurrency.</numerusform>
                <numerusform>record %1: baseline %2 matches its %n nodes and its concurrency.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>All %1 sizes in %n run(s): run-to-run CV at most %2 ≤ %3; P99/median at most %4 ≤ %5.</source>
            <translation>
                <numerusform>All %1 sizes in %n run: run-to-run CV at most %2 ≤ %3; P99/median at most %4 ≤ %5.</numerusform>
                <numerusform>All %1 sizes in %n runs: run-to-run CV at most %2 ≤ %3; P99/median at most %4 ≤ %5.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>run %1: busiest-device share %2 of step time (measured: profiler traces, mean over %n traced step(s): the busiest rank's compute + communication without waiting / its step time); the mean device %3.</source>
            <translation>
                <numerusform>run %1: busiest-device share %2 of step time (measured: profiler traces, mean over %n traced step: the busiest rank's compute + communication without waiting / its step time); the mean device %3.</numerusform>
                <numerusform>run %1: busiest-device share %2 of step time (measured: profiler traces, mean over %n traced steps: the busiest rank's compute + communication without waiting / its step time); the mean device %3.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source> (and %n more part(s) of its expert load)</source>
            <translation>
                <numerusform> (and %n more part of its expert load)</numerusform>
                <numerusform> (and %n more parts of its expert load)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>1.5 × the median run-to-run CV (%1) over %n size(s) of %2; at least %3</source>
            <translation>
                <numerusform>1.5 × the median run-to-run CV (%1) over %n size of %2; at least %3</numerusform>
                <numerusform>1.5 × the median run-to-run CV (%1) over %n sizes of %2; at least %3</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>1.5 × the median P99/median (%1) over %n size(s) of %2</source>
            <translation>
                <numerusform>1.5 × the median P99/median (%1) over %n size of %2</numerusform>
                <numerusform>1.5 × the median P99/median (%1) over %n sizes of %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: run-to-run CV &gt; %2 at %n size(s): %3.</source>
            <translation>
                <numerusform>%1: run-to-run CV &gt; %2 at %n size: %3.</numerusform>
                <numerusform>%1: run-to-run CV &gt; %2 at %n sizes: %3.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: P99/median &gt; %2 at %n size(s): %3.</source>
            <translation>
                <numerusform>%1: P99/median &gt; %2 at %n size: %3.</numerusform>
                <numerusform>%1: P99/median &gt; %2 at %n sizes: %3.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 and %n node(s)</source>
            <translation>
                <numerusform>%1 and %n node</numerusform>
                <numerusform>%1 and %n nodes</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Store</name>
        <message numerus="yes">
            <source>cluster %1 is not removed: %n run(s) were measured on it (%2); remove them first</source>
            <translation>
                <numerusform>cluster %1 is not removed: %n run were measured on it (%2); remove them first</numerusform>
                <numerusform>cluster %1 is not removed: %n runs were measured on it (%2); remove them first</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 and %n more</source>
            <translation>
                <numerusform>%1 and %n more</numerusform>
                <numerusform>%1 and %n more</numerusform>
            </translation>
        </message>
    </context>
</TS>
