<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>Cli</name>
        <message numerus="yes">
            <source>%n warning(s):</source>
            <translation>
                <numerusform>%n warning:</numerusform>
                <numerusform>%n warnings:</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Stored the facts of %n node(s) in %1.</source>
            <translation>
                <numerusform>Stored the facts of %n node in %1.</numerusform>
                <numerusform>Stored the facts of %n nodes in %1.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Added cluster %1 with %n node(s) to %2.</source>
            <translation>
                <numerusform>Added cluster %1 with %n node to %2.</numerusform>
                <numerusform>Added cluster %1 with %n nodes to %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Plan: add %n file(s) to run "%1" (record "%2"):</source>
            <translation>
                <numerusform>Plan: add %n file to run "%1" (record "%2"):</numerusform>
                <numerusform>Plan: add %n files to run "%1" (record "%2"):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Plan: run "%1" (record "%2") from %n file(s):</source>
            <translation>
                <numerusform>Plan: run "%1" (record "%2") from %n file:</numerusform>
                <numerusform>Plan: run "%1" (record "%2") from %n files:</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Added to run "%2" from %1 (%3, %n data row(s)); the run now holds %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7".</source>
            <translation>
                <numerusform>Added to run "%2" from %1 (%3, %n data row); the run now holds %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7".</numerusform>
                <numerusform>Added to run "%2" from %1 (%3, %n data rows); the run now holds %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7".</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Imported %1 as run "%2" (%3, %n data row(s): %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7").</source>
            <translation>
                <numerusform>Imported %1 as run "%2" (%3, %n data row: %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7").</numerusform>
                <numerusform>Imported %1 as run "%2" (%3, %n data rows: %4 communication samples, %5 step metrics, %6 expert-load blocks; record "%7").</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n field(s) missing or invalid; runs with this record cannot be compared.</source>
            <translation>
                <numerusform>%1: %n field missing or invalid; runs with this record cannot be compared.</numerusform>
                <numerusform>%1: %n fields missing or invalid; runs with this record cannot be compared.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Stored config record "%1" in %2, incomplete: %n field(s) missing or invalid. Comparisons that use it are refused until they are fixed.</source>
            <translation>
                <numerusform>Stored config record "%1" in %2, incomplete: %n field missing or invalid. Comparisons that use it are refused until they are fixed.</numerusform>
                <numerusform>Stored config record "%1" in %2, incomplete: %n fields missing or invalid. Comparisons that use it are refused until they are fixed.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>incomplete (%n field(s))</source>
            <translation>
                <numerusform>incomplete (%n field)</numerusform>
                <numerusform>incomplete (%n fields)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>all %n MoE layers summed</source>
            <translation>
                <numerusform>all %n MoE layers summed</numerusform>
                <numerusform>all %n MoE layers summed</numerusform>
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
            <source>Note: %n expert(s) counted more assignments than there are tokens (count &gt; Σ counts / top-k), which one layer's top-k routing cannot give; their probability was capped at 1. Check the load's units and top-k.</source>
            <translation>
                <numerusform>Note: %n expert counted more assignments than there are tokens (count &gt; Σ counts / top-k), which one layer's top-k routing cannot give; their probability was capped at 1. Check the load's units and top-k.</numerusform>
                <numerusform>Note: %n experts counted more assignments than there are tokens (count &gt; Σ counts / top-k), which one layer's top-k routing cannot give; their probability was capped at 1. Check the load's units and top-k.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Run %1, steps %2-%3: %4 layers × %5 experts over %6 GPUs (%7 nodes), %n redundant slot(s) per GPU, %8 policy.</source>
            <translation>
                <numerusform>Run %1, steps %2-%3: %4 layers × %5 experts over %6 GPUs (%7 nodes), %n redundant slot per GPU, %8 policy.</numerusform>
                <numerusform>Run %1, steps %2-%3: %4 layers × %5 experts over %6 GPUs (%7 nodes), %n redundant slots per GPU, %8 policy.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Run %1: profiler traces of %n rank(s)</source>
            <translation>
                <numerusform>Run %1: profiler traces of %n rank</numerusform>
                <numerusform>Run %1: profiler traces of %n ranks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Over %n step(s): busiest-device share %1, the mean device %2; imbalance %3 ms per step.</source>
            <translation>
                <numerusform>Over %n step: busiest-device share %1, the mean device %2; imbalance %3 ms per step.</numerusform>
                <numerusform>Over %n steps: busiest-device share %1, the mean device %2; imbalance %3 ms per step.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 busiest in %n step(s)</source>
            <translation>
                <numerusform>%1 busiest in %n step</numerusform>
                <numerusform>%1 busiest in %n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>traces digested on cluster %1 (%n node(s)): only the per-step digests were brought back</source>
            <translation>
                <numerusform>traces digested on cluster %1 (%n node): only the per-step digests were brought back</numerusform>
                <numerusform>traces digested on cluster %1 (%n nodes): only the per-step digests were brought back</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Wrote %1 (schema %2) from %3 (schema %4): %n row(s) copied</source>
            <translation>
                <numerusform>Wrote %1 (schema %2) from %3 (schema %4): %n row copied</numerusform>
                <numerusform>Wrote %1 (schema %2) from %3 (schema %4): %n rows copied</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n skipped.</source>
            <translation>
                <numerusform>, %n skipped.</numerusform>
                <numerusform>, %n skipped.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %n more skipped</source>
            <translation>
                <numerusform>… and %n more skipped</numerusform>
                <numerusform>… and %n more skipped</numerusform>
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
            <source>Measure it with nccl-tests 2.19 or later on %n rank(s), one GPU each (the file must be readable at this path on every node):</source>
            <translation>
                <numerusform>Measure it with nccl-tests 2.19 or later on %n rank, one GPU each (the file must be readable at this path on every node):</numerusform>
                <numerusform>Measure it with nccl-tests 2.19 or later on %n ranks, one GPU each (the file must be readable at this path on every node):</numerusform>
            </translation>
        </message>
    </context>
</TS>
