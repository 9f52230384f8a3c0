// The assessment sheet editor on a real project file, offscreen: edit ratings,
// notes, evidence and the cost estimate, save through ProjectStore, and see it all
// again in a fresh view on a reopened file. A screenshot goes to the build dir.
#include "AssessmentView.h"

#include "assessment/AssessmentSheet.h"
#include "assessment/ProjectEvidence.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDir>
#include <QJsonObject>
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

    // "From the project": figures the project holds, worked out here by hand — one MoE
    // record (top-k 2, capacity factor 1.25, drop), one training run whose lm_loss is
    // 2.0 but 3.0 at step 25 (> 1.2 × the median 2.0 of the 20 steps before it: one
    // spike; the steps after it see a median of 2.0 and stay under), 1000 tokens/s per
    // GPU (1e9 / 1000 / 3600 = 277.8 GPU-hours per billion tokens) and a drop rate of
    // 1.2 % once; usability and security stay the team's.
    void fromTheProject() {
        const QString path = m_dir.filePath(QStringLiteral("evidence.moewb"));
        {
            auto opened = store::ProjectStore::open(path);
            QVERIFY(opened);
            const QJsonObject moe{{QStringLiteral("moe"),
                                   QJsonObject{{QStringLiteral("experts"), 8},
                                               {QStringLiteral("top_k"), 2},
                                               {QStringLiteral("capacity_factor"), 1.25},
                                               {QStringLiteral("overflow_policy"), QStringLiteral("drop")}}}};
            QVERIFY((*opened)->addConfigRecord(QStringLiteral("moe-rec"), moe, false));
            store::RunData run;
            run.name = QStringLiteral("train-x");
            run.recordName = QStringLiteral("moe-rec");
            for (int step = 0; step < 30; ++step) {
                run.stepMetrics.append({step, QStringLiteral("lm_loss"), step == 25 ? 3.0 : 2.0});
                run.stepMetrics.append({step, QStringLiteral("tokens_per_s_per_gpu"), 1000.0});
            }
            run.stepMetrics.append({10, QStringLiteral("drop_rate"), 0.012});
            QVERIFY((*opened)->saveRun(run));
        }
        auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        QVERIFY(opened);
        gui::AssessmentView view;
        view.resize(1100, 900);
        view.showAssessment(opened->get());
        const QList<assessment::Dimension> dims = assessment::dimensions();
        auto text = [&](const QString& key) {
            for (int i = 0; i < dims.size(); ++i)
                if (dims[i].key == key)
                    return view.projectEvidenceLabel(i)->text();
            return QString();
        };
        QVERIFY2(text(QStringLiteral("principles")).contains(QStringLiteral("top-k 2; capacity factor 1.25; overflow policy drop")),
                 qPrintable(text(QStringLiteral("principles"))));
        QVERIFY2(text(QStringLiteral("stability")).contains(QStringLiteral("train-x (1 step")),
                 qPrintable(text(QStringLiteral("stability"))));
        QVERIFY2(text(QStringLiteral("stability")).contains(QStringLiteral("1.2 %")), qPrintable(text(QStringLiteral("stability"))));
        QVERIFY2(text(QStringLiteral("cost")).contains(QStringLiteral("train-x: 277.8 GPU-hours per billion tokens")),
                 qPrintable(text(QStringLiteral("cost"))));
        QVERIFY(text(QStringLiteral("cost")).startsWith(QStringLiteral("<b>From the project:</b>")));
        for (const char* key : {"usability", "security"})
            QVERIFY2(text(QLatin1String(key)).contains(QStringLiteral("for the team to fill")), key);
        QCOMPARE(assessment::countLossSpikes({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2.5, 2}), 1);
        QCOMPARE(assessment::countLossSpikes({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2.3, 2}), 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QDir().mkpath(QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui"));
        QVERIFY(view.grab().save(QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/assessment-from-project.png")));
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
