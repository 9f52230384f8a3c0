#pragma once
// What every command shares: global options, output (text or JSON), the project.
#include "common/Expected.h"
#include "store/ProjectStore.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QTextStream>
#include <memory>

namespace moewb::cli {

struct Command;

class CliContext {
public:
    CliContext();

    QString projectOption;  // --project FILE, empty when not given
    // --demo: the fresh copy of the demo project this call works on (main.cpp writes it
    // into a temporary folder removed at exit); empty when not given.
    QString demoPath;
    bool json = false;      // --json

    QTextStream& out() { return m_out; }
    QTextStream& err() { return m_err; }

    // The project named by --project, the demo copy of --demo, or the default project
    // under the user's data directory (created on first use). Prints the reason and
    // returns nullptr on failure.
    store::ProjectStore* project();
    QString projectPath() const;

    // Parses a command's own options; handles --help. Returns false (and sets exitCode)
    // when the command should stop: after --help (0) or on a usage error (2).
    bool parse(QCommandLineParser& parser, const Command& command, const QStringList& args, int* exitCode);

    int usageError(const QString& message, const QString& commandWords);
    int runtimeError(const QString& message);
    void printJson(const QJsonObject& object);

private:
    // stdout and stderr through TerminalSafeDevice: nothing printed can drive the terminal.
    std::unique_ptr<QIODevice> m_outDevice;
    std::unique_ptr<QIODevice> m_errDevice;
    QTextStream m_out;
    QTextStream m_err;
    std::unique_ptr<store::ProjectStore> m_project;
};

} // namespace moewb::cli
