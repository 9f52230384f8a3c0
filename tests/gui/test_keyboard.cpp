// The whole wizard with the keyboard only, offscreen, on the demo project: the start
// screen's demo button is reached with Tab and pressed with Space; the browser takes
// the focus and its arrows walk the pages; Ctrl+1..4 show the stages; Evaluate is
// reached with Tab and pressed with Space (stage 1), F5 (stage 2) and Space (stages
// 3, 4); the stage 3 override is opened with Space, closed with Escape, opened again,
// refused while the justification is empty, then typed and confirmed with Return;
// the record editor's New record dialog and the import dialog (Ctrl+I) open and
// close with Escape. No mouse event and no direct call on a widget drives the walk.
//
// On every page and dialog on the way, the focus chain (Tab, and Shift+Tab backwards)
// is checked against the controls a user can operate there: each visible, enabled
// control is reached, nothing holds the focus (a Tab trap), the order follows the
// layout (no jump back up within a column), a label that names an input has it as
// buddy (the dialogs' labels with a working Alt mnemonic), and the focused control
// looks different from the unfocused one (a visible focus).
#include "GuiTestSupport.h"
#include "ImportDialog.h"
#include "MainWindow.h"
#include "ProjectBrowser.h"
#include "ProjectOverview.h"
#include "RecordEditor.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "demo/DemoProject.h"
#include "plots/PlotView.h"
#include "store/ProjectStore.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QFormLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace moewb;
using Kind = gui::StageState::Kind;

namespace {

constexpr int kMaxTabs = 400; // more presses than any page has controls

QString describe(const QWidget* w) {
    if (!w)
        return QStringLiteral("(nothing)");
    QString text;
    if (auto* b = qobject_cast<const QAbstractButton*>(w))
        text = b->text();
    return QStringLiteral("%1 \"%2\" %3")
        .arg(QLatin1String(w->metaObject()->className()), w->objectName(), text.left(40));
}

// Composite controls whose parts are not focus stops of their own.
bool insideComposite(const QWidget* w, const QWidget* root) {
    for (const QWidget* p = w->parentWidget(); p && p != root; p = p->parentWidget())
        if (qobject_cast<const QAbstractItemView*>(p) || qobject_cast<const QAbstractSpinBox*>(p) ||
            qobject_cast<const QComboBox*>(p) || qobject_cast<const QTabBar*>(p) ||
            qobject_cast<const QScrollBar*>(p) || qobject_cast<const plots::PlotView*>(p))
            return true;
    return false;
}

// What a user operates: buttons, inputs, lists, sliders, tab bars, plots (their
// context menu exports), labels with keyboard-accessible links.
bool isInteractive(const QWidget* w) {
    if (qobject_cast<const QHeaderView*>(w) || qobject_cast<const QScrollBar*>(w))
        return false;
    if (auto* label = qobject_cast<const QLabel*>(w))
        return label->textInteractionFlags() & Qt::LinksAccessibleByKeyboard;
    if (auto* view = qobject_cast<const QAbstractItemView*>(w)) // an empty list offers nothing
        return view->model() && view->model()->rowCount(view->rootIndex()) > 0;
    return qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QLineEdit*>(w) ||
           qobject_cast<const QAbstractSpinBox*>(w) || qobject_cast<const QComboBox*>(w) ||
           qobject_cast<const QAbstractItemView*>(w) || qobject_cast<const QPlainTextEdit*>(w) ||
           qobject_cast<const QTextEdit*>(w) || qobject_cast<const QAbstractSlider*>(w) ||
           qobject_cast<const QTabBar*>(w) || qobject_cast<const plots::PlotView*>(w);
}

// The visible, enabled controls under root (a window: hidden stack pages drop out).
QList<QWidget*> controlsOf(QWidget* root) {
    QList<QWidget*> controls;
    for (QWidget* w : root->findChildren<QWidget*>())
        if (w->isVisible() && w->isEnabled() && w->window() == root->window() && isInteractive(w) &&
            !insideComposite(w, root))
            controls << w;
    return controls;
}

// The control a focus widget stands for (a plot's canvas, a combo box's line edit).
QWidget* controlOf(QWidget* focus, QWidget* root) {
    for (QWidget* w = focus; w && w != root; w = w->parentWidget())
        if (isInteractive(w) && !insideComposite(w, root))
            return w;
    return focus;
}

} // namespace

