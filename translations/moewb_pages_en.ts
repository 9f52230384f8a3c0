<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>moewb::gui::CostExplorerPage</name>
        <message numerus="yes">
            <source>%n replica(s)</source>
            <translation>
                <numerusform>%n replica</numerusform>
                <numerusform>%n replicas</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::StageOnePage</name>
        <message numerus="yes">
            <source>Sweep finished: %n run(s) saved (%1).</source>
            <translation>
                <numerusform>Sweep finished: %n run saved (%1).</numerusform>
                <numerusform>Sweep finished: %n runs saved (%1).</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::StageOneRunPanel</name>
        <message numerus="yes">
            <source>Done: %n run(s) saved.</source>
            <translation>
                <numerusform>Done: %n run saved.</numerusform>
                <numerusform>Done: %n runs saved.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Cancelled. %n finished run(s) kept.</source>
            <translation>
                <numerusform>Cancelled. %n finished run kept.</numerusform>
                <numerusform>Cancelled. %n finished runs kept.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::StagePage</name>
        <message numerus="yes">
            <source>Runs to evaluate (%n run(s) with this stage's data; all are taken by default):</source>
            <translation>
                <numerusform>Runs to evaluate (%n run with this stage's data; all are taken by default):</numerusform>
                <numerusform>Runs to evaluate (%n runs with this stage's data; all are taken by default):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Evaluating stage %1 on %n run(s)…</source>
            <translation>
                <numerusform>Evaluating stage %1 on %n run…</numerusform>
                <numerusform>Evaluating stage %1 on %n runs…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n suggested threshold(s) applied. Evaluate again to use them.</source>
            <translation>
                <numerusform>%n suggested threshold applied. Evaluate again to use them.</numerusform>
                <numerusform>%n suggested thresholds applied. Evaluate again to use them.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::StageThreePage</name>
        <message numerus="yes">
            <source>EPLB hierarchical, %n redundant slot(s) per GPU</source>
            <translation>
                <numerusform>EPLB hierarchical, %n redundant slot per GPU</numerusform>
                <numerusform>EPLB hierarchical, %n redundant slots per GPU</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>EPLB global, %n redundant slot(s) per GPU</source>
            <translation>
                <numerusform>EPLB global, %n redundant slot per GPU</numerusform>
                <numerusform>EPLB global, %n redundant slots per GPU</numerusform>
            </translation>
        </message>
    </context>
</TS>
