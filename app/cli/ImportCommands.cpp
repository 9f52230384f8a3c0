// moewb import PATH... [--format NAME] [--record NAME] [--run NAME | --into NAME] ...
// Every file is parsed and checked (runimport::planImport) before anything is stored;
// a file with an error stores nothing (exit 1). Each PATH becomes one run (a folder
// with everything in it), or all PATHs one run with --run, or are added to a run with
// --into; each run is saved in its own transaction (ProjectStore::saveRun/replaceRun).
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "ImportOnCluster.h"
#include "importers/ImportFile.h"
#include "importers/ImportSupport.h"
#include "importers/Importer.h"
#include "importers/NcclTestsMatrixFile.h"
#include "importers/WandbCsvImporter.h"
#include "record/ConfigRecord.h"
#include "runimport/RunImport.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"

#include <QDir>
#include <QFile>
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

void printErrors(CliContext& ctx, store::ProjectStore& project, const QList<importers::ImportError>& errors,
                 const QJsonArray& plans) {
    for (const auto& e : errors)
        ctx.err() << Cli::tr("moewb: %1").arg(e.text()) << Qt::endl;
    ctx.err() << Cli::tr("moewb: nothing stored.") << Qt::endl;
    if (ctx.json) {
        QJsonArray array;
        for (const auto& e : errors)
            array.append(errorJson(e));
        ctx.printJson({{QStringLiteral("project"), project.path()},
                       {QStringLiteral("runs"), QJsonArray()},
                       {QStringLiteral("plans"), plans},
                       {QStringLiteral("errors"), array}});
    }
}

bool anyUnreadable(const QList<importers::ImportError>& errors) {
    for (const auto& e : errors)
        if (e.unreadable)
            return true;
    return false;
}

// One run to be: its name, what it is made of, and the plan once parsed.
struct PendingRun {
    QString name;
    QStringList paths;
    runimport::ImportPlan plan;
    QString wandbRun; // a W&B export's run, when one file holds several
    QString automaticBase; // the base of an automatic name (empty for --run and --into)
};

// The runs of a W&B CSV export that holds several (empty for any other file).
QStringList wandbRunsOf(const QString& path, const QString& format) {
    if (!QFileInfo(path).isFile())
        return {};
    QString f = format;
    if (f.isEmpty()) {
        // The format from the file's head, as the import detects it: only a W&B export
        // is read whole here (a large expert-load file is never held in memory).
        QFile head;
        if (importers::openImportFile(head, path))
            return {};
        const auto detected = importers::detectFormat(head.read((1 << 16) + 1), path);
        f = detected ? detected.value() : QString();
    }
    if (f != QLatin1String(importers::WandbCsvImporter::kFormat))
        return {};
    auto bytes = importers::readWholeFile(path);
    if (!bytes)
        return {};
    const auto names = importers::WandbCsvImporter::runNames(bytes.value(), path);
    return names && names.value().size() > 1 ? names.value() : QStringList();
}

// A file's base name as a run name: what names may not hold becomes "_", and it is cut
// short enough to take a "-NN" suffix (store/NameRules.h).
QString defaultRunName(const QString& path) {
    const QFileInfo info(path);
    QString name = info.isDir() ? QDir(info.absoluteFilePath()).dirName()
                                : (info.completeBaseName().isEmpty() ? info.fileName() : info.completeBaseName());
    for (QChar& c : name)
        if (!store::nameProblem(store::NameKind::Run, QStringLiteral("a") + c).isEmpty())
            c = QLatin1Char('_');
    name = name.left(store::kMaxNameLength - 8);
    return name.trimmed().isEmpty() ? QStringLiteral("run") : name;
}

