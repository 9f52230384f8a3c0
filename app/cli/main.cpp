// moewb: the headless workbench. Same core as the GUI; everything a report needs
// can be done from here. Exit codes: 0 success, 1 gate stopped or validation failed,
// 2 usage error, 3 runtime failure.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextWrap.h"
#include "Translations.h"
#include "demo/DemoProject.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace moewb::cli {
QList<Command> demoCommands(); // DemoCommand.cpp
#ifdef MOEWB_WITH_REPORT
// ReportCommand.cpp: `report` paints plots, so it runs under a QApplication
// (offscreen unless QT_QPA_PLATFORM says otherwise); every other command keeps
// the plain QCoreApplication.
QList<Command> reportCommands();
bool wantsReportApplication(int argc, char** argv);
std::unique_ptr<QCoreApplication> makeReportApplication(int& argc, char** argv);
#endif
}

using namespace moewb::cli;

namespace moewb::cli {
QList<Command> clusterCommands(); // ClusterCommands.cpp
QList<Command> runCommands();     // RunCommands.cpp
QList<Command> thresholdCommands(); // ThresholdCommands.cpp
QList<Command> trafficCommands();   // TrafficCommands.cpp
QList<Command> placementCommands(); // PlacementCommands.cpp
QList<Command> anatomyCommands();   // AnatomyCommands.cpp
QList<Command> referenceCommands(); // ReferenceCommand.cpp
QList<Command> projectCommands();   // ProjectCommands.cpp
} // namespace moewb::cli

namespace {

QList<Command> allCommands() {
    QList<Command> commands;
    commands += initCommands();
    commands += projectCommands();
    commands += recordCommands();
    commands += runsCommands();
    commands += importCommands();
    commands += stageCommands() + checksCommands();
    commands += thresholdCommands();
    commands += learnCommands();
    commands += trafficCommands() + placementCommands();
    commands += anatomyCommands();
    commands += clusterCommands() + runCommands();
    commands += demoCommands();
    commands += referenceCommands();
#ifdef MOEWB_WITH_REPORT
    commands += reportCommands();
#endif
    return commands;
}

QString globalUsage(const QList<Command>& commands, const QString& prefix = {}) {
    QString text = Cli::tr("Usage: moewb [--project FILE | --demo] [--json] COMMAND ...\n\n"
                           "Evaluate Mixture-of-Experts training on real clusters, headless.\n\n"
                           "Global options:\n");
    // Each option, then its description wrapped under the description column.
    const auto option = [](const QString& names, const QString& description) {
        return QStringLiteral("  %1").arg(names, -16) + wrapText(description, 18, 18).mid(18);
    };
    text += option(QStringLiteral("--project FILE"),
                   Cli::tr("the project file (*.moewb); default: %1")
                       .arg(moewb::store::ProjectStore::defaultProjectPath()));
    text += option(QStringLiteral("--demo"),
                   Cli::tr("run COMMAND on a fresh copy of the bundled demo project, written to a temporary "
                           "folder (under $TMPDIR, else /tmp) and removed when the command ends; nothing else "
                           "is touched (to keep a copy: moewb demo -o FILE)"));
    text += option(QStringLiteral("--json"), Cli::tr("machine-readable output"));
    text += option(QStringLiteral("--help"), Cli::tr("this help; COMMAND --help for a command's own"));
    text += option(QStringLiteral("--version"), Cli::tr("the program and format versions"));
    text += Cli::tr("\nCommands:\n");
    // The command with its synopsis (continued under its first argument), then its
    // summary indented below it: nothing runs past 80 columns.
    for (const Command& c : commands) {
        const QString words = c.words.join(QLatin1Char(' '));
        if (!prefix.isEmpty() && c.words.first() != prefix)
            continue;
        const int under = int(words.size()) + 3;
        text += wrapText(words + QLatin1Char(' ') + c.synopsis, 2, under < kHelpWidth / 2 ? under : 6);
        text += wrapText(c.summary, 6, 6);
    }
    text += QLatin1Char('\n') + wrapText(Cli::tr("Exit codes: 0 success, 1 a gate stopped or validation failed, 2 usage "
                                                  "error, 3 runtime failure (I/O, network, remote)."),
                                          0, 0);
    return text;
}

} // namespace

