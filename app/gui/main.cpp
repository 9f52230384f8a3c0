// moe-workbench: the workbench window, on the default project or the one given.
#include "MainWindow.h"
#include "store/ProjectStore.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("moe-workbench"));
    QApplication::setOrganizationName(QStringLiteral("moe-workbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("MoE Workbench"));
    QApplication::setApplicationVersion(QStringLiteral(MOEWB_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "MoE Workbench: evaluate Mixture-of-Experts training on real clusters."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("PROJECT_FILE"),
                                 QCoreApplication::translate("main", "the project to open (default: %1)")
                                     .arg(moewb::store::ProjectStore::defaultProjectPath()));
    parser.process(app);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() > 1) {
        qCritical("%s", qPrintable(QCoreApplication::translate("main", "moe-workbench: expects at most one PROJECT_FILE")));
        return 2;
    }

    moewb::gui::MainWindow window;
    // The default project is created on first start; a named one must exist.
    const bool isDefault = pos.isEmpty();
    const QString path = isDefault ? moewb::store::ProjectStore::defaultProjectPath() : pos.first();
    QString error;
    window.show();
    if (!window.openProject(path, isDefault, &error))
        QMessageBox::warning(&window, QCoreApplication::translate("main", "Open project"), error);
    return app.exec();
}
