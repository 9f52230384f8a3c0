// The workbench at 200 % scaling (QT_SCALE_FACTOR=2, set before the application
// starts), offscreen, on the demo project: a 1280×800 window (2560×1600 device
// pixels, a 13" high-density screen) walked through the start screen, the overview,
// the four stage pages after stages 1–4 are evaluated (stage 3 overridden), a record,
// the runs, the Learn and Assessment pages, and the override and import dialogs. On
// each: no page needs horizontal scrolling, no label or button text is cut (its
// size hint fits its geometry; a word-wrapped label is tall enough for its text), and
// the window keeps the size asked for (no minimum size wider than the screen). Every
// view is saved as tests/artifacts/gui/scaled/*.png at device resolution.
#include "LayoutChecks.h"
#include "GuiTestSupport.h"
#include "ImportDialog.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"
#include "RecordEditor.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "demo/DemoProject.h"
#include "store/ProjectStore.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QBoxLayout>
#include <QGridLayout>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace moewb;
using Kind = gui::StageState::Kind;

using moewb::testing::overlappingWidgets;

namespace {

const QSize kWindow(1280, 800); // logical pixels; 2560×1600 on the device

QString describe(const QWidget* w) {
    QString text;
    if (auto* l = qobject_cast<const QLabel*>(w))
        text = l->text();
    else if (auto* b = qobject_cast<const QAbstractButton*>(w))
        text = b->text();
    return QStringLiteral("%1 \"%2\" [%3]")
        .arg(QLatin1String(w->metaObject()->className()), w->objectName(), text.left(60));
}

bool insideItemView(const QWidget* w, const QWidget* root) {
    for (const QWidget* p = w->parentWidget(); p && p != root; p = p->parentWidget())
        if (qobject_cast<const QAbstractItemView*>(p))
            return true;
    return false;
}

} // namespace

class TestScaling : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    static QString artifacts() {
        const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/scaled");
        QDir().mkpath(dir);
        return dir;
    }

    gui::StageState state(int stage) const { return m_window->browser()->stageStateOf(stage); }
    QPushButton* pageButton(int stage, const char* name) const {
        return m_window->stageFrame(stage)->page()->findChild<QPushButton*>(QLatin1String(name));
    }

    // Saves root at device resolution and checks what the user sees of it.
    void check(QWidget* root, const QString& name) {
        QApplication::processEvents();
        const QImage image = root->grab().toImage();
        QVERIFY(image.save(artifacts() + QLatin1Char('/') + name + QStringLiteral(".png")));
        QCOMPARE(image.width(), int(root->width() * root->devicePixelRatioF()));

        QStringList problems;
        for (QWidget* w : root->findChildren<QWidget*>()) {
            if (!w->isVisible() || w->window() != root->window() || insideItemView(w, root))
                continue;
            // No horizontal scrolling: a scroll area's content fits its width. Tables
            // and lists may scroll their columns; pages and text may not.
            if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) {
                if (!qobject_cast<QAbstractItemView*>(w) && area->horizontalScrollBar()->maximum() > 0) {
                    // Name what is too wide: the innermost widgets wider than the view.
                    QStringList wide;
                    const int room = area->viewport()->width();
                    for (QWidget* c : area->findChildren<QWidget*>())
                        if (c->isVisible() && c->minimumSizeHint().width() > room &&
                            std::none_of(c->children().begin(), c->children().end(), [room](QObject* o) {
                                auto* cw = qobject_cast<QWidget*>(o);
                                return cw && cw->isVisible() && cw->minimumSizeHint().width() > room;
                            }))
                            wide << QStringLiteral("%1 (%2 px)").arg(describe(c)).arg(c->minimumSizeHint().width());
                    problems << QStringLiteral("%1 scrolls sideways by %2 px; wider than its %3 px: %4")
                                    .arg(describe(w))
                                    .arg(area->horizontalScrollBar()->maximum())
                                    .arg(room)
                                    .arg(wide.join(QStringLiteral(", ")));
                }
                continue;
            }
            if (auto* label = qobject_cast<QLabel*>(w)) {
                if (label->text().isEmpty() || !label->pixmap().isNull())
                    continue;
                if (label->wordWrap()) {
                    const int needed = label->heightForWidth(label->width());
                    if (needed > label->height() + 1)
                        problems << QStringLiteral("%1 needs %2 px height, has %3")
                                        .arg(describe(w))
                                        .arg(needed)
                                        .arg(label->height());
                } else if (label->sizeHint().width() > label->width() + 1) {
                    problems << QStringLiteral("%1 needs %2 px width, has %3")
                                    .arg(describe(w))
                                    .arg(label->sizeHint().width())
                                    .arg(label->width());
                }
            } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
                if (button->text().isEmpty())
                    continue;
                const QSize hint = button->minimumSizeHint().expandedTo(QSize(0, 0));
                const QSize want = qobject_cast<QPushButton*>(w) ? button->sizeHint() : hint;
                if (want.width() > button->width() + 1 || hint.height() > button->height() + 1)
                    problems << QStringLiteral("%1 needs %2×%3 px, has %4×%5")
                                    .arg(describe(w))
                                    .arg(want.width())
                                    .arg(hint.height())
                                    .arg(button->width())
                                    .arg(button->height());
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(name + QStringLiteral(":\n  ") + problems.join(QStringLiteral("\n  "))));
    }

    void checkPage(const QString& name) {
        QCOMPARE(m_window->size(), kWindow); // nothing forced the window wider or taller
        check(m_window.get(), name);
    }

