#pragma once
// What the GUI tests do to start (moewb_gui_test_support): settings kept apart, the
// translators moe-workbench installs, the main window shown, the demo project opened,
// and the window's end. Each returns an empty string, or what went wrong, for
// QVERIFY2(error.isEmpty(), qPrintable(error)).
#include "MainWindow.h"

#include <QSize>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace moewb::testing {

// Settings, recent projects and the demo project under `dir` (XDG_CONFIG_HOME,
// XDG_DATA_HOME), organisation "moe-workbench-test", application `name`, no settings
// left from an earlier run; then the translators moe-workbench installs
// (i18n::installWorkbenchTranslations: with MOEWB_LANG=en, as ctest sets it, the
// English plural forms, "1 run" and "2 runs").
QString startGuiTest(const QTemporaryDir& dir, const QString& name);

// A new main window of `size` in `window`, shown and exposed; active as well when `activate`.
QString showMainWindow(std::unique_ptr<gui::MainWindow>& window, QSize size, bool activate = false);

// startGuiTest, then showMainWindow.
QString startWithWindow(const QTemporaryDir& dir, const QString& name, QSize size,
                        std::unique_ptr<gui::MainWindow>& window, bool activate = false);

// Opens the demo project in `window` (writing it first when missing) and waits for it,
// up to two minutes.
QString openDemo(gui::MainWindow& window);

// startWithWindow, then openDemo: the demo project open in a window of `size`.
QString startWithDemo(const QTemporaryDir& dir, const QString& name, QSize size,
                      std::unique_ptr<gui::MainWindow>& window);

// The window goes, then what it left on the global thread pool finishes (as
// moe-workbench's main() does): no evaluation outlives the test.
void closeMainWindow(std::unique_ptr<gui::MainWindow>& window);

} // namespace moewb::testing
