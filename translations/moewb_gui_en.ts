<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>NodeInventoryFill</name>
        <message numerus="yes">
            <source>%1 of %n node(s) carry a probe inventory.</source>
            <translation>
                <numerusform>%1 of %n node carry a probe inventory.</numerusform>
                <numerusform>%1 of %n nodes carry a probe inventory.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::AssessmentView</name>
        <message numerus="yes">
            <source>%n older run(s) not listed</source>
            <translation>
                <numerusform>%n older run not listed</numerusform>
                <numerusform>%n older runs not listed</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::ClustersPage</name>
        <message numerus="yes">
            <source>%n node(s) answered · %1</source>
            <translation>
                <numerusform>%n node answered · %1</numerusform>
                <numerusform>%n nodes answered · %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: this computer, %n rank(s)</source>
            <translation>
                <numerusform>%1: this computer, %n rank</numerusform>
                <numerusform>%1: this computer, %n ranks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n node(s)</source>
            <translation>
                <numerusform>%1: %n node</numerusform>
                <numerusform>%1: %n nodes</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Last check %1: %n node(s) answered.</source>
            <translation>
                <numerusform>Last check %1: %n node answered.</numerusform>
                <numerusform>Last check %1: %n nodes answered.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Added cluster %1 with %n node(s); Check reads their inventory.</source>
            <translation>
                <numerusform>Added cluster %1 with %n node; Check reads their inventory.</numerusform>
                <numerusform>Added cluster %1 with %n nodes; Check reads their inventory.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remove cluster %1 and its %n node(s) from the project? Nothing on the nodes is touched.</source>
            <translation>
                <numerusform>Remove cluster %1 and its %n node from the project? Nothing on the nodes is touched.</numerusform>
                <numerusform>Remove cluster %1 and its %n nodes from the project? Nothing on the nodes is touched.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Check of %1: %n node(s) answered; their inventory is stored.</source>
            <translation>
                <numerusform>Check of %1: %n node answered; their inventory is stored.</numerusform>
                <numerusform>Check of %1: %n nodes answered; their inventory is stored.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 of %n node(s) answered · %2</source>
            <translation>
                <numerusform>%1 of %n node answered · %2</numerusform>
                <numerusform>%1 of %n nodes answered · %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Last check %1: %2 of %n node(s) answered.</source>
            <translation>
                <numerusform>Last check %1: %2 of %n node answered.</numerusform>
                <numerusform>Last check %1: %2 of %n nodes answered.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Check of %1: %2 of %n node(s) answered; see the status of each node.</source>
            <translation>
                <numerusform>Check of %1: %2 of %n node answered; see the status of each node.</numerusform>
                <numerusform>Check of %1: %2 of %n nodes answered; see the status of each node.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::CompareRunsView</name>
        <message numerus="yes">
            <source>Comparing %n run(s): %1</source>
            <translation>
                <numerusform>Comparing %n run: %1</numerusform>
                <numerusform>Comparing %n runs: %1</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::ImportDialog</name>
        <message numerus="yes">
            <source>Reading and checking %n path(s)…</source>
            <translation>
                <numerusform>Reading and checking %n path…</numerusform>
                <numerusform>Reading and checking %n paths…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✖ The files cannot be imported (%n problem(s), listed above); nothing was stored.</source>
            <translation>
                <numerusform>✖ The files cannot be imported (%n problem, listed above); nothing was stored.</numerusform>
                <numerusform>✖ The files cannot be imported (%n problems, listed above); nothing was stored.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✔ %n file(s) read, %1 skipped → %2: %3.</source>
            <translation>
                <numerusform>✔ %n file read, %1 skipped → %2: %3.</numerusform>
                <numerusform>✔ %n files read, %1 skipped → %2: %3.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✖ The files cannot be imported as one run: %n problem(s). Fix them (or leave the file out) and the files are checked again; nothing is stored.</source>
            <translation>
                <numerusform>✖ The files cannot be imported as one run: %n problem. Fix them (or leave the file out) and the files are checked again; nothing is stored.</numerusform>
                <numerusform>✖ The files cannot be imported as one run: %n problems. Fix them (or leave the file out) and the files are checked again; nothing is stored.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✔ Added %n file(s) to run “%1”.</source>
            <translation>
                <numerusform>✔ Added %n file to run “%1”.</numerusform>
                <numerusform>✔ Added %n files to run “%1”.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✔ Imported %n file(s) as run “%1”.</source>
            <translation>
                <numerusform>✔ Imported %n file as run “%1”.</numerusform>
                <numerusform>✔ Imported %n files as run “%1”.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::MainWindow</name>
        <message numerus="yes">
            <source>%n row(s) copied</source>
            <translation>
                <numerusform>%n row copied</numerusform>
                <numerusform>%n rows copied</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n skipped.</source>
            <translation>
                <numerusform>%n skipped.</numerusform>
                <numerusform>%n skipped.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %n more left out</source>
            <translation>
                <numerusform>… and %n more left out</numerusform>
                <numerusform>… and %n more left out</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Table %1: %n row(s) skipped</source>
            <translation>
                <numerusform>Table %1: %n row skipped</numerusform>
                <numerusform>Table %1: %n rows skipped</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::ProjectBrowser</name>
        <message numerus="yes">
            <source>Incomplete: %n field(s) missing or invalid; comparisons using it are refused.</source>
            <translation>
                <numerusform>Incomplete: %n field missing or invalid; comparisons using it are refused.</numerusform>
                <numerusform>Incomplete: %n fields missing or invalid; comparisons using it are refused.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (%n node(s))</source>
            <translation>
                <numerusform>%1 (%n node)</numerusform>
                <numerusform>%1 (%n nodes)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::ProjectOverview</name>
        <message numerus="yes">
            <source>! %n incomplete: comparisons using them are refused</source>
            <translation>
                <numerusform>! %n incomplete: comparisons using them are refused</numerusform>
                <numerusform>! %n incomplete: comparisons using them are refused</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::RecordEditor</name>
        <message numerus="yes">
            <source>! Incomplete: %n field(s) missing or invalid. Any comparison that includes a run with this record is refused until they are fixed.</source>
            <translation>
                <numerusform>! Incomplete: %n field missing or invalid. Any comparison that includes a run with this record is refused until they are fixed.</numerusform>
                <numerusform>! Incomplete: %n fields missing or invalid. Any comparison that includes a run with this record is refused until they are fixed.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>✖ Comparisons blocked for %n run(s) using this record (%1) until these are filled: %2.</source>
            <translation>
                <numerusform>✖ Comparisons blocked for %n run using this record (%1) until these are filled: %2.</numerusform>
                <numerusform>✖ Comparisons blocked for %n runs using this record (%1) until these are filled: %2.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Saved %1: still %n field(s) missing or invalid.</source>
            <translation>
                <numerusform>Saved %1: still %n field missing or invalid.</numerusform>
                <numerusform>Saved %1: still %n fields missing or invalid.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::RunActions</name>
        <message numerus="yes">
            <source>Delete %n runs…</source>
            <translation>
                <numerusform>Delete %n runs…</numerusform>
                <numerusform>Delete %n runs…</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Compare selected (%n)</source>
            <translation>
                <numerusform>Compare selected (%n)</numerusform>
                <numerusform>Compare selected (%n)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Config record for %n runs (%1):</source>
            <translation>
                <numerusform>Config record for %n runs (%1):</numerusform>
                <numerusform>Config record for %n runs (%1):</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n run(s) moved to record “%1”: %2. Re-evaluate the stages that used them.</source>
            <translation>
                <numerusform>%n run moved to record “%1”: %2. Re-evaluate the stages that used them.</numerusform>
                <numerusform>%n runs moved to record “%1”: %2. Re-evaluate the stages that used them.</numerusform>
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
            <source>metrics of %n step(s)</source>
            <translation>
                <numerusform>metrics of %n step</numerusform>
                <numerusform>metrics of %n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n expert-load block(s)</source>
            <translation>
                <numerusform>%n expert-load block</numerusform>
                <numerusform>%n expert-load blocks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Delete these %n runs from the project? %1</source>
            <translation>
                <numerusform>Delete these %n runs from the project? %1</numerusform>
                <numerusform>Delete these %n runs from the project? %1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Delete %n runs</source>
            <translation>
                <numerusform>Delete %n runs</numerusform>
                <numerusform>Delete %n runs</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Deleted %n run(s): %1.</source>
            <translation>
                <numerusform>Deleted %n run: %1.</numerusform>
                <numerusform>Deleted %n runs: %1.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::RunPage</name>
        <message numerus="yes">
            <source>%n communication sample(s)</source>
            <translation>
                <numerusform>%n communication sample</numerusform>
                <numerusform>%n communication samples</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>metrics at %n step(s)</source>
            <translation>
                <numerusform>metrics at %n step</numerusform>
                <numerusform>metrics at %n steps</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n expert-load block(s)</source>
            <translation>
                <numerusform>%n expert-load block</numerusform>
                <numerusform>%n expert-load blocks</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (%2, %n row(s))</source>
            <translation>
                <numerusform>%1 (%2, %n row)</numerusform>
                <numerusform>%1 (%2, %n rows)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %n more file(s)</source>
            <translation>
                <numerusform>… and %n more file</numerusform>
                <numerusform>… and %n more files</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>  … %n more (in the tooltip)</source>
            <translation>
                <numerusform>  … %n more (in the tooltip)</numerusform>
                <numerusform>  … %n more (in the tooltip)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n expert(s)</source>
            <translation>
                <numerusform>%n expert</numerusform>
                <numerusform>%n experts</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n layer(s)</source>
            <translation>
                <numerusform>%n layer</numerusform>
                <numerusform>%n layers</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n step(s) with expert load</source>
            <translation>
                <numerusform>%n step with expert load</numerusform>
                <numerusform>%n steps with expert load</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Over the last %n step(s) the busiest expert carries up to %1× the layer's mean (mean over layers and steps %2×); the limit is %3×.</source>
            <translation>
                <numerusform>Over the last %n step the busiest expert carries up to %1× the layer's mean (mean over layers and steps %2×); the limit is %3×.</numerusform>
                <numerusform>Over the last %n steps the busiest expert carries up to %1× the layer's mean (mean over layers and steps %2×); the limit is %3×.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>step anatomy of %n profiled step(s)</source>
            <translation>
                <numerusform>step anatomy of %n profiled step</numerusform>
                <numerusform>step anatomy of %n profiled steps</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::StepAnatomyView</name>
        <message numerus="yes">
            <source>Over %n complete step(s) the busiest device is busy %1 of its step on average and the mean device %2: the others wait %3 per step for the busiest.</source>
            <translation>
                <numerusform>Over %n complete step the busiest device is busy %1 of its step on average and the mean device %2: the others wait %3 per step for the busiest.</numerusform>
                <numerusform>Over %n complete steps the busiest device is busy %1 of its step on average and the mean device %2: the others wait %3 per step for the busiest.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n step(s) left out: a traced rank did not record them.</source>
            <translation>
                <numerusform>%n step left out: a traced rank did not record them.</numerusform>
                <numerusform>%n steps left out: a traced rank did not record them.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::WarningsBar</name>
        <message numerus="yes">
            <source>⚠ %n warning(s): %1  ▸</source>
            <translation>
                <numerusform>⚠ %n warning: %1  ▸</numerusform>
                <numerusform>⚠ %n warnings: %1  ▸</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>moewb::gui::WarningsDialog</name>
        <message numerus="yes">
            <source>▾ Hide the %n finding(s)</source>
            <translation>
                <numerusform>▾ Hide the %n finding</numerusform>
                <numerusform>▾ Hide the %n findings</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>▸ Show the %n finding(s)</source>
            <translation>
                <numerusform>▸ Show the %n finding</numerusform>
                <numerusform>▸ Show the %n findings</numerusform>
            </translation>
        </message>
    </context>
</TS>
