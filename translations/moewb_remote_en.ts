<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>RemoteLaunch</name>
        <message numerus="yes">
            <source>digesting %n trace file(s), %1 MB</source>
            <translation>
                <numerusform>digesting %n trace file, %1 MB</numerusform>
                <numerusform>digesting %n trace files, %1 MB</numerusform>
            </translation>
        </message>
    </context>
</TS>
