// TableFit and NumberCell (app/gui), shared by the runs list, the comparison of runs and
// the stage pages' results: a real QTableWidget, shown offscreen at the widths the
// window gives it.
#include "NumberCell.h"
#include "TableFit.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>
#include <QTextBoundaryFinder>
#include <QtTest>

using namespace moewb::gui;

namespace {

const QStringList kHeaders{QStringLiteral("Run"), QStringLiteral("Kind"), QStringLiteral("Config record"),
                           QStringLiteral("Cluster"), QStringLiteral("Final loss"), QStringLiteral("Validation loss"),
                           QStringLiteral("Tokens/s/GPU"), QStringLiteral("Drop rate"), QStringLiteral("Steps"),
                           QStringLiteral("Created")};
enum { Run, Kind, Record, Cluster, FinalLoss, ValLoss, Throughput, DropRate, Steps, Created };

// Eight runs as the demo names them, and numbers as the runs list writes them.
void fill(QTableWidget* table) {
    const QStringList runs{QStringLiteral("demo-probe-a100-ib-2n"),   QStringLiteral("demo-probe-h800-roce-4n"),
                           QStringLiteral("demo-train-dense-1.2b"),   QStringLiteral("demo-train-moe-cf1.0"),
                           QStringLiteral("demo-train-moe-cf1.25"),   QStringLiteral("demo-train-moe-cf1.5"),
                           QStringLiteral("demo-train-moe-dropless"), QStringLiteral("demo-train-moe-32e-top4-draft")};
    table->setColumnCount(int(kHeaders.size()));
    table->setHorizontalHeaderLabels(kHeaders);
    table->setRowCount(int(runs.size()));
    for (int r = 0; r < runs.size(); ++r) {
        table->setItem(r, Run, new QTableWidgetItem(runs[r]));
        table->setItem(r, Kind, new QTableWidgetItem(r < 2 ? QStringLiteral("probe") : QStringLiteral("training")));
        table->setItem(r, Record, new QTableWidgetItem(QStringLiteral("demo-moe-16e-top2-cf1.25-h800")));
        table->setItem(r, Cluster, new QTableWidgetItem(QStringLiteral("demo-a100-ib")));
        table->setItem(r, FinalLoss, new NumberCell(2.8 + r / 100.0, QString::number(2.8 + r / 100.0, 'f', 3)));
        table->setItem(r, ValLoss, new NumberCell(std::nullopt, QStringLiteral("—")));
        table->setItem(r, Throughput, new NumberCell(18387.25 + r, QString::number(18387.25 + r, 'f', 1)));
        table->setItem(r, DropRate, new NumberCell(0.0383 * r, QString::number(3.83 * r, 'f', 2)));
        table->setItem(r, Steps, new NumberCell(qint64(2000 + 100000 * r)));
        table->setItem(r, Created, new QTableWidgetItem(QStringLiteral("2026-12-06 15:00")));
    }
}

int columnsWidth(const QTableWidget& table) {
    int sum = 0;
    for (int c = 0; c < table.columnCount(); ++c)
        if (!table.horizontalHeader()->isSectionHidden(c))
            sum += table.horizontalHeader()->sectionSize(c);
    return sum;
}

// The widest text of column c's cells, measured here.
int widestCell(const QTableWidget& table, int c) {
    int widest = 0;
    for (int r = 0; r < table.rowCount(); ++r)
        widest = std::max(widest, table.fontMetrics().horizontalAdvance(table.item(r, c)->text()));
    return widest;
}

} // namespace

