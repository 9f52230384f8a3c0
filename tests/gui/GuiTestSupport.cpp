#include "GuiTestSupport.h"

#include "Translations.h"

#include <QApplication>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

namespace moewb::testing {

QString startGuiTest(const QTemporaryDir& dir, const QString& name) {
    if (!dir.isValid())
        return QStringLiteral("no temporary folder: %1").arg(dir.errorString());
    qputenv("XDG_DATA_HOME", dir.filePath(QStringLiteral("data")).toUtf8());
    qputenv("XDG_CONFIG_HOME", dir.filePath(QStringLiteral("config")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("moe-workbench-test"));
    QCoreApplication::setApplicationName(name);
    QSettings().clear();
    if (i18n::installWorkbenchTranslations(*qApp) == 0)
        return QStringLiteral("no translation catalogue installed for %1").arg(i18n::chooseLanguage());
    return {};
}

QString showMainWindow(std::unique_ptr<gui::MainWindow>& window, QSize size, bool activate) {
    window = std::make_unique<gui::MainWindow>();
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return QStringLiteral("the main window was never exposed");
    if (activate) {
        window->activateWindow();
        if (!QTest::qWaitForWindowActive(window.get()))
            return QStringLiteral("the main window never became active");
    }
    return {};
}

QString startWithWindow(const QTemporaryDir& dir, const QString& name, QSize size,
                        std::unique_ptr<gui::MainWindow>& window, bool activate) {
    const QString error = startGuiTest(dir, name);
    return error.isEmpty() ? showMainWindow(window, size, activate) : error;
}

QString openDemo(gui::MainWindow& window) {
    QSignalSpy opened(&window, &gui::MainWindow::demoOpened);
    if (!window.openDemo())
        return QStringLiteral("this build has no demo project");
    if (!QTest::qWaitFor([&] { return !opened.isEmpty(); }, 120000))
        return QStringLiteral("the demo project did not open within two minutes");
    if (opened.size() != 1)
        return QStringLiteral("the demo project opened %1 times").arg(opened.size());
    const QList<QVariant> result = opened.first();
    if (!result.at(0).toBool())
        return QStringLiteral("the demo project did not open: %1").arg(result.at(1).toString());
    return {};
}

QString startWithDemo(const QTemporaryDir& dir, const QString& name, QSize size,
                      std::unique_ptr<gui::MainWindow>& window) {
    const QString error = startWithWindow(dir, name, size, window);
    return error.isEmpty() ? openDemo(*window) : error;
}

void closeMainWindow(std::unique_ptr<gui::MainWindow>& window) {
    window.reset();
    QThreadPool::globalInstance()->waitForDone();
}

} // namespace moewb::testing
