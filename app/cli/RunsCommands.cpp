#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"

#include <QJsonArray>

namespace moewb::cli {

namespace {

int runList(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption kindOption(QStringLiteral("kind"), Cli::tr("only runs of this kind: probe, training, imported"),
                                        QStringLiteral("KIND"));
    const QCommandLineOption recordOption(QStringLiteral("record"), Cli::tr("only runs of this config record"),
                                          QStringLiteral("NAME"));
    parser.addOption(kindOption);
    parser.addOption(recordOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), QStringLiteral("runs list"));
    std::optional<store::RunKind> kind;
    if (parser.isSet(kindOption)) {
        kind = store::runKindFromName(parser.value(kindOption));
        if (!kind)
            return ctx.usageError(Cli::tr("--kind must be probe, training or imported, not \"%1\"")
                                      .arg(parser.value(kindOption)),
                                  QStringLiteral("runs list"));
    }
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    QList<store::RunRow> rows;
    for (const auto& r : project->runs()) {
        if (kind && r.kind != *kind)
            continue;
        if (parser.isSet(recordOption) && r.recordName != parser.value(recordOption))
            continue;
        rows << r;
    }
    if (ctx.json) {
        QJsonArray array;
        for (const auto& r : rows) {
            array.append(QJsonObject{{QStringLiteral("name"), r.name},
                                     {QStringLiteral("kind"), store::runKindName(r.kind)},
                                     {QStringLiteral("record"), r.recordName},
                                     {QStringLiteral("cluster"), r.clusterName},
                                     {QStringLiteral("source_file"), r.sourceFile},
                                     {QStringLiteral("created"), r.created.toString(Qt::ISODate)},
                                     {QStringLiteral("comm_samples"), r.commSampleCount},
                                     {QStringLiteral("steps"), r.stepCount},
                                     {QStringLiteral("expert_load_blocks"), r.expertLoadBlocks}});
        }
        ctx.printJson({{QStringLiteral("project"), project->path()}, {QStringLiteral("runs"), array}});
        return Success;
    }
    if (rows.isEmpty()) {
        ctx.out() << Cli::tr("No runs in %1.").arg(project->path()) << Qt::endl;
        return Success;
    }
    TextTable table;
    table.addColumn(Cli::tr("NAME"));
    table.addColumn(Cli::tr("KIND"));
    table.addColumn(Cli::tr("RECORD"));
    table.addColumn(Cli::tr("CLUSTER"));
    table.addColumn(Cli::tr("COMM SAMPLES"), TextTable::Align::Right);
    table.addColumn(Cli::tr("STEPS"), TextTable::Align::Right);
    table.addColumn(Cli::tr("LOAD BLOCKS"), TextTable::Align::Right);
    table.addColumn(Cli::tr("CREATED"));
    for (const auto& r : rows) {
        // Names from a shared project are escaped: a name cannot drive the terminal.
        table.addRow({store::printableName(r.name), store::runKindTitle(r.kind), store::printableName(r.recordName),
                      r.clusterName.isEmpty() ? QStringLiteral("-") : store::printableName(r.clusterName),
                      QString::number(r.commSampleCount), QString::number(r.stepCount),
                      QString::number(r.expertLoadBlocks),
                      r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))});
    }
    ctx.out() << table.render();
    return Success;
}

} // namespace

QList<Command> runsCommands() {
    Command list;
    list.words = {QStringLiteral("runs"), QStringLiteral("list")};
    list.synopsis = QStringLiteral("[--kind KIND] [--record NAME]");
    list.summary = Cli::tr("the project's runs: probe, training and imported");
    list.run = [list](CliContext& ctx, const QStringList& a) { return runList(ctx, list, a); };
    return {list};
}

} // namespace moewb::cli
