// The assessment sheet editor on a real project file, offscreen: edit ratings,
// notes, evidence and the cost estimate, save through ProjectStore, and see it all
// again in a fresh view on a reopened file. A screenshot goes to the build dir.
#include "AssessmentView.h"

#include "assessment/AssessmentSheet.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace moewb;

namespace {

QListWidgetItem* itemWithKey(QListWidget* list, const QString& key) {
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString() == key)
            return list->item(i);
    return nullptr;
}

} // namespace

class TestAssessmentView : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_path;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("sheet.moewb"));
        auto opened = store::ProjectStore::open(m_path);
        QVERIFY(opened);
        QVERIFY((*opened)->addConfigRecord(QStringLiteral("rec"), {}, false));
        for (const char* name : {"probe-a", "train-b"}) {
            store::RunData run;
            run.name = QLatin1String(name);
            run.recordName = QStringLiteral("rec");
            QVERIFY((*opened)->saveRun(run));
        }
    }

    void editSaveReload() {
        {
            auto opened = store::ProjectStore::open(m_path, store::OpenMode::MustExist);
            QVERIFY(opened);
            gui::AssessmentView view;
            view.resize(1100, 900);
            view.showAssessment(opened->get());
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));

            // Ten dimensions, with runs and stages to pick as evidence.
            QCOMPARE(view.evidenceList(0)->count(), 2 + 4);
            QVERIFY(!view.isModified());
            QVERIFY(!view.saveButton()->isEnabled());
            QVERIFY(view.statusLabel()->text().contains(QStringLiteral("Not saved")));

            QSignalSpy modified(&view, &gui::AssessmentView::modifiedChanged);
            QComboBox* rating = view.ratingCombo(4); // performance tuning
            rating->setCurrentIndex(rating->findData(QStringLiteral("partial")));
            QCOMPARE(modified.size(), 1);
            QVERIFY(view.saveButton()->isEnabled());
            view.notesEdit(4)->setFocus();
            QTest::keyClicks(view.notesEdit(4), QStringLiteral("Throughput explained; memory not measured"));
            itemWithKey(view.evidenceList(4), QStringLiteral("run:train-b"))->setCheckState(Qt::Checked);
            itemWithKey(view.evidenceList(4), QStringLiteral("stage:2"))->setCheckState(Qt::Checked);
            QComboBox* security = view.ratingCombo(9);
            security->setCurrentIndex(security->findData(QStringLiteral("not_applicable")));
            view.costTable()->item(2, 0)->setText(QStringLiteral("0.5 FTE for a quarter"));
            view.costTable()->item(2, 1)->setText(QStringLiteral("on-call for expert imbalance"));
            view.authorEdit()->setFocus();
            QTest::keyClicks(view.authorEdit(), QStringLiteral("Eve"));

            QDir().mkpath(QStringLiteral(MOEWB_BINARY_DIR "/screenshots"));
            view.grab().save(QStringLiteral(MOEWB_BINARY_DIR "/screenshots/assessment_view.png"));

            QSignalSpy saved(&view, &gui::AssessmentView::saved);
            QTest::mouseClick(view.saveButton(), Qt::LeftButton);
            QCOMPARE(saved.size(), 1);
            QVERIFY(!view.isModified());
            QCOMPARE(view.statusLabel()->text(), QStringLiteral("Saved"));
        }

        // Reopen the file: the store has it, and a fresh view shows it.
        auto opened = store::ProjectStore::open(m_path, store::OpenMode::MustExist);
        QVERIFY(opened);
        const assessment::Sheet stored = assessment::loadSheet(**opened);
        QCOMPARE(stored.author, QStringLiteral("Eve"));
        QCOMPARE(stored.dimensions[4].key, QStringLiteral("tuning"));
        QCOMPARE(stored.dimensions[4].rating, assessment::Rating::Partial);
        QCOMPARE(stored.dimensions[4].notes, QStringLiteral("Throughput explained; memory not measured"));
        QCOMPARE(stored.dimensions[4].evidence.size(), 2);
        QCOMPARE(stored.dimensions[4].evidence[0].run, QStringLiteral("train-b"));
        QCOMPARE(stored.dimensions[4].evidence[1].stage, 2);
        QCOMPARE(stored.dimensions[9].rating, assessment::Rating::NotApplicable);
        QCOMPARE(stored.costs[2].category, QStringLiteral("people"));
        QCOMPARE(stored.costs[2].estimate, QStringLiteral("0.5 FTE for a quarter"));
        QCOMPARE(assessment::ratedCount(stored), 2);

        gui::AssessmentView again;
        again.showAssessment(opened->get());
        QCOMPARE(again.ratingCombo(4)->currentData().toString(), QStringLiteral("partial"));
        QCOMPARE(again.notesEdit(4)->toPlainText(), QStringLiteral("Throughput explained; memory not measured"));
        QCOMPARE(itemWithKey(again.evidenceList(4), QStringLiteral("run:train-b"))->checkState(), Qt::Checked);
        QCOMPARE(itemWithKey(again.evidenceList(4), QStringLiteral("run:probe-a"))->checkState(), Qt::Unchecked);
        QCOMPARE(again.costTable()->item(2, 1)->text(), QStringLiteral("on-call for expert imbalance"));
        QVERIFY(again.statusLabel()->text().startsWith(QStringLiteral("Last saved")));
        QCOMPARE(again.currentSheet().dimensions, stored.dimensions);

        // Revert drops unsaved edits.
        again.notesEdit(0)->setPlainText(QStringLiteral("draft"));
        QVERIFY(again.isModified());
        again.revert();
        QVERIFY(!again.isModified());
        QVERIFY(again.notesEdit(0)->toPlainText().isEmpty());
    }

    void withoutProjectIsDisabled() {
        gui::AssessmentView view;
        view.showAssessment(nullptr);
        QVERIFY(!view.isEnabled());
        QVERIFY(!view.save());
    }
};

QTEST_MAIN(TestAssessmentView)
#include "test_assessment_view.moc"