int main(int argc, char** argv) {
#ifdef MOEWB_WITH_REPORT
    const std::unique_ptr<QCoreApplication> appHolder = wantsReportApplication(argc, argv)
                                                            ? makeReportApplication(argc, argv)
                                                            : std::make_unique<QCoreApplication>(argc, argv);
#else
    const auto appHolder = std::make_unique<QCoreApplication>(argc, argv);
#endif
    QCoreApplication& app = *appHolder;
    QCoreApplication::setApplicationName(QStringLiteral("moe-workbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(MOEWB_VERSION));
    // The language: MOEWB_LANG, else the system locale (LANG=zh_CN.UTF-8 gives Chinese).
    moewb::i18n::installTranslations(app, moewb::i18n::chooseLanguage());

    CliContext ctx;
    const QList<Command> commands = allCommands();

    // Global options may stand before or after the command words.
    QStringList rest;
    const QStringList args = app.arguments().mid(1);
    bool wantHelp = false;
    bool wantDemo = false;
    bool endOfOptions = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        if (endOfOptions) {
            rest << a;
        } else if (a == QLatin1String("--")) {
            endOfOptions = true;
            rest << a;
        } else if (a == QLatin1String("--json")) {
            ctx.json = true;
        } else if (a == QLatin1String("--project")) {
            if (i + 1 >= args.size())
                return ctx.usageError(Cli::tr("--project needs a file name"), QString());
            ctx.projectOption = args[++i];
        } else if (a.startsWith(QLatin1String("--project="))) {
            ctx.projectOption = a.mid(10);
        } else if (a == QLatin1String("--demo")) {
            wantDemo = true;
        } else if (a == QLatin1String("--version") && rest.isEmpty()) {
            ctx.out() << Cli::tr("moewb %1 (project schema %2, probe JSON moe-probe/2, reads /1)")
                             .arg(QStringLiteral(MOEWB_VERSION))
                             .arg(moewb::store::ProjectStore::kSchemaVersion)
                      << Qt::endl;
            return Success;
        } else if ((a == QLatin1String("--help") || a == QLatin1String("-h")) && rest.isEmpty()) {
            wantHelp = true;
        } else {
            rest << a;
        }
    }
    if (!rest.isEmpty() && rest.first() == QLatin1String("help")) {
        rest.removeFirst();
        wantHelp = true;
        if (!rest.isEmpty())
            rest << QStringLiteral("--help");
    }
    if (rest.isEmpty()) {
        if (wantHelp) {
            ctx.out() << globalUsage(commands);
            return Success;
        }
        ctx.err() << globalUsage(commands);
        return UsageError;
    }

    if (wantDemo && !ctx.projectOption.isEmpty())
        return ctx.usageError(Cli::tr("--demo works on a fresh copy of the demo project; it cannot be combined "
                                      "with --project"),
                              QString());

    // The longest command whose words prefix the arguments.
    const Command* chosen = nullptr;
    for (const Command& c : commands) {
        if (rest.size() >= c.words.size() && rest.mid(0, c.words.size()) == c.words &&
            (!chosen || c.words.size() > chosen->words.size()))
            chosen = &c;
    }
    if (!chosen) {
        bool isGroup = false;
        for (const Command& c : commands)
            isGroup = isGroup || c.words.first() == rest.first();
        if (isGroup) {
            const bool asked = wantHelp || rest.contains(QLatin1String("--help"));
            (asked ? ctx.out() : ctx.err()) << globalUsage(commands, rest.first());
            if (!asked && rest.size() > 1)
                ctx.err() << Cli::tr("moewb: unknown command: %1").arg(rest.mid(0, 2).join(QLatin1Char(' ')))
                          << Qt::endl;
            return asked ? Success : UsageError;
        }
        return ctx.usageError(Cli::tr("unknown command \"%1\"").arg(rest.first()), QString());
    }
    QStringList commandArgs = rest.mid(chosen->words.size());
    if (wantHelp)
        commandArgs << QStringLiteral("--help");
    // --demo: a fresh copy of the bundled demo project in a temporary folder, removed
    // when this call ends (the QTemporaryDir outlives the command).
    std::optional<QTemporaryDir> demoDir;
    if (wantDemo && !wantHelp && !commandArgs.contains(QLatin1String("--help")) &&
        !commandArgs.contains(QLatin1String("-h"))) {
        demoDir.emplace(QDir::tempPath() + QStringLiteral("/moewb-demo-XXXXXX"));
        if (!demoDir->isValid())
            return ctx.runtimeError(Cli::tr("--demo: cannot create a temporary folder in %1: %2")
                                        .arg(QDir::tempPath(), demoDir->errorString()));
        ctx.demoPath = demoDir->filePath(QStringLiteral("demo.moewb"));
        auto written = moewb::demo::writeDemoProject(ctx.demoPath);
        if (!written)
            return ctx.runtimeError(Cli::tr("--demo: %1").arg(written.error().text()));
    }
    return chosen->run(ctx, commandArgs);
}
