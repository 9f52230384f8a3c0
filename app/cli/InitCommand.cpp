#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QFileInfo>

namespace moewb::cli {

namespace {

int runInit(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"),
                                 Cli::tr("the project file to create (default: --project, else the default project)"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() > 1)
        return ctx.usageError(Cli::tr("expects at most one FILE, got %1").arg(pos.size()), QStringLiteral("init"));
    const QString path = !pos.isEmpty() ? pos.first() : ctx.projectPath();
    if (QFileInfo::exists(path))
        return ctx.runtimeError(Cli::tr("%1 already exists; init never overwrites a file").arg(path));
    QDir().mkpath(QFileInfo(path).absolutePath());
    auto opened = store::ProjectStore::open(path, store::OpenMode::CreateIfMissing);
    if (!opened)
        return ctx.runtimeError(opened.error().text());
    const int version = opened.value()->schemaVersion();
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("project"), QFileInfo(path).absoluteFilePath()},
                       {QStringLiteral("schema_version"), version},
                       {QStringLiteral("created"), true}});
    } else {
        ctx.out() << Cli::tr("Created project %1 (schema %2).").arg(QFileInfo(path).absoluteFilePath()).arg(version)
                  << Qt::endl;
    }
    return Success;
}

} // namespace

QList<Command> initCommands() {
    Command init;
    init.words = {QStringLiteral("init")};
    init.synopsis = QStringLiteral("[FILE]");
    init.summary = Cli::tr("create a project file");
    init.run = [init](CliContext& ctx, const QStringList& args) { return runInit(ctx, init, args); };
    return {init};
}

} // namespace moewb::cli
