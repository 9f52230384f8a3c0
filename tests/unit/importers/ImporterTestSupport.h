#pragma once
// Shared by the importer tests: fixture paths and the malformed corpus
// (tests/fixtures/importers/malformed/EXPECTED.tsv: file, line, field).
#include "importers/Importer.h"

#include <QFile>
#include <QtTest>

namespace importer_test {

inline QString fixture(const QString& relative) {
    return QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/importers/") + relative;
}

inline QByteArray readFixture(const QString& relative) {
    QFile f(fixture(relative));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", qPrintable(relative));
    return f.readAll();
}

struct MalformedCase {
    QString relative; // "<format>/<name>"
    qint64 line = 0;
    QString field; // "*" = any
};

inline QList<MalformedCase> malformedCases(const QString& format = {}) {
    QList<MalformedCase> cases;
    const QByteArray tsv = readFixture(QStringLiteral("malformed/EXPECTED.tsv"));
    for (const QByteArray& raw : tsv.split('\n')) {
        if (raw.isEmpty() || raw.startsWith('#'))
            continue;
        const QList<QByteArray> cols = raw.split('\t');
        if (cols.size() != 3)
            qFatal("malformed/EXPECTED.tsv: bad row %s", raw.constData());
        MalformedCase c{QString::fromUtf8(cols[0]), cols[1].toLongLong(), QString::fromUtf8(cols[2])};
        if (format.isEmpty() || c.relative.startsWith(format + QLatin1Char('/')))
            cases << c;
    }
    return cases;
}

// QTest data rows: file (absolute), format, line, field.
inline void addMalformedRows(const QString& format) {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("format");
    QTest::addColumn<qint64>("line");
    QTest::addColumn<QString>("field");
    const auto cases = malformedCases(format);
    if (cases.isEmpty())
        qFatal("no malformed fixtures for %s", qPrintable(format));
    for (const MalformedCase& c : cases)
        QTest::newRow(qPrintable(c.relative)) << fixture(QStringLiteral("malformed/") + c.relative)
                                              << c.relative.section(QLatin1Char('/'), 0, 0) << c.line << c.field;
}

// The error names the file, the line and the field, in that order: "file:line: field: message".
inline void verifyRejected(const moewb::importers::ImportResult& r, const QString& path, qint64 line,
                           const QString& field) {
    QVERIFY2(!r.hasValue(), qPrintable(path + QStringLiteral(" was accepted")));
    const auto& e = r.error();
    QCOMPARE(e.file, path);
    QCOMPARE(e.line, line);
    if (field != QLatin1String("*"))
        QCOMPARE(e.field, field);
    QVERIFY(!e.message.isEmpty());
    QString prefix = path + (line > 0 ? QStringLiteral(":%1: ").arg(line) : QStringLiteral(": "));
    if (!e.field.isEmpty())
        prefix += e.field + QStringLiteral(": ");
    QVERIFY2(e.text().startsWith(prefix), qPrintable(e.text()));
    QVERIFY(!e.unreadable);
}

// Every bad-input class has at least one corpus file per format.
inline void verifyClassesCovered(const QString& format) {
    const auto cases = malformedCases(format);
    auto has = [&](std::initializer_list<const char*> words) {
        for (const auto& c : cases)
            for (const char* w : words)
                if (c.relative.section(QLatin1Char('/'), 1).startsWith(QLatin1String(w)))
                    return true;
        return false;
    };
    QVERIFY2(has({"truncated"}), "truncated");
    QVERIFY2(has({"nan", "inf"}), "NaN/Inf");
    QVERIFY2(has({"absurd"}), "absurd");
    QVERIFY2(has({"wrong-type"}), "wrong type");
    QVERIFY2(cases.size() >= 5, "malformed");
}

} // namespace importer_test

#define MOEWB_IMPORTER_CORPUS_TESTS(FORMAT, PARSE_CLASS)                                                     \
    void rejectsMalformedCorpus_data() { importer_test::addMalformedRows(QStringLiteral(FORMAT)); }            \
    void rejectsMalformedCorpus() {                                                                          \
        QFETCH(QString, path);                                                                               \
        QFETCH(qint64, line);                                                                                \
        QFETCH(QString, field);                                                                              \
        importer_test::verifyRejected(PARSE_CLASS::importFile(path), path, line, field);                     \
        /* The same through the forced-format entry point, and in memory. */                                 \
        importer_test::verifyRejected(moewb::importers::importFile(path, QStringLiteral(FORMAT)), path, line, field); \
        QFile f(path);                                                                                       \
        QVERIFY(f.open(QIODevice::ReadOnly));                                                                \
        importer_test::verifyRejected(PARSE_CLASS::parse(f.readAll(), path), path, line, field);             \
    }                                                                                                        \
    void everyBadInputClassCovered() { importer_test::verifyClassesCovered(QStringLiteral(FORMAT)); }
