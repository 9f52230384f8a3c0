#pragma once
// One `moewb` command: its words, a one-line summary, and how to run it.
#include <QString>
#include <QStringList>
#include <functional>

namespace moewb::cli {

class CliContext;

enum ExitCode : int { Success = 0, GateStopped = 1, ValidationFailed = 1, UsageError = 2, RuntimeFailure = 3 };

struct Command {
    QStringList words;  // e.g. {"record", "validate"}
    QString synopsis;   // arguments after the words, e.g. "FILE [--name NAME]"
    QString summary;    // one line for the command list
    std::function<int(CliContext&, const QStringList& args)> run;  // args: everything after the words
};

QList<Command> initCommands();
QList<Command> recordCommands();
QList<Command> runsCommands();
QList<Command> importCommands();
QList<Command> stageCommands(); QList<Command> checksCommands();
QList<Command> learnCommands();

} // namespace moewb::cli