private slots:
    void initTestCase() {
        QCOMPARE(qApp->devicePixelRatio(), 2.0); // QT_SCALE_FACTOR=2 took effect
        const QString error = testing::startWithWindow(m_dir, QStringLiteral("test_scaling"), kWindow, m_window);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void startScreen() {
        checkPage(QStringLiteral("start-screen"));
        const QString demo = testing::openDemo(*m_window);
        QVERIFY2(demo.isEmpty(), qPrintable(demo));
        checkPage(QStringLiteral("overview"));
    }

    void stagePages() {
        const Kind expected[] = {Kind::Passed, Kind::Passed, Kind::Stopped};
        for (int stage = 1; stage <= 3; ++stage) {
            m_window->showStage(stage);
            QPushButton* evaluate = pageButton(stage, "evaluateButton");
            QTRY_VERIFY(evaluate->isVisible() && evaluate->isEnabled());
            evaluate->click();
            QTRY_VERIFY_WITH_TIMEOUT(state(stage).kind != Kind::NotStarted && state(stage).kind != Kind::Running,
                                     60000);
            QCOMPARE(state(stage).kind, expected[stage - 1]);
            checkPage(QStringLiteral("stage%1").arg(stage));
        }
        // The override dialog, then stage 4.
        bool shown = false;
        QTimer::singleShot(300, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            shown = true;
            check(dialog, QStringLiteral("override-dialog"));
            if (auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("justification")))
                text->setPlainText(QStringLiteral("Accepted for the demo walk-through."));
            dialog->accept();
            if (dialog->isVisible())
                dialog->reject();
        });
        pageButton(3, "overrideButton")->click();
        QVERIFY(shown);
        QTRY_COMPARE(state(3).kind, Kind::Overridden);
        m_window->showStage(4);
        QPushButton* evaluate = pageButton(4, "evaluateButton");
        QTRY_VERIFY(evaluate->isVisible() && evaluate->isEnabled());
        evaluate->click();
        QTRY_VERIFY2_WITH_TIMEOUT(state(4).kind != Kind::NotStarted && state(4).kind != Kind::Running,
                                  qPrintable(state(4).words + QStringLiteral(": ") + state(4).detail + QStringLiteral(" / ") +
                                             m_window->statusBar()->currentMessage()),
                                  60000);
        checkPage(QStringLiteral("stage4"));
        m_window->showStage(3);
        checkPage(QStringLiteral("stage3-overridden"));
    }

    // The evaluated stage pages at this window's size, a tall one and a short one:
    // no widget spills over its neighbour (a table kept at its height in a smaller
    // slot once covered stage 2's loss plot in a tall window).
    void stagePagesNeverOverlap() {
        const QSize sizes[] = {kWindow, QSize(1280, 1400), QSize(1280, 560)};
        for (int stage = 1; stage <= 4; ++stage) {
            m_window->showStage(stage);
            for (const QSize& size : sizes) {
                m_window->resize(size);
                for (int i = 0; i < 5; ++i) // layout requests settle over several rounds
                    QTest::qWait(20);
                const QStringList overlaps = overlappingWidgets(m_window->stageFrame(stage));
                if (!overlaps.isEmpty())
                    m_window->grab().save(artifacts() + QStringLiteral("/stage%1-overlap-%2x%3.png")
                                                            .arg(stage)
                                                            .arg(size.width())
                                                            .arg(size.height()));
                QVERIFY2(overlaps.isEmpty(), qPrintable(QStringLiteral("stage %1 at %2x%3:\n  %4")
                                                            .arg(stage)
                                                            .arg(size.width())
                                                            .arg(size.height())
                                                            .arg(overlaps.join(QStringLiteral("\n  ")))));
            }
            m_window->resize(kWindow);
        }
        QTest::qWait(50);
        QCOMPARE(m_window->size(), kWindow);
    }

    void otherPages() {
        using K = gui::ProjectBrowser::ItemKind;
        gui::ProjectBrowser* b = m_window->browser();
        for (const auto& r : m_window->project()->configRecords()) {
            QVERIFY(b->select(K::Record, r.name));
            checkPage(QStringLiteral("record-%1").arg(r.complete ? QStringLiteral("complete")
                                                                  : QStringLiteral("draft")));
        }
        QVERIFY(b->select(K::RunsSection));
        checkPage(QStringLiteral("runs"));
        if (m_window->costPage()) {
            QVERIFY(b->select(K::LearnCost));
            checkPage(QStringLiteral("learn-cost"));
            // Too narrow here for the inputs beside the outputs: stacked, not scrolled sideways.
            auto* body = m_window->costPage()->findChild<QWidget*>(QStringLiteral("costBody"));
            auto* inputs = m_window->costPage()->findChild<QWidget*>(QStringLiteral("costInputs"));
            QVERIFY(body && inputs && body->isAncestorOf(inputs));
            QVERIFY(inputs->geometry().bottom() <
                    m_window->costPage()->findChild<QWidget*>(QStringLiteral("costOutputs"))->geometry().top());
            // A wider window has room for both columns: the inputs go back beside the outputs.
            m_window->resize(2000, kWindow.height());
            QTRY_VERIFY(!body->isAncestorOf(inputs));
            QVERIFY(inputs->geometry().right() <
                    m_window->costPage()->findChild<QWidget*>(QStringLiteral("costScroll"))->geometry().left());
            m_window->resize(kWindow);
            QTRY_VERIFY(body->isAncestorOf(inputs));
            checkPage(QStringLiteral("learn-cost"));
            QVERIFY(b->select(K::LearnRouting));
            checkPage(QStringLiteral("learn-routing"));
        }
        if (m_window->assessmentPage()) {
            QVERIFY(b->select(K::Assessment));
            checkPage(QStringLiteral("assessment"));
        }
    }

    void importDialog() {
        gui::ImportDialog* dialog = m_window->openImportDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        check(dialog, QStringLiteral("import-dialog"));
        dialog->reject();
    }
};

int main(int argc, char** argv) {
    // Before the application exists: the scale factor is read once, at start.
    if (qEnvironmentVariableIsEmpty("QT_SCALE_FACTOR"))
        qputenv("QT_SCALE_FACTOR", "2");
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestScaling test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_scaling.moc"