class TestTableFit : public QObject {
    Q_OBJECT
private slots:
    // At the runs page's width in a 1366 px window (and narrower), the columns fill the
    // view without a horizontal scroll bar, every number is shown whole, and every
    // header word fits its column (headers wrap; the header grows to show them).
    void fitsWithoutScrollingNumbersWhole_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1366 window") << 1030;
        QTest::newRow("narrow") << 760;
    }
    void fitsWithoutScrollingNumbersWhole() {
        QFETCH(int, width);
        QTableWidget table;
        fill(&table);
        TableFit fit(&table, {Run, Record, Cluster});
        table.resize(width, 420);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        fit.fit();
        QCOMPARE(table.horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        QVERIFY2(columnsWidth(table) <= table.viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(columnsWidth(table)).arg(table.viewport()->width())));
        for (int c : {FinalLoss, Throughput, DropRate, Steps})
            QVERIFY2(table.horizontalHeader()->sectionSize(c) >= widestCell(table, c),
                     qPrintable(kHeaders[c] + QStringLiteral(": %1 px for %2 px of number")
                                                  .arg(table.horizontalHeader()->sectionSize(c))
                                                  .arg(widestCell(table, c))));
        const QHeaderView* header = table.horizontalHeader();
        const QFontMetrics fm(header->font());
        const int chrome = 2 * table.style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 16;
        int lines = 1;
        for (int c = 0; c < table.columnCount(); ++c) {
            const int room = header->sectionSize(c) - chrome;
            // The pieces between line-break opportunities (spaces, after a slash).
            QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, kHeaders[c]);
            for (qsizetype from = 0; breaks.toNextBoundary() >= 0; from = breaks.position()) {
                const QString word = kHeaders[c].mid(from, breaks.position() - from).trimmed();
                QVERIFY2(fm.horizontalAdvance(word) <= room, qPrintable(kHeaders[c] + QStringLiteral(": ") + word));
            }
            if (fm.horizontalAdvance(kHeaders[c]) > room)
                lines = 2; // wraps
        }
        QVERIFY2(header->height() >= lines * fm.height(), qPrintable(QString::number(header->height())));
        // Beside the browser of a 1366 px window the run's name (the first elastic
        // column) reads whole.
        if (width >= 1000)
            QVERIFY2(table.horizontalHeader()->sectionSize(Run) >= widestCell(table, Run),
                     qPrintable(QString::number(table.horizontalHeader()->sectionSize(Run))));
        // Names elide in the middle (what tells runs apart is at their end).
        QCOMPARE(table.textElideMode(), Qt::ElideMiddle);
    }

    // Room left over goes to the elastic columns, alike; the view is filled exactly.
    void leftoverGoesToElasticColumns() {
        QTableWidget table;
        fill(&table);
        TableFit fit(&table, {Run, Record});
        table.resize(2400, 420);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        fit.fit();
        QCOMPARE(columnsWidth(table), table.viewport()->width());
        const QHeaderView* header = table.horizontalHeader();
        // Each elastic column is far wider than its text; the others are not.
        QVERIFY(header->sectionSize(Run) > widestCell(table, Run) + 300);
        QVERIFY(header->sectionSize(Record) > widestCell(table, Record) + 300);
        QVERIFY(header->sectionSize(Steps) < widestCell(table, Steps) + 100);
        QVERIFY(std::abs(header->sectionSize(Run) - widestCell(table, Run) -
                         (header->sectionSize(Record) - widestCell(table, Record))) <= 2);
    }

    // A hidden column takes no width; the others share the view.
    void hiddenColumnTakesNothing() {
        QTableWidget table;
        fill(&table);
        TableFit fit(&table, {Run});
        table.resize(900, 420);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        fit.fit();
        // The config record column is capped at this width (its names are long)...
        const int recordBefore = table.horizontalHeader()->sectionSize(Record);
        QVERIFY(recordBefore < widestCell(table, Record));
        table.horizontalHeader()->hideSection(Created);
        fit.fit();
        // ...and gets room the hidden column gave up.
        QVERIFY(columnsWidth(table) <= table.viewport()->width());
        QVERIFY2(table.horizontalHeader()->sectionSize(Record) > recordBefore,
                 qPrintable(QStringLiteral("%1 -> %2").arg(recordBefore).arg(table.horizontalHeader()->sectionSize(Record))));
    }

    // Numbers sort as numbers (9 before 10), a missing value last in either direction.
    void numberCellsSortNumericallyBlanksLast() {
        QTableWidget table(4, 1);
        table.setItem(0, 0, new NumberCell(qint64(10)));
        table.setItem(1, 0, new NumberCell(std::nullopt, QStringLiteral("—")));
        table.setItem(2, 0, new NumberCell(qint64(9)));
        table.setItem(3, 0, new NumberCell(100.5, QStringLiteral("100.5")));
        QCOMPARE(table.item(0, 0)->textAlignment(), int(Qt::AlignRight | Qt::AlignVCenter));
        table.setSortingEnabled(true);
        const auto column = [&] {
            QStringList texts;
            for (int r = 0; r < table.rowCount(); ++r)
                texts << table.item(r, 0)->text();
            return texts;
        };
        table.sortByColumn(0, Qt::AscendingOrder);
        QCOMPARE(column(), (QStringList{"9", "10", "100.5", "—"}));
        table.sortByColumn(0, Qt::DescendingOrder);
        QCOMPARE(column(), (QStringList{"100.5", "10", "9", "—"}));
    }
};

QTEST_MAIN(TestTableFit)
#include "test_table_fit.moc"
