#include "CliContext.h"

#include "Command.h"
#include "CliTr.h"
#include "TerminalSafeDevice.h"
#include "TextWrap.h"
#include "store/ProjectClean.h"
#include "ssh/TerminalPassphrase.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace moewb::cli {

CliContext::CliContext()
    : m_outDevice(std::make_unique<TerminalSafeDevice>(stdout)),
      m_errDevice(std::make_unique<TerminalSafeDevice>(stderr)), m_out(m_outDevice.get()),
      m_err(m_errDevice.get()) {
    // A key no ssh-agent holds: its passphrase is asked on the terminal (never stored).
    remote::setTerminalPassphrasePrompt(true);
}

QString CliContext::projectPath() const {
    if (!demoPath.isEmpty())
        return demoPath;
    return projectOption.isEmpty() ? store::ProjectStore::defaultProjectPath() : projectOption;
}

store::ProjectStore* CliContext::project() {
    if (m_project)
        return m_project.get();
    const QString path = projectPath();
    // An explicitly named project must exist (a typo must not create a stray file);
    // the default project is created on first use.
    const auto mode = projectOption.isEmpty() && demoPath.isEmpty() ? store::OpenMode::CreateIfMissing
                                                                     : store::OpenMode::MustExist;
    if (mode == store::OpenMode::MustExist && !QFileInfo::exists(path)) {
        m_err << Cli::tr("moewb: no project file at %1; create it with: moewb init %1").arg(path) << Qt::endl;
        return nullptr;
    }
    auto opened = store::ProjectStore::open(path, mode);
    if (!opened) {
        m_err << Cli::tr("moewb: %1").arg(opened.error().text()) << Qt::endl;
        if (store::isForeignSchemaRefusal(opened.error()))
            m_err << Cli::tr("moewb: to keep its data without them: moewb project clean %1 -o CLEAN.moewb "
                             "(a new file with moewb's schema and only the known rows, each checked)")
                         .arg(path)
                  << Qt::endl;
        return nullptr;
    }
    m_project = std::move(opened.value());
    if (m_project->readOnly())
        m_err << Cli::tr("moewb: note: %1 is read-only (its file or folder cannot be written): it can be listed "
                         "and reported; changes are refused.")
                     .arg(m_project->path())
              << Qt::endl;
    return m_project.get();
}

bool CliContext::parse(QCommandLineParser& parser, const Command& command, const QStringList& args,
                       int* exitCode) {
    const QString words = command.words.join(QLatin1Char(' '));
    parser.setApplicationDescription(command.summary);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  Cli::tr("Show this help."));
    parser.addOption(help);
    // QCommandLineParser expects the program name first.
    QStringList argv{QStringLiteral("moewb ") + words};
    argv += args;
    if (!parser.parse(argv)) {
        *exitCode = usageError(parser.errorText(), words);
        return false;
    }
    if (parser.isSet(help)) {
        QString text = parser.helpText();
        // Qt prints "Usage: <program> [options]" and the description on one line each;
        // show the real synopsis instead, both wrapped to 80 columns under themselves.
        const qsizetype eol = text.indexOf(QLatin1Char('\n'));
        const qsizetype eol2 = text.indexOf(QLatin1Char('\n'), eol + 1);
        const QString usage = Cli::tr("Usage: moewb [--project FILE] [--json] %1 %2").arg(words, command.synopsis);
        // Continuation lines go under the command's first argument.
        const qsizetype under = usage.indexOf(words) + words.size() + 1;
        text = wrapText(usage, 0, under < kHelpWidth / 2 ? int(under) : 7) +
               wrapText(command.summary, 0, 0) + wrapLongLines(text.mid(eol2 + 1));
        m_out << text;
        m_out.flush();
        *exitCode = Success;
        return false;
    }
    return true;
}

int CliContext::usageError(const QString& message, const QString& commandWords) {
    m_err << Cli::tr("moewb %1: %2").arg(commandWords, message) << Qt::endl;
    m_err << Cli::tr("Try: moewb %1 --help").arg(commandWords) << Qt::endl;
    return UsageError;
}

int CliContext::runtimeError(const QString& message) {
    m_err << Cli::tr("moewb: %1").arg(message) << Qt::endl;
    return RuntimeFailure;
}

void CliContext::printJson(const QJsonObject& object) {
    m_out << QString::fromUtf8(escapeJsonForTerminal(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    m_out.flush();
}

} // namespace moewb::cli