class TestKeyboard : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;

    static QWidget* focus() { return QApplication::focusWidget(); }

    // One key press and release on the focused widget (the active window when none).
    static void key(int k, Qt::KeyboardModifiers mods = Qt::NoModifier) {
        QWidget* target = focus() ? focus() : QApplication::activeWindow();
        QVERIFY(target);
        QTest::keyClick(target, Qt::Key(k), mods);
    }

    gui::StageState state(int stage) const { return m_window->browser()->stageStateOf(stage); }
    QWidget* stagePage(int stage) const { return m_window->stageFrame(stage)->page(); }
    QPushButton* pageButton(int stage, const char* name) const {
        return stagePage(stage)->findChild<QPushButton*>(QLatin1String(name));
    }

    // Presses Tab (or Shift+Tab) until the focus is back where it started. Returns the
    // controls in the order the focus visited them; fails on a trap. Also checks that
    // each control, once focused, looks different from itself unfocused.
    QList<QWidget*> tabCycle(QWidget* root, bool backwards, const QString& where) {
        QList<QWidget*> order;
        QWidget* start = focus();
        if (!start) {
            [&] { QVERIFY2(start, qPrintable(where + QStringLiteral(": nothing has the focus"))); }();
            return order;
        }
        QWidget* current = start;
        // The start's focused look is taken when the keyboard brings the focus back
        // (styles draw the focus only when it came from the keyboard).
        QImage focusedLook;
        QImage startUnfocusedLook;
        int sameFor = 0;
        for (int i = 0; i < kMaxTabs; ++i) {
            key(Qt::Key_Tab, backwards ? Qt::ShiftModifier : Qt::NoModifier);
            QWidget* now = focus();
            if (!now) {
                [&] { QVERIFY2(now, qPrintable(where + QStringLiteral(": Tab left nothing focused"))); }();
                return order;
            }
            QWidget* was = controlOf(current, root);
            if (now == current) {
                // Tables step through their cells; anything else holding Tab is a trap.
                if (++sameFor > 60) {
                    [&] {
                        QVERIFY2(false, qPrintable(where + QStringLiteral(": Tab is trapped in ") + describe(now)));
                    }();
                    return order;
                }
                continue;
            }
            sameFor = 0;
            // The control just left, unfocused now, must look different from focused.
            if (current == start) {
                startUnfocusedLook = was->grab().toImage();
            } else if (!backwards && was->window() == root->window() && isInteractive(was)) {
                const QImage unfocusedLook = was->grab().toImage();
                if (unfocusedLook == focusedLook)
                    m_noVisibleFocus << where + QStringLiteral(": ") + describe(was);
            }
            current = now;
            if (now == start) {
                if (!backwards && isInteractive(controlOf(start, root)) &&
                    controlOf(start, root)->grab().toImage() == startUnfocusedLook)
                    m_noVisibleFocus << where + QStringLiteral(": ") + describe(controlOf(start, root));
                return order;
            }
            QWidget* control = controlOf(now, root);
            if (order.isEmpty() || order.last() != control)
                order << control;
            focusedLook = control->grab().toImage();
        }
        [&] {
            QVERIFY2(false, qPrintable(where + QStringLiteral(": the focus never came back to ") + describe(start)));
        }();
        return order;
    }

    QStringList m_noVisibleFocus;

    // The focus chain of the active window: every control reached, the order following
    // the layout, Shift+Tab the exact reverse, labels naming inputs have buddies.
    void checkFocusChain(QWidget* root, const QString& where) {
        QApplication::processEvents();
        m_noVisibleFocus.clear();
        const QList<QWidget*> forward = tabCycle(root, false, where);
        if (QTest::currentTestFailed())
            return;
        const QList<QWidget*> controls = controlsOf(root);
        QStringList unreachable;
        for (QWidget* c : controls)
            if (!forward.contains(c) && controlOf(focus(), root) != c)
                unreachable << describe(c) + QStringLiteral(" (focusPolicy %1)").arg(int(c->focusPolicy()));
        QVERIFY2(unreachable.isEmpty(),
                 qPrintable(where + QStringLiteral(": not reachable with Tab: ") + unreachable.join(QStringLiteral("; "))));
        QVERIFY2(m_noVisibleFocus.isEmpty(),
                 qPrintable(QStringLiteral("no visible focus: ") + m_noVisibleFocus.join(QStringLiteral("; "))));
        QVERIFY2(controls.size() >= 2, qPrintable(where + QStringLiteral(": found almost no controls")));

        // Reading order: within a page the focus never jumps back up, unless it moves
        // on to a column further right.
        for (int i = 1; i < forward.size(); ++i) {
            QWidget* a = forward[i - 1];
            QWidget* b = forward[i];
            // Positions compare within one scrolled page (or one dialog without one);
            // from the page on to the warnings bar and round to the browser is the
            // window's own order.
            auto area = [](QWidget* w) -> QWidget* {
                for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
                    if (qobject_cast<QScrollArea*>(p))
                        return p;
                return nullptr;
            };
            if (a->window() != b->window() || area(a) != area(b) || (!area(a) && a->window() == m_window.get()))
                continue;
            const QRect ra(a->mapTo(a->window(), QPoint(0, 0)), a->size());
            const QRect rb(b->mapTo(b->window(), QPoint(0, 0)), b->size());
            const bool up = rb.top() < ra.top() - 4 && rb.bottom() < ra.bottom();
            const bool newColumn = rb.left() >= ra.right() - 4 || rb.right() <= ra.left() + 4;
            // Leaving the browser (left column) for the page, or the page for the
            // warnings bar and back, is the window's own order.
            QVERIFY2(!up || newColumn, qPrintable(where + QStringLiteral(": Tab jumps back up from %1 to %2")
                                                               .arg(describe(a), describe(b))));
        }

        // Shift+Tab walks the same chain backwards.
        const QList<QWidget*> backward = tabCycle(root, true, where + QStringLiteral(" (Shift+Tab)"));
        if (QTest::currentTestFailed())
            return;
        QList<QWidget*> reversed(backward.rbegin(), backward.rend());
        QCOMPARE(reversed, forward);

        checkBuddies(root, where);
    }

    // Every visible label that names an input (a form row's label, or a short label
    // ending in ':') has a buddy that is a control.
    void checkBuddies(QWidget* root, const QString& where) {
        QStringList missing;
        for (QFormLayout* form : root->findChildren<QFormLayout*>()) {
            for (int row = 0; row < form->rowCount(); ++row) {
                QLayoutItem* labelItem = form->itemAt(row, QFormLayout::LabelRole);
                QLayoutItem* fieldItem = form->itemAt(row, QFormLayout::FieldRole);
                auto* label = labelItem ? qobject_cast<QLabel*>(labelItem->widget()) : nullptr;
                if (!label || !label->isVisible() || label->text().isEmpty() || !fieldItem)
                    continue;
                QWidget* field = fieldItem->widget();
                if (!field && fieldItem->layout())
                    for (int i = 0; i < fieldItem->layout()->count() && !field; ++i)
                        if (QWidget* w = fieldItem->layout()->itemAt(i)->widget(); w && isInteractive(w))
                            field = w;
                if (!field || !isInteractive(field))
                    continue;
                if (label->buddy() != field)
                    missing << label->text() + QStringLiteral(" → ") + describe(field);
            }
        }
        for (QLabel* label : root->findChildren<QLabel*>()) {
            const QString text = label->text().trimmed();
            if (!label->isVisible() || label->window() != root->window() || !text.endsWith(QLatin1Char(':')) ||
                text.size() > 80 || Qt::mightBeRichText(text))
                continue;
            if (!label->buddy() || !isInteractive(label->buddy()))
                missing << label->text() + QStringLiteral(" (no buddy)");
        }
        QVERIFY2(missing.isEmpty(),
                 qPrintable(where + QStringLiteral(": labels without their input as buddy: ") +
                            missing.join(QStringLiteral("; "))));
    }

    // A dialog's form labels carry distinct Alt mnemonics that move the focus to the
    // field they name.
    void checkMnemonics(QDialog* dialog, const QString& where) {
        QSet<QChar> used;
        for (QFormLayout* form : dialog->findChildren<QFormLayout*>()) {
            for (int row = 0; row < form->rowCount(); ++row) {
                QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
                auto* label = item ? qobject_cast<QLabel*>(item->widget()) : nullptr;
                if (!label || label->text().isEmpty() || !label->buddy() || !label->buddy()->isVisible())
                    continue;
                const int amp = label->text().indexOf(QLatin1Char('&'));
                QVERIFY2(amp >= 0 && amp + 1 < label->text().size(),
                         qPrintable(where + QStringLiteral(": label without mnemonic: ") + label->text()));
                const QChar letter = label->text().at(amp + 1).toLower();
                QVERIFY2(!used.contains(letter), qPrintable(where + QStringLiteral(": mnemonic used twice: ") + letter));
                used.insert(letter);
                // Alt+letter from another field focuses the buddy.
                QTest::keyClick(focus(), Qt::Key(letter.toUpper().unicode()), Qt::AltModifier);
                QVERIFY2(focus() == label->buddy() || label->buddy()->isAncestorOf(focus()),
                         qPrintable(where + QStringLiteral(": Alt+%1 focused %2, not %3")
                                                .arg(letter, describe(focus()), describe(label->buddy()))));
            }
        }
    }

    // Tab until the focus is on target; fails if the chain never gets there.
    void tabTo(QWidget* target, const QString& where) {
        QVERIFY(target);
        for (int i = 0; i < kMaxTabs && focus() != target; ++i)
            key(Qt::Key_Tab);
        QVERIFY2(focus() == target,
                 qPrintable(where + QStringLiteral(": Tab never reaches ") + describe(target)));
    }

    // Arrows in the browser until the current item is of this kind (and name).
    void arrowTo(gui::ProjectBrowser::ItemKind kind, const QString& name = {}) {
        gui::ProjectBrowser* b = m_window->browser();
        auto matches = [&] {
            QTreeWidgetItem* item = b->currentItem();
            return item && item->data(0, gui::ProjectBrowser::KindRole).toInt() == int(kind) &&
                   (name.isEmpty() || item->data(0, gui::ProjectBrowser::NameRole).toString() == name);
        };
        QCOMPARE(focus(), static_cast<QWidget*>(b));
        key(Qt::Key_Home);
        for (int i = 0; i < 200 && !matches(); ++i) {
            QTreeWidgetItem* before = b->currentItem();
            key(Qt::Key_Down);
            if (b->currentItem() == before) {
                // A folded section: open it with Right, then go on down.
                key(Qt::Key_Right);
                key(Qt::Key_Down);
                if (b->currentItem() == before)
                    break;
            }
        }
        QVERIFY2(matches(), qPrintable(QStringLiteral("the browser's arrows never reach item kind %1 %2")
                                           .arg(int(kind))
                                           .arg(name)));
    }

    // Back to the browser with Shift+Tab (the page's first control is after it).
    void focusBrowser() {
        QWidget* b = m_window->browser();
        for (int i = 0; i < kMaxTabs && focus() != b; ++i)
            key(Qt::Key_Tab, Qt::ShiftModifier);
        QCOMPARE(focus(), b);
    }

    // Ctrl+stage, then Tab to Evaluate and press it with `press`; waits for the verdict.
    void evaluate(int stage, int press, Kind expected) {
        key(Qt::Key_0 + stage, Qt::ControlModifier);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(stage)));
        QPushButton* button = pageButton(stage, "evaluateButton");
        QTRY_VERIFY(button->isVisible() && button->isEnabled());
        if (press == Qt::Key_F5) {
            key(Qt::Key_F5); // the page's shortcut, wherever the focus is in the window
        } else {
            tabTo(button, QStringLiteral("stage %1").arg(stage));
            key(press);
        }
        QTRY_VERIFY_WITH_TIMEOUT(state(stage).kind != Kind::NotStarted && state(stage).kind != Kind::Running, 180000);
        QCOMPARE(state(stage).kind, expected);
        QVERIFY(m_window->project()->verdict(stage));
    }

    // The modal dialog that comes up after `trigger`, driven by `drive` from inside its
    // event loop; it is rejected if drive leaves it open (so a failure cannot hang).
    template <typename Trigger, typename Drive>
    bool withModal(Trigger trigger, Drive drive) {
        bool ran = false;
        QTimer::singleShot(300, this, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            auto* dialog = qobject_cast<QDialog*>(modal);
            if (!dialog)
                return;
            ran = true;
            drive(dialog);
            if (dialog->isVisible())
                dialog->reject();
        });
        trigger();
        QApplication::processEvents();
        return ran;
    }