int runImport(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 Cli::tr("files and folders to import; each becomes one run, or all one run with --run "
                                         "or --into"),
                                 QStringLiteral("PATH..."));
    const QCommandLineOption formatOption(
        QStringLiteral("format"),
        Cli::tr("read every file as this format instead of detecting it: %1")
            .arg(importers::importFormats().join(QStringLiteral(", "))),
        QStringLiteral("NAME"));
    const QCommandLineOption recordOption(QStringLiteral("record"),
                                          Cli::tr("the config record the runs belong to (default: the project's only "
                                                  "record)"),
                                          QStringLiteral("NAME"));
    const QCommandLineOption runOption(QStringLiteral("run"),
                                       Cli::tr("make ONE run of this name from every PATH (default: one run per PATH, "
                                               "named after it and made unique)"),
                                       QStringLiteral("NAME"));
    const QCommandLineOption intoOption(QStringLiteral("into"),
                                        Cli::tr("add every PATH to this existing run, in one transaction"),
                                        QStringLiteral("NAME"));
    const QCommandLineOption partialOption(QStringLiteral("allow-partial-steps"),
                                           Cli::tr("when rank files do not hold the same steps, import the steps every "
                                                   "rank file has (default: refuse)"));
    const QCommandLineOption excludeOption(QStringLiteral("exclude"),
                                           Cli::tr("leave files matching this wildcard out of the folders given "
                                                   "(repeatable; matched against the name and the relative path)"),
                                           QStringLiteral("GLOB"));
    const QCommandLineOption wandbOption(QStringLiteral("wandb-run"),
                                         Cli::tr("the run to read from a W&B CSV export that holds several"),
                                         QStringLiteral("NAME"));
    const QCommandLineOption dryRunOption(QStringLiteral("dry-run"),
                                          Cli::tr("read and check everything, print the plan, store nothing"));
    // A pasted nccl-tests table that does not show these (docs/formats.md).
    const QCommandLineOption ranksOption(QStringLiteral("ranks"),
                                         Cli::tr("nccl-tests text: the test's ranks, when the table does not show "
                                                 "them and its rows cannot give them"),
                                         QStringLiteral("N"));
    const QCommandLineOption collectiveOption(QStringLiteral("collective"),
                                              Cli::tr("nccl-tests text: the test (alltoall or alltoallv), when the "
                                                      "table does not name it"),
                                              QStringLiteral("NAME"));
    // alltoallv_perf's traffic matrix (docs/formats.md, "alltoallv_perf").
    const QCommandLineOption matrixOption(
        QStringLiteral("alltoallv-matrix"),
        Cli::tr("nccl-tests text: the traffic matrix alltoallv_perf read (NCCL_TESTS_ALLTOALLV_MATRIX_FILE), read by "
                "its rules: the bytes per rank of rows printed without NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1, checked "
                "against the summary where it was printed"),
        QStringLiteral("FILE"));
    const QCommandLineOption matrixScaleOption(
        QStringLiteral("alltoallv-scale"),
        Cli::tr("with --alltoallv-matrix: the NCCL_TESTS_ALLTOALLV_MATRIX_SCALE the run had (default 1)"),
        QStringLiteral("S"));
    const QCommandLineOption maxBytesOption(QStringLiteral("max-bytes"),
                                            Cli::tr("refuse a file bigger than SIZE before reading it: bytes, or a "
                                                    "number followed by K, M, G or T (default: "
                                                    "MOEWB_IMPORT_MAX_BYTES, else 4G)"),
                                            QStringLiteral("SIZE"));
    // The traces under PATH digested on a cluster's nodes (docs/anatomy.md, "On the cluster").
    const QCommandLineOption onClusterOption(QStringLiteral("on-cluster"),
                                             Cli::tr("PATH is a folder of profiler traces on this cluster's shared file "
                                                     "system: digest them on its nodes and bring back only the per-step "
                                                     "digests"),
                                             QStringLiteral("CLUSTER"));
    const QCommandLineOption acceptOption(QStringLiteral("accept-new-host-keys"),
                                          Cli::tr("with --on-cluster: trust unknown host keys and record them in "
                                                  "~/.ssh/known_hosts (default: refuse them)"));
    const QCommandLineOption bundleOption(QStringLiteral("probe-bundle"),
                                          Cli::tr("with --on-cluster: the probe bundle directory (it holds moe-digest)"),
                                          QStringLiteral("DIR"));
    parser.addOption(onClusterOption);
    parser.addOption(acceptOption);
    parser.addOption(bundleOption);
    parser.addOption(formatOption);
    parser.addOption(recordOption);
    parser.addOption(runOption);
    parser.addOption(intoOption);
    parser.addOption(partialOption);
    parser.addOption(excludeOption);
    parser.addOption(wandbOption);
    parser.addOption(dryRunOption);
    parser.addOption(ranksOption);
    parser.addOption(collectiveOption);
    parser.addOption(maxBytesOption);
    parser.addOption(matrixOption);
    parser.addOption(matrixScaleOption);
    const QCommandLineOption strictOption(
        QStringLiteral("strict"),
        Cli::tr("console logs: refuse a file at its first damaged line (default: keep the readable fields of "
                "damaged lines and list them in the plan)"));
    parser.addOption(strictOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList paths = parser.positionalArguments();
    if (paths.isEmpty())
        return ctx.usageError(Cli::tr("expects at least one PATH"), kWords);
    const QString format = parser.value(formatOption).trimmed();
    if (parser.isSet(formatOption) && !importers::importFormats().contains(format))
        return ctx.usageError(Cli::tr("unknown format \"%1\"; known formats: %2")
                                  .arg(format, importers::importFormats().join(QStringLiteral(", "))),
                              kWords);
    const QString runName = parser.value(runOption).trimmed();
    const QString intoName = parser.value(intoOption).trimmed();
    if (parser.isSet(runOption) && runName.isEmpty())
        return ctx.usageError(Cli::tr("--run needs a name"), kWords);
    if (parser.isSet(intoOption) && intoName.isEmpty())
        return ctx.usageError(Cli::tr("--into needs the name of a run"), kWords);
    if (parser.isSet(runOption) && parser.isSet(intoOption))
        return ctx.usageError(Cli::tr("--run makes a new run and --into adds to one; give one of them"), kWords);
    runimport::ImportOptions options;
    options.format = format;
    options.allowPartialSteps = parser.isSet(partialOption);
    options.exclude = parser.values(excludeOption);
    options.wandbRun = parser.value(wandbOption).trimmed();
    options.strict = parser.isSet(strictOption);
    if (parser.isSet(ranksOption)) {
        bool ok = false;
        options.ranks = parser.value(ranksOption).trimmed().toInt(&ok);
        if (!ok || options.ranks < 1)
            return ctx.usageError(Cli::tr("--ranks must be a whole number >= 1, not \"%1\"").arg(parser.value(ranksOption)),
                                  kWords);
    }
    options.collective = parser.value(collectiveOption).trimmed();
    if (parser.isSet(collectiveOption) && options.collective != QLatin1String("alltoall") &&
        options.collective != QLatin1String("alltoallv"))
        return ctx.usageError(Cli::tr("--collective must be alltoall or alltoallv (only all-to-all tests are "
                                      "imported), not \"%1\"")
                                  .arg(options.collective),
                              kWords);
    double matrixScale = 1.0;
    if (parser.isSet(matrixScaleOption)) {
        if (!parser.isSet(matrixOption))
            return ctx.usageError(Cli::tr("--alltoallv-scale goes with --alltoallv-matrix"), kWords);
        const auto scale = importers::nccltests::parseMatrixScale(parser.value(matrixScaleOption).toUtf8());
        if (!scale)
            return ctx.usageError(Cli::tr("--alltoallv-scale must be a number, as alltoallv_perf reads "
                                          "NCCL_TESTS_ALLTOALLV_MATRIX_SCALE, not \"%1\"")
                                      .arg(parser.value(matrixScaleOption)),
                                  kWords);
        matrixScale = *scale;
    }
    if (parser.isSet(maxBytesOption)) {
        const auto limit = importers::parseByteSize(parser.value(maxBytesOption).toUtf8());
        if (!limit)
            return ctx.usageError(Cli::tr("--max-bytes must be a size in bytes, or a number followed by K, M, G or T "
                                          "(powers of 1024), not \"%1\"")
                                      .arg(parser.value(maxBytesOption)),
                                  kWords);
        importers::setMaxImportBytes(*limit); // wins over MOEWB_IMPORT_MAX_BYTES
    }
    const bool dryRun = parser.isSet(dryRunOption);
    std::optional<OnClusterOptions> onCluster;
    if (parser.isSet(onClusterOption)) {
        if (paths.size() != 1 || parser.isSet(intoOption) || parser.isSet(formatOption))
            return ctx.usageError(Cli::tr("--on-cluster takes one PATH, the traces' folder as the nodes see it, and "
                                          "makes a new run (not with --into or --format)"),
                                  kWords);
        onCluster = OnClusterOptions{parser.value(onClusterOption).trimmed(), paths.first(),
                                     parser.isSet(acceptOption), parser.value(bundleOption), !ctx.json};
    }

    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    if (parser.isSet(matrixOption)) {
        // Read by alltoallv_perf's own rules; its refusal is alltoallv_perf's message.
        const QString matrixPath = parser.value(matrixOption);
        auto bytes = importers::readWholeFile(matrixPath);
        if (!bytes) {
            printErrors(ctx, *project, {bytes.error()}, {});
            return RuntimeFailure;
        }
        auto matrix = importers::nccltests::readTrafficMatrix(bytes.value(), matrixPath, matrixScale);
        if (!matrix) {
            printErrors(ctx, *project, {matrix.error()}, {});
            return ValidationFailed;
        }
        options.alltoallvMatrix =
            std::make_shared<const importers::nccltests::TrafficMatrixFile>(std::move(matrix.value()));
    }
    QSet<QString> taken;
    for (const auto& r : project->runs())
        taken.insert(r.name);
    std::optional<store::RunRow> into;
    std::optional<QString> recordName;
    if (!intoName.isEmpty()) {
        into = project->run(intoName);
        if (!into)
            return ctx.usageError(Cli::tr("no run named \"%1\" in %2 to add to").arg(intoName, project->path()), kWords);
        const QString asked = parser.value(recordOption).trimmed();
        if (!asked.isEmpty() && asked != into->recordName)
            return ctx.usageError(Cli::tr("run \"%1\" belongs to record \"%2\", not \"%3\"")
                                      .arg(intoName, into->recordName, asked),
                                  kWords);
        recordName = into->recordName;
    } else {
        recordName = chooseRecord(ctx, *project, parser.value(recordOption).trimmed(), &code);
        if (!recordName)
            return code;
    }
    if (!runName.isEmpty() && taken.contains(runName))
        return ctx.usageError(Cli::tr("a run named \"%1\" already exists in %2").arg(runName, project->path()), kWords);
    std::optional<record::ConfigRecord> record;
    if (const auto row = project->configRecord(*recordName))
        record = record::ConfigRecord::fromJson(row->json, nullptr);

    // What becomes which run.
    QList<PendingRun> pending;
    if (!runName.isEmpty() || into) {
        if (const QString problem = store::nameProblem(store::NameKind::Run, runName); !runName.isEmpty() &&
                                                                                      !problem.isEmpty())
            return ctx.usageError(problem, kWords);
        pending << PendingRun{into ? into->name : runName, paths, {}, {}, {}};
    } else {
        for (const QString& path : paths) {
            // A W&B export with several runs, none chosen: each W&B run becomes a run.
            const QStringList wandbRuns = options.wandbRun.isEmpty() ? wandbRunsOf(path, format) : QStringList();
            const QStringList bases = wandbRuns.isEmpty() ? QStringList{defaultRunName(path)} : wandbRuns;
            for (qsizetype k = 0; k < bases.size(); ++k) {
                QString name = bases[k];
                for (int n = 2; taken.contains(name); ++n)
                    name = bases[k] + QStringLiteral("-%1").arg(n);
                taken.insert(name);
                pending << PendingRun{name, {path}, {}, wandbRuns.isEmpty() ? QString() : wandbRuns[k], bases[k]};
            }
        }
    }

    // Read and check everything first: nothing is stored unless every file is good.
    QList<importers::ImportError> errors;
    QJsonArray plans;
    auto planOf = [&](const PendingRun& p) -> Expected<runimport::ImportPlan, QList<importers::ImportError>> {
        if (onCluster)
            return planOnCluster(*project, *onCluster, record);
        auto collected = runimport::collectImportFiles(p.paths, options);
        if (!collected)
            return unexpected(QList<importers::ImportError>{collected.error()});
        runimport::ImportOptions own = options;
        if (!p.wandbRun.isEmpty())
            own.wandbRun = p.wandbRun;
        return runimport::planImport(collected.value(), record, own);
    };
    for (PendingRun& p : pending) {
        auto plan = planOf(p);
        if (!plan) {
            errors << plan.error();
            continue;
        }
        p.plan = std::move(plan.value());
        QJsonObject planJson = p.plan.toJson();
        planJson.insert(QStringLiteral("run"), p.name);
        plans.append(planJson);
    }
    if (!errors.isEmpty()) {
        printErrors(ctx, *project, errors, plans);
        return anyUnreadable(errors) ? RuntimeFailure : ValidationFailed;
    }
    // The plan, before anything is stored.
    if (!ctx.json)
        for (const PendingRun& p : pending) {
            ctx.out() << (into ? Cli::tr("Plan: add %n file(s) to run \"%1\" (record \"%2\"):", "",
                                         int(p.plan.files.size()))
                               : Cli::tr("Plan: run \"%1\" (record \"%2\") from %n file(s):", "",
                                         int(p.plan.files.size())))
                             .arg(p.name, *recordName)
                      << Qt::endl;
            for (const QString& line : p.plan.describe())
                ctx.out() << line << Qt::endl;
        }

    std::optional<store::RunData> merged;
    if (into) {
        auto m = runimport::mergeInto(*project, *into, std::move(pending.first().plan));
        if (!m) {
            printErrors(ctx, *project, m.error(), plans);
            return ValidationFailed;
        }
        merged = std::move(m.value());
    }
    if (dryRun) {
        if (ctx.json)
            ctx.printJson({{QStringLiteral("project"), project->path()},
                           {QStringLiteral("runs"), QJsonArray()},
                           {QStringLiteral("plans"), plans},
                           {QStringLiteral("dry_run"), true}});
        else
            ctx.out() << Cli::tr("Dry run: nothing stored.") << Qt::endl;
        return Success;
    }

    QJsonArray stored;
    QStringList storedNames;
    for (qsizetype i = 0; i < pending.size(); ++i) {
        PendingRun& p = pending[i];
        const QString formatText = into ? merged->environment.value(QLatin1String("source_format")).toString()
                                        : p.plan.environment.value(QLatin1String("source_format")).toString();
        qint64 rows = 0;
        for (const auto& f : p.plan.files)
            rows += f.rows;
        const QString file = p.paths.size() == 1 ? p.paths.first() : p.plan.sourceFile;
        store::RunData run = into ? std::move(*merged) : runimport::toRunData(std::move(p.plan), p.name, *recordName);
        // Another import may take the automatic name before this one saves: the store
        // then takes the next free one inside its transaction (savedName).
        run.automaticNameBase = p.automaticBase;
        QString savedName = run.name;
        auto saved = into ? project->replaceRun(run) : project->saveRun(run, {}, &savedName);
        run.name = savedName;
        if (!saved) {
            ctx.err() << Cli::tr("moewb: %1: %2").arg(file, saved.error().text()) << Qt::endl;
            if (!storedNames.isEmpty())
                ctx.err() << Cli::tr("moewb: stored before the failure, each complete: %1")
                                 .arg(storedNames.join(QStringLiteral(", ")))
                          << Qt::endl;
            return RuntimeFailure;
        }
        storedNames << run.name;
        stored.append(QJsonObject{{QStringLiteral("name"), run.name},
                                  {QStringLiteral("format"), formatText},
                                  {QStringLiteral("rows"), rows},
                                  {QStringLiteral("file"), file},
                                  {QStringLiteral("kind"), store::runKindName(run.kind)},
                                  {QStringLiteral("record"), *recordName},
                                  {QStringLiteral("comm_samples"), run.commSamples.size()},
                                  {QStringLiteral("step_metrics"), run.stepMetrics.size()},
                                  {QStringLiteral("expert_load_blocks"), run.expertLoad.size() + run.expertLoadStreamRows},
                                  {QStringLiteral("plan"), plans[i]}});
        if (!ctx.json)
            ctx.out() << (into ? Cli::tr("Added to run \"%2\" from %1 (%3, %n data row(s)); the run now holds %4 "
                                         "communication samples, %5 step metrics, %6 expert-load blocks; record "
                                         "\"%7\".",
                                         "", int(std::min<qint64>(rows, INT_MAX)))
                               : Cli::tr("Imported %1 as run \"%2\" (%3, %n data row(s): %4 communication samples, %5 "
                                         "step metrics, %6 expert-load blocks; record \"%7\").",
                                         "", int(std::min<qint64>(rows, INT_MAX))))
                             .arg(file, run.name, formatText)
                             .arg(run.commSamples.size())
                             .arg(run.stepMetrics.size())
                             .arg(run.expertLoad.size() + run.expertLoadStreamRows)
                             .arg(*recordName)
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
    import.synopsis = QStringLiteral("PATH... [--format NAME] [--record NAME] [--run NAME | --into NAME] "
                                     "[--allow-partial-steps] [--exclude GLOB]... [--wandb-run NAME] [--dry-run] "
                                     "[--ranks N] [--collective alltoall|alltoallv] "
                                     "[--alltoallv-matrix FILE [--alltoallv-scale S]] "
                                     "[--on-cluster CLUSTER [--accept-new-host-keys] [--probe-bundle DIR]]");
    import.summary = Cli::tr("import probe JSON, nccl-tests, Megatron, TensorBoard, CSV/JSONL files as runs "
                             "(docs/formats.md)");
    import.run = [import](CliContext& ctx, const QStringList& a) { return runImport(ctx, import, a); };
    return {import};
}

} // namespace moewb::cli
