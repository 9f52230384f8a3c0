// moewb's terminal tables line up by terminal columns: a Chinese character takes two.
#include "TextTable.h"

#include <QTest>

using moewb::cli::TextTable;

class TestTextTable : public QObject {
    Q_OBJECT
private slots:
    void displayWidth() {
        QCOMPARE(TextTable::displayWidth(QStringLiteral("size")), 4);
        QCOMPARE(TextTable::displayWidth(QStringLiteral("中位数")), 6);
        QCOMPARE(TextTable::displayWidth(QStringLiteral("阶段 1：通信基线")), 16);
        QCOMPARE(TextTable::displayWidth(QStringLiteral("µs")), 2);
        QCOMPARE(TextTable::displayWidth(QStringLiteral("e\u0301")), 1); // e + combining acute
        QCOMPARE(TextTable::displayWidth(QString::fromUcs4(U"\U00020000x", 2)), 3);
    }
    void columnsLineUpWithWideText() {
        TextTable t;
        t.addColumn(QStringLiteral("大小 (B)"), TextTable::Align::Right);
        t.addColumn(QStringLiteral("运行"));
        t.addColumn(QStringLiteral("中位数 (µs)"), TextTable::Align::Right);
        t.addRow({QStringLiteral("1048576"), QStringLiteral("基线-a"), QStringLiteral("12.5")});
        t.addRow({QStringLiteral("64"), QStringLiteral("run-b"), QStringLiteral("1.25")});
        const QStringList lines = t.render().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        // Right-aligned last column: every line ends at the same terminal column.
        const qsizetype end = TextTable::displayWidth(lines[0]);
        for (const QString& l : lines)
            QCOMPARE(TextTable::displayWidth(l), end);
        // The second column starts at the same terminal column on every line.
        auto columnOf = [](const QString& line, const QString& cell) {
            return TextTable::displayWidth(line.left(line.indexOf(cell)));
        };
        QCOMPARE(columnOf(lines[1], QStringLiteral("基线-a")), columnOf(lines[0], QStringLiteral("运行")));
        QCOMPARE(columnOf(lines[2], QStringLiteral("run-b")), columnOf(lines[0], QStringLiteral("运行")));
    }
    void asciiUnchanged() {
        TextTable t;
        t.addColumn(QStringLiteral("a"));
        t.addColumn(QStringLiteral("bytes"), TextTable::Align::Right);
        t.addRow({QStringLiteral("long-name"), QStringLiteral("1")});
        QCOMPARE(t.render(), QStringLiteral("a          bytes\nlong-name      1\n"));
    }
};

QTEST_GUILESS_MAIN(TestTextTable)
#include "test_text_table.moc"
