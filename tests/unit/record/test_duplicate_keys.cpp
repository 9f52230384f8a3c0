// Duplicate keys in a config record: QJsonDocument keeps the last one silently; the
// record refuses them (as the importers do), naming both lines and the path.
#include "record/DuplicateKeys.h"
#include "record/RecordJson.h"

#include <QtTest>

using namespace moewb::record;

class TestDuplicateKeys : public QObject {
    Q_OBJECT

private slots:
    void topLevelDuplicateNamesBothLines() {
        const QByteArray text = "{\n"
                                "  \"name\": \"a\",\n"
                                "  \"moe\": {\"experts\": 8},\n"
                                "  \"name\": \"b\"\n"
                                "}\n";
        const ParsedRecord parsed = parseRecord(text);
        QCOMPARE(parsed.issues.size(), 1);
        QCOMPARE(parsed.issues[0].field, QStringLiteral("name"));
        QCOMPARE(parsed.issues[0].message,
                 QStringLiteral("line 4: key \"name\" of the record appears again (first on line 2); a key may "
                                "appear only once"));
    }

    void nestedAndEscapedDuplicates() {
        const QByteArray text = "{\"moe\": {\n"
                                "  \"top_k\": 2,\n"
                                "  \"experts\": 8,\n"
                                "  \"top\\u005fk\": 8\n"
                                "},\n"
                                "\"runs\": [{\"a\": 1}, {\"a\": 2,\n"
                                " \"a\": 3}]}";
        const QList<FieldIssue> issues = duplicateKeyIssues(text);
        QCOMPARE(issues.size(), 2);
        QCOMPARE(issues[0].field, QStringLiteral("moe.top_k"));
        QVERIFY(issues[0].message.startsWith(QStringLiteral("line 4: key \"top_k\" of moe appears again (first on "
                                                             "line 2)")));
        QCOMPARE(issues[1].field, QStringLiteral("runs[1].a"));
        QVERIFY(issues[1].message.startsWith(QStringLiteral("line 7: key \"a\" of runs[1] appears again (first on "
                                                            "line 6)")));
    }

    void equalKeysInDifferentObjectsAreFine() {
        const QByteArray text = "{\"a\": {\"x\": 1, \"s\": \"{\\\"x\\\": 2, \\\"x\\\": 3}\"}, \"b\": {\"x\": 1}, "
                                "\"c\": [{\"x\": 1}, {\"x\": 2}]}";
        QVERIFY(duplicateKeyIssues(text).isEmpty());
        for (const FieldIssue& issue : parseRecord(text).issues) // type errors of a non-record, no duplicates
            QVERIFY2(!issue.message.contains(QStringLiteral("appears again")), qPrintable(issue.message));
    }
};

QTEST_GUILESS_MAIN(TestDuplicateKeys)
#include "test_duplicate_keys.moc"
