#pragma once
// Two RankTraces compared field by field (QCOMPARE inside: call through QVERIFY's
// failure path, i.e. from a test function, then check QTest::currentTestFailed()).
#include "anatomy/RankTrace.h"

#include <QtTest>

namespace moewb::testing {

inline void compareRankTraces(const anatomy::RankTrace& a, const anatomy::RankTrace& b) {
    QCOMPARE(a.shown, b.shown);
    QCOMPARE(a.format, b.format);
    QCOMPARE(a.rank, b.rank);
    QCOMPARE(a.worldSize, b.worldSize);
    QCOMPARE(a.baseTimeNs, b.baseTimeNs);
    QCOMPARE(a.gpu, b.gpu);
    QCOMPARE(a.events, b.events);
    QCOMPARE(a.unassigned, b.unassigned);
    QCOMPARE(a.bytesRead, b.bytesRead);
    QCOMPARE(a.names, b.names);
    QCOMPARE(a.groups.size(), b.groups.size());
    for (qsizetype g = 0; g < a.groups.size(); ++g) {
        QCOMPARE(a.groups[g].name, b.groups[g].name);
        QCOMPARE(a.groups[g].description, b.groups[g].description);
        QCOMPARE(a.groups[g].ranks, b.groups[g].ranks);
    }
    QCOMPARE(a.steps.size(), b.steps.size());
    for (qsizetype s = 0; s < a.steps.size(); ++s) {
        const anatomy::StepTrace& x = a.steps[s];
        const anatomy::StepTrace& y = b.steps[s];
        QCOMPARE(x.step, y.step);
        QCOMPARE(x.start, y.start);
        QCOMPARE(x.end, y.end);
        QVERIFY(x.compute == y.compute);
        QVERIFY(x.memcpy == y.memcpy);
        QCOMPARE(x.comm.size(), y.comm.size());
        for (qsizetype c = 0; c < x.comm.size(); ++c) {
            const anatomy::CommCall& p = x.comm[c];
            const anatomy::CommCall& q = y.comm[c];
            QCOMPARE(p.start, q.start);
            QCOMPARE(p.end, q.end);
            QCOMPARE(p.kind, q.kind);
            QCOMPARE(p.group, q.group);
            QCOMPARE(p.seq, q.seq);
            QCOMPARE(p.inBytes, q.inBytes);
            QCOMPARE(p.outBytes, q.outBytes);
            QCOMPARE(p.splitsCut, q.splitsCut);
            QCOMPARE(p.name, q.name);
            QCOMPARE(p.collective, q.collective);
        }
    }
}

} // namespace moewb::testing
