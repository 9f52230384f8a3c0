// moewb: the headless workbench. Same core as the GUI; everything a report needs
// can be done from here. Exit codes: 0 success, 1 gate stopped or validation failed,
// 2 usage error, 3 runtime failure.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "Translations.h"
#include "store/ProjectStore.h"

#include <QCoreApplication>

#include <memory>

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
} // namespace moewb::cli

namespace {

QList<Command> allCommands() {
    QList<Command> commands;
    commands += initCommands();
    commands += recordCommands();
    commands += runsCommands();
    commands += importCommands();
    commands += stageCommands() + checksCommands();
    commands += learnCommands();
    commands += clusterCommands() + runCommands();
    commands += demoCommands();
#ifdef MOEWB_WITH_REPORT
    commands += reportCommands();
#endif
    return commands;
}

QString globalUsage(const QList<Command>& commands, const QString& prefix = {}) {
    QString text = Cli::tr("Usage: moewb [--project FILE] [--json] COMMAND ...\n\n"
                           "Evaluate Mixture-of-Experts training on real clusters, headless.\n\n"
                           "Global options:\n"
                           "  --project FILE  the project file (*.moewb); default: %1\n"
                           "  --json          machine-readable output\n"
                           "  --help          this help; COMMAND --help for a command's own\n"
                           "  --version       the program and format versions\n\n"
                           "Commands:\n")
                       .arg(moewb::store::ProjectStore::defaultProjectPath());
    TextTable table;
    table.addColumn(QString());
    table.addColumn(QString());
    for (const Command& c : commands) {
        const QString words = c.words.join(QLatin1Char(' '));
        if (!prefix.isEmpty() && c.words.first() != prefix)
            continue;
        table.addRow({QStringLiteral("  ") + words + QLatin1Char(' ') + c.synopsis, c.summary});
    }
    // Drop the empty header line the table starts with.
    text += table.render().section(QLatin1Char('\n'), 1);
    text += Cli::tr("\nExit codes: 0 success, 1 a gate stopped or validation failed, 2 usage error, "
                    "3 runtime failure (I/O, network, remote).\n");
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
        } else if (a == QLatin1String("--version") && rest.isEmpty()) {
            ctx.out() << Cli::tr("moewb %1 (project schema %2, probe JSON moe-probe/1)")
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
    return chosen->run(ctx, commandArgs);
}
