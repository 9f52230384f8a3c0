// moe-workbench: the workbench window. Without arguments it shows the start screen;
// with PROJECT_FILE it opens that project; with --demo it opens the demo project
// (writing it first when it is missing).
#include "MainWindow.h"
#include "Translations.h"

#include <QThreadPool>
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("moe-workbench"));
    QApplication::setOrganizationName(QStringLiteral("moe-workbench"));
    // The desktop file (packaging/linux/moe-workbench.desktop) gives the icon and name.
    QGuiApplication::setDesktopFileName(QStringLiteral("moe-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("MoE Workbench"));
    QApplication::setApplicationVersion(QStringLiteral(MOEWB_VERSION));
    // The language: MOEWB_LANG, else Preferences (ui/language), else the system locale.
    moewb::i18n::installWorkbenchTranslations(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "MoE Workbench: evaluate Mixture-of-Experts training on real clusters."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "open the demo project (synthetic data), writing it first if missing"));
    parser.addOption(demoOption);
    parser.addPositionalArgument(QStringLiteral("PROJECT_FILE"),
                                 QCoreApplication::translate("main", "the project to open (default: the start screen)"));
    parser.process(app);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() > 1 || (pos.size() == 1 && parser.isSet(demoOption))) {
        qCritical("%s", qPrintable(QCoreApplication::translate(
                            "main", "moe-workbench: expects at most one PROJECT_FILE, or --demo")));
        return 2;
    }

    int rc = 0;
    {
        moewb::gui::MainWindow window;
        window.show();
        if (parser.isSet(demoOption)) {
            if (!window.openDemo()) {
                qCritical("%s", qPrintable(QCoreApplication::translate(
                                    "main", "moe-workbench: this build has no demo project")));
                return 2;
            }
        } else if (!pos.isEmpty()) {
            QString error;
            if (!window.openProject(pos.first(), false, &error))
                window.showOpenFailure(QCoreApplication::translate("main", "Open project"), error);
        }
        rc = app.exec();
    } // the window's pages cancel and wait for the work that talks to them
    // Evaluations and reads still on the global thread pool (each on its own connection
    // to the project file) finish before the process exits and unloads the SQLite driver.
    QThreadPool::globalInstance()->waitForDone();
    return rc;
}
