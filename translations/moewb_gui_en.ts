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
        <name>moewb::gui::WarningsBar</name>
        <message numerus="yes">
            <source>⚠ %n warning(s): %1  ▸</source>
            <translation>
                <numerusform>⚠ %n warning: %1  ▸</numerusform>
                <numerusform>⚠ %n warnings: %1  ▸</numerusform>
            </translation>
        </message>
    </context>
</TS>