private slots:
    void initTestCase() {
        const QString error =
            testing::startWithWindow(m_dir, QStringLiteral("test_keyboard"), {1500, 940}, m_window, /*activate=*/true);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void cleanupTestCase() { testing::closeMainWindow(m_window); }

    void startScreenOpensTheDemoWithSpace() {
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->startScreen()));
        if (!focus())
            key(Qt::Key_Tab);
        QVERIFY2(focus(), "the start screen gives no control the focus");
        checkFocusChain(m_window.get(), QStringLiteral("start screen"));
        if (QTest::currentTestFailed())
            return;
        QSignalSpy opened(m_window.get(), &gui::MainWindow::demoOpened);
        tabTo(m_window->startScreen()->demoButton(), QStringLiteral("start screen"));
        key(Qt::Key_Space);
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 120000);
        QVERIFY2(opened.first().at(0).toBool(), qPrintable(opened.first().at(1).toString()));
        // The browser takes the focus: the arrows walk the project at once.
        QTRY_COMPARE(focus(), static_cast<QWidget*>(m_window->browser()));
    }

    void overviewAndArrowsInTheBrowser() {
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->overview()));
        checkFocusChain(m_window.get(), QStringLiteral("overview"));
        focusBrowser();
        arrowTo(gui::ProjectBrowser::ItemKind::Stage, QStringLiteral("1"));
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(1)));
        key(Qt::Key_Down);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(2)));
        key(Qt::Key_Up);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->stageFrame(1)));
    }

    void stageOneEvaluatedWithSpace() {
        checkFocusChain(m_window.get(), QStringLiteral("stage 1, before evaluating"));
        evaluate(1, Qt::Key_Space, Kind::Passed);
        checkFocusChain(m_window.get(), QStringLiteral("stage 1, passed"));
    }

    void stageTwoEvaluatedWithF5() {
        evaluate(2, Qt::Key_F5, Kind::Passed);
        checkFocusChain(m_window.get(), QStringLiteral("stage 2, passed"));
    }

    void stageThreeStopsThenOverriddenByKeyboard() {
        evaluate(3, Qt::Key_Space, Kind::Stopped);
        checkFocusChain(m_window.get(), QStringLiteral("stage 3, stopped"));
        if (QTest::currentTestFailed())
            return;
        QPushButton* overrideButton = pageButton(3, "overrideButton");
        QTRY_VERIFY(overrideButton->isVisible());

        // Escape closes the dialog and overrides nothing.
        tabTo(overrideButton, QStringLiteral("stage 3"));
        bool escaped = false;
        QVERIFY(withModal([&] { key(Qt::Key_Space); },
                          [&](QDialog* dialog) {
                              key(Qt::Key_Escape);
                              escaped = !dialog->isVisible();
                          }));
        QVERIFY2(escaped, "Escape did not close the override dialog");
        QCOMPARE(state(3).kind, Kind::Stopped);
        // Offscreen no window manager hands the activation back: ask for it as one would.
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QCOMPARE(focus(), static_cast<QWidget*>(overrideButton)); // the focus comes back

        // Open it again: check its chain, refuse an empty justification, then type one.
        bool confirmed = false;
        QVERIFY(withModal([&] { key(Qt::Key_Space); },
                          [&](QDialog* dialog) {
                              auto* text = dialog->findChild<QPlainTextEdit*>(QStringLiteral("justification"));
                              QVERIFY(text);
                              QCOMPARE(focus(), static_cast<QWidget*>(text)); // the dialog starts where to write
                              checkFocusChain(dialog, QStringLiteral("override dialog"));
                              if (QTest::currentTestFailed())
                                  return;
                              checkMnemonics(dialog, QStringLiteral("override dialog"));
                              if (QTest::currentTestFailed())
                                  return;
                              // Empty: Return on the author field is refused, the focus goes to the text.
                              auto* author = dialog->findChild<QLineEdit*>(QStringLiteral("author"));
                              QVERIFY(author);
                              tabTo(author, QStringLiteral("override dialog"));
                              key(Qt::Key_Return);
                              QVERIFY(dialog->isVisible());
                              QCOMPARE(focus(), static_cast<QWidget*>(text));
                              QTest::keyClicks(focus(), QStringLiteral("Hot expert only after step 150 in the "
                                                                       "synthetic run; accepted for the demo."));
                              key(Qt::Key_Tab); // Tab leaves the text instead of typing a tab
                              QCOMPARE(focus(), static_cast<QWidget*>(author));
                              key(Qt::Key_Return);
                              confirmed = !dialog->isVisible() && dialog->result() == QDialog::Accepted;
                          }));
        QVERIFY2(confirmed, "the override dialog was not confirmed with the keyboard");
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QTRY_COMPARE(state(3).kind, Kind::Overridden);
        QVERIFY(state(3).detail.contains(QStringLiteral("Hot expert")));
        QCOMPARE(state(4).kind, Kind::NotStarted);
    }

    void stageFourEvaluatedWithSpace() {
        evaluate(4, Qt::Key_Space, Kind::Passed);
        checkFocusChain(m_window.get(), QStringLiteral("stage 4, evaluated"));
    }

    void recordEditorAndItsDialog() {
        focusBrowser();
        QString draft;
        for (const auto& r : m_window->project()->configRecords())
            if (!r.complete)
                draft = r.name;
        QVERIFY(!draft.isEmpty());
        arrowTo(gui::ProjectBrowser::ItemKind::Record, draft);
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->recordEditor()));
        checkFocusChain(m_window.get(), QStringLiteral("record editor"));
        if (QTest::currentTestFailed())
            return;
        // New record… opens its name dialog; Escape closes it and creates nothing.
        auto* newButton = m_window->recordEditor()->findChild<QPushButton*>(QStringLiteral("recordNew"));
        tabTo(newButton, QStringLiteral("record editor"));
        const auto before = m_window->project()->configRecords().size();
        bool closed = false;
        QVERIFY(withModal([&] { key(Qt::Key_Space); },
                          [&](QDialog* dialog) {
                              QVERIFY(qobject_cast<QLineEdit*>(focus()));
                              key(Qt::Key_Escape);
                              closed = !dialog->isVisible();
                          }));
        QVERIFY(closed);
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QCOMPARE(m_window->project()->configRecords().size(), before);
        QCOMPARE(focus(), static_cast<QWidget*>(newButton));
    }

    void otherPagesReachable() {
        using K = gui::ProjectBrowser::ItemKind;
        focusBrowser();
        arrowTo(K::RunsSection);
        checkFocusChain(m_window.get(), QStringLiteral("runs"));
        if (QTest::currentTestFailed())
            return;
        if (m_window->assessmentPage()) {
            focusBrowser();
            arrowTo(K::Assessment);
            QCOMPARE(m_window->currentPage(), m_window->assessmentPage());
            checkFocusChain(m_window.get(), QStringLiteral("assessment"));
        }
    }

    void importDialogOpensAndEscapeClosesIt() {
        focusBrowser();
        key(Qt::Key_I, Qt::ControlModifier);
        QTRY_VERIFY(m_window->findChild<gui::ImportDialog*>());
        auto* dialog = m_window->findChild<gui::ImportDialog*>();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        QTRY_VERIFY(focus() && dialog->isAncestorOf(focus()));
        // The file comes first: typing a path is the first thing to do.
        QCOMPARE(focus(), dialog->findChild<QWidget*>(QStringLiteral("importFile")));
        checkFocusChain(dialog, QStringLiteral("import dialog"));
        if (QTest::currentTestFailed())
            return;
        checkMnemonics(dialog, QStringLiteral("import dialog"));
        if (QTest::currentTestFailed())
            return;
        QPointer<gui::ImportDialog> guard(dialog);
        key(Qt::Key_Escape);
        QTRY_VERIFY(!guard || !guard->isVisible());
        // Back in the window, where the keyboard left it (offscreen there is no window
        // manager to hand the activation back: ask for it as one would).
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QCOMPARE(focus(), static_cast<QWidget*>(m_window->browser()));
    }
};

QTEST_MAIN(TestKeyboard)
#include "test_keyboard.moc"
