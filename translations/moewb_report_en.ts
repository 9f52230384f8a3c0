<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>Report</name>
        <message numerus="yes">
            <source>%n node(s)</source>
            <translation>
                <numerusform>%n node</numerusform>
                <numerusform>%n nodes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>What a rebalanced placement would give: the busiest GPU's share of the routed tokens, predicted from the measured load over all steps, today (contiguous placement) and after DeepSeek EPLB's rebalancing with %n redundant slot(s) per GPU</source>
            <translation>
                <numerusform>What a rebalanced placement would give: the busiest GPU's share of the routed tokens, predicted from the measured load over all steps, today (contiguous placement) and after DeepSeek EPLB's rebalancing with %n redundant slot per GPU</numerusform>
                <numerusform>What a rebalanced placement would give: the busiest GPU's share of the routed tokens, predicted from the measured load over all steps, today (contiguous placement) and after DeepSeek EPLB's rebalancing with %n redundant slots per GPU</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n node(s), %2 GPUs</source>
            <translation>
                <numerusform>%1: %n node, %2 GPUs</numerusform>
                <numerusform>%1: %n nodes, %2 GPUs</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Laid out %n page(s)</source>
            <translation>
                <numerusform>Laid out %n page</numerusform>
                <numerusform>Laid out %n pages</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Written %n page(s)</source>
            <translation>
                <numerusform>Written %n page</numerusform>
                <numerusform>Written %n pages</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Only on the team's word: %n stage(s) stopped and went on by a written override. The measurements alone do not support using the conclusions for %1; read each override's justification below before relying on them.</source>
            <translation>
                <numerusform>Only on the team's word: %n stage stopped and went on by a written override. The measurements alone do not support using the conclusions for %1; read each override's justification below before relying on them.</numerusform>
                <numerusform>Only on the team's word: %n stages stopped and went on by a written override. The measurements alone do not support using the conclusions for %1; read each override's justification below before relying on them.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Imbalance bill: over %n complete profiled step(s) the busiest device is busy %1 of its step on average and the mean device %2, so the others wait %3 per step for the busiest.</source>
            <translation>
                <numerusform>Imbalance bill: over %n complete profiled step the busiest device is busy %1 of its step on average and the mean device %2, so the others wait %3 per step for the busiest.</numerusform>
                <numerusform>Imbalance bill: over %n complete profiled steps the busiest device is busy %1 of its step on average and the mean device %2, so the others wait %3 per step for the busiest.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n more run(s) are not listed: the table names the runs the stages were decided on and the newest. The command moewb runs list names every run.</source>
            <translation>
                <numerusform>%n more run are not listed: the table names the runs the stages were decided on and the newest. The command moewb runs list names every run.</numerusform>
                <numerusform>%n more runs are not listed: the table names the runs the stages were decided on and the newest. The command moewb runs list names every run.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The environments of %n run(s): those the stages were decided on and the newest.</source>
            <translation>
                <numerusform>The environments of %n run: those the stages were decided on and the newest.</numerusform>
                <numerusform>The environments of %n runs: those the stages were decided on and the newest.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Project %1 · %n config record(s)</source>
            <translation>
                <numerusform>Project %1 · %n config record</numerusform>
                <numerusform>Project %1 · %n config records</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>, %n run(s)</source>
            <translation>
                <numerusform>, %n run</numerusform>
                <numerusform>, %n runs</numerusform>
            </translation>
        </message>
    </context>
</TS>
