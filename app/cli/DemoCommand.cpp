// moewb demo [-o PATH] [--force]: writes the synthetic demo project (docs/demo.md)
// and prints its path. Exit 0 written; 2 usage; 3 the file exists (without --force)
// or cannot be written.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "demo/DemoProject.h"

#include <QElapsedTimer>
#include <QFileInfo>

namespace moewb::cli {

namespace {

int runDemo(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption outputOption(
        QStringList{QStringLiteral("o"), QStringLiteral("output")},
        Cli::tr("where to write it (default: --project when given, else %1)").arg(demo::defaultDemoPath()),
        QStringLiteral("PATH"));
    const QCommandLineOption forceOption(QStringLiteral("force"), Cli::tr("replace an existing file"));
    parser.addOption(outputOption);
    parser.addOption(forceOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments; the path goes after -o"), QStringLiteral("demo"));
    QString path = parser.value(outputOption);
    if (parser.isSet(outputOption) && path.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("-o needs a file name"), QStringLiteral("demo"));
    if (path.isEmpty())
        path = ctx.projectOption.isEmpty() ? demo::defaultDemoPath() : ctx.projectOption;
    path = QFileInfo(path).absoluteFilePath();

    QElapsedTimer timer;
    timer.start();
    demo::DemoOptions options;
    options.overwrite = parser.isSet(forceOption);
    auto written = demo::writeDemoProject(path, options);
    if (!written)
        return ctx.runtimeError(written.error().text());
    const qint64 ms = timer.elapsed();
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("path"), path},
                       {QStringLiteral("synthetic"), true},
                       {QStringLiteral("elapsed_ms"), double(ms)}});
    } else {
        ctx.out() << path << Qt::endl;
        ctx.err() << Cli::tr("Wrote the demo project (synthetic data, %1 ms). Next: moewb --project %2 stage 1")
                         .arg(ms)
                         .arg(path)
                  << Qt::endl;
    }
    return Success;
}

} // namespace

QList<Command> demoCommands() {
    Command demo;
    demo.words = {QStringLiteral("demo")};
    demo.synopsis = QStringLiteral("[-o PATH] [--force]");
    demo.summary = Cli::tr("write the synthetic demo project and print its path");
    demo.run = [demo](CliContext& ctx, const QStringList& a) { return runDemo(ctx, demo, a); };
    return {demo};
}

} // namespace moewb::cli
