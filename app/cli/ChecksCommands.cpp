// moewb checks: the six misjudgment warnings (seed 000 §5). Warnings are advice,
// not failures: exit 0 whether or not any fires (3 when the project cannot be read).
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "checks/MisjudgmentChecks.h"

#include <QJsonArray>

namespace moewb::cli {

namespace {

int runChecks(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), QStringLiteral("checks"));
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QList<checks::MisjudgmentWarning> warnings =
        checks::runAllChecks(checks::loadProjectFacts(*project));
    if (ctx.json) {
        QJsonArray array;
        for (const auto& w : warnings)
            array.append(QJsonObject{{QStringLiteral("id"), w.id},
                                     {QStringLiteral("title"), w.title},
                                     {QStringLiteral("message"), w.message},
                                     {QStringLiteral("summary"), w.summary},
                                     {QStringLiteral("details"), QJsonArray::fromStringList(w.details)},
                                     {QStringLiteral("runs"), QJsonArray::fromStringList(w.runs)},
                                     {QStringLiteral("fix"), w.fix}});
        ctx.printJson({{QStringLiteral("warnings"), array}});
        return Success;
    }
    QTextStream& s = ctx.out();
    if (warnings.isEmpty()) {
        s << Cli::tr("No misjudgment warnings.") << Qt::endl;
        return Success;
    }
    s << Cli::tr("%n warning(s):", nullptr, int(warnings.size())) << "\n\n";
    for (const auto& w : warnings) {
        s << Cli::tr("⚠ %1. %2").arg(w.id).arg(w.title) << '\n';
        if (w.details.size() > 1) {
            // Grouped: the one-line summary, then each finding.
            s << QStringLiteral("   ") << w.summary << '\n';
            for (const QString& d : w.details)
                s << QStringLiteral("     - ") << d << '\n';
        } else {
            s << QStringLiteral("   ") << w.message << '\n';
        }
        s << Cli::tr("   Fix: %1").arg(w.fix) << "\n\n";
    }
    s.flush();
    return Success;
}

} // namespace

QList<Command> checksCommands() {
    Command checks;
    checks.words = {QStringLiteral("checks")};
    checks.synopsis = QString();
    checks.summary =
        Cli::tr("the misjudgment warnings, each with its fix (exit 0: warnings are not failures)");
    checks.run = [checks](CliContext& ctx, const QStringList& a) { return runChecks(ctx, checks, a); };
    return {checks};
}

} // namespace moewb::cli
