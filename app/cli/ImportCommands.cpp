// moewb import FILE... [--format NAME] [--record NAME] [--run NAME]
// Every file is parsed completely before anything is stored; a file with an error
// stores nothing (exit 1). Each file becomes one run, saved in its own transaction
// (ProjectStore::saveRun), and only after every file of the command parsed.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "importers/Importer.h"
#include "store/ProjectStore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QSet>

#include <climits>

namespace moewb::cli {

namespace {

const QString kWords = QStringLiteral("import");

QJsonObject errorJson(const importers::ImportError& e) {
    return {{QStringLiteral("file"), e.file},       {QStringLiteral("line"), e.line},
            {QStringLiteral("field"), e.field},     {QStringLiteral("message"), e.message},
            {QStringLiteral("text"), e.text()}};
}

// The record the runs belong to: --record NAME, or the project's only record.
std::optional<QString> chooseRecord(CliContext& ctx, store::ProjectStore& project, const QString& asked, int* code) {
    QStringList names;
    for (const auto& r : project.configRecords())
        names << r.name;
    if (!asked.isEmpty()) {
        if (names.contains(asked))
            return asked;
        *code = ctx.usageError(names.isEmpty()
                                   ? Cli::tr("no config record named \"%1\"; the project has none yet (add one with: "
                                             "moewb record add FILE)")
                                         .arg(asked)
                                   : Cli::tr("no config record named \"%1\"; the project has: %2")
                                         .arg(asked, names.join(QStringLiteral(", "))),
                               kWords);
        return std::nullopt;
    }
    if (names.size() == 1)
        return names.first();
    *code = ctx.usageError(names.isEmpty()
                               ? Cli::tr("every run belongs to a config record and the project has none; add one "
                                         "with: moewb record add FILE")
                               : Cli::tr("the project has %1 config records (%2); choose one with --record NAME")
                                     .arg(names.size())
                                     .arg(names.join(QStringLiteral(", "))),
                           kWords);
    return std::nullopt;
}

int runImport(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), Cli::tr("files to import; each becomes one run"),
                                 QStringLiteral("FILE..."));
    const QCommandLineOption formatOption(
        QStringLiteral("format"),
        Cli::tr("read every FILE as this format instead of detecting it: %1")
            .arg(importers::importFormats().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    const QCommandLineOption recordOption(QStringLiteral("record"),
                                          Cli::tr("the config record the runs belong to (default: the project's only "
                                                  "record)"),
                                          QStringLiteral("NAME"));
    const QCommandLineOption runOption(QStringLiteral("run"),
                                       Cli::tr("the run's name, with one FILE (default: the file's base name, made "
                                               "unique)"),
                                       QStringLiteral("NAME"));
    parser.addOption(formatOption);
    parser.addOption(recordOption);
    parser.addOption(runOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        return ctx.usageError(Cli::tr("expects at least one FILE"), kWords);
    const QString format = parser.value(formatOption).trimmed();
    if (parser.isSet(formatOption) && !importers::importFormats().contains(format))
        return ctx.usageError(Cli::tr("unknown format \"%1\"; known formats: %2")
                                  .arg(format, importers::importFormats().join(QStringLiteral(", "))),
                              kWords);
    const QString runName = parser.value(runOption).trimmed();
    if (parser.isSet(runOption) && runName.isEmpty())
        return ctx.usageError(Cli::tr("--run needs a name"), kWords);
    if (!runName.isEmpty() && files.size() > 1)
        return ctx.usageError(Cli::tr("--run names one run; give one FILE, or leave --run out to name each run after "
                                      "its file"),
                              kWords);

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const auto record = chooseRecord(ctx, *project, parser.value(recordOption).trimmed(), &code);
    if (!record)
        return code;
    QSet<QString> taken;
    for (const auto& r : project->runs())
        taken.insert(r.name);
    if (!runName.isEmpty() && taken.contains(runName))
        return ctx.usageError(Cli::tr("a run named \"%1\" already exists in %2").arg(runName, project->path()), kWords);

    // Parse everything first: nothing is stored unless every file is good.
    QList<importers::ImportedData> parsed;
    QList<importers::ImportError> errors;
    bool unreadable = false;
    for (const QString& file : files) {
        auto result = importers::importFile(file, format);
        if (!result) {
            errors << result.error();
            unreadable = unreadable || result.error().unreadable;
            continue;
        }
        parsed << std::move(result.value());
    }
    if (!errors.isEmpty()) {
        for (const auto& e : errors)
            ctx.err() << Cli::tr("moewb: %1").arg(e.text()) << Qt::endl;
        ctx.err() << Cli::tr("moewb: nothing stored.") << Qt::endl;
        if (ctx.json) {
            QJsonArray array;
            for (const auto& e : errors)
                array.append(errorJson(e));
            ctx.printJson({{QStringLiteral("project"), project->path()},
                           {QStringLiteral("runs"), QJsonArray()},
                           {QStringLiteral("errors"), array}});
        }
        return unreadable ? RuntimeFailure : ValidationFailed;
    }

    QJsonArray stored;
    QStringList storedNames;
    for (qsizetype i = 0; i < parsed.size(); ++i) {
        importers::ImportedData& data = parsed[i];
        const QString& file = files[i];
        QString name = runName;
        if (name.isEmpty()) {
            const QString base = QFileInfo(file).completeBaseName().isEmpty() ? QFileInfo(file).fileName()
                                                                               : QFileInfo(file).completeBaseName();
            name = base;
            for (int n = 2; taken.contains(name); ++n)
                name = base + QStringLiteral("-%1").arg(n);
        }
        taken.insert(name);
        store::RunData run;
        run.name = name;
        run.kind = data.kind;
        run.recordName = *record;
        run.sourceFile = QFileInfo(file).absoluteFilePath();
        run.environment = data.environment;
        run.environment.insert(QStringLiteral("source_format"), data.format);
        run.environment.insert(QStringLiteral("source_rows"), data.rows);
        run.commSamples = std::move(data.commSamples);
        run.stepMetrics = std::move(data.stepMetrics);
        run.expertLoad = std::move(data.expertLoad);
        auto saved = project->saveRun(run);
        if (!saved) {
            ctx.err() << Cli::tr("moewb: %1: %2").arg(file, saved.error().text()) << Qt::endl;
            if (!storedNames.isEmpty())
                ctx.err() << Cli::tr("moewb: stored before the failure, each complete: %1")
                                 .arg(storedNames.join(QStringLiteral(", ")))
                          << Qt::endl;
            return RuntimeFailure;
        }
        storedNames << name;
        stored.append(QJsonObject{{QStringLiteral("name"), name},
                                  {QStringLiteral("format"), data.format},
                                  {QStringLiteral("rows"), data.rows},
                                  {QStringLiteral("file"), file},
                                  {QStringLiteral("kind"), store::runKindName(run.kind)},
                                  {QStringLiteral("record"), *record},
                                  {QStringLiteral("comm_samples"), run.commSamples.size()},
                                  {QStringLiteral("step_metrics"), run.stepMetrics.size()},
                                  {QStringLiteral("expert_load_blocks"), run.expertLoad.size()}});
        if (!ctx.json)
            ctx.out() << Cli::tr("Imported %1 as run \"%2\" (%3, %n data row(s): %4 communication samples, %5 step "
                                 "metrics, %6 expert-load blocks; record \"%7\").",
                                 "", int(std::min<qint64>(data.rows, INT_MAX)))
                             .arg(file, name, data.format)
                             .arg(run.commSamples.size())
                             .arg(run.stepMetrics.size())
                             .arg(run.expertLoad.size())
                             .arg(*record)
                      << Qt::endl;
    }
    if (ctx.json)
        ctx.printJson({{QStringLiteral("project"), project->path()}, {QStringLiteral("runs"), stored}});
    return Success;
}

} // namespace

QList<Command> importCommands() {
    Command import;
    import.words = {QStringLiteral("import")};
    import.synopsis = QStringLiteral("FILE... [--format NAME] [--record NAME] [--run NAME]");
    import.summary = Cli::tr("import probe JSON, nccl-tests, Megatron, TensorBoard, CSV/JSONL files as runs "
                             "(docs/formats.md)");
    import.run = [import](CliContext& ctx, const QStringList& a) { return runImport(ctx, import, a); };
    return {import};
}

} // namespace moewb::cli
