// moewb project clean IN -o OUT: a clean copy of a project that was refused for its
// schema (a trigger, view or table that moewb did not create, or an altered
// definition): a new file with moewb's schema and only the known tables' rows, each
// checked (store/ProjectClean.h; docs/store.md, "What opening a project checks").
// Exit 0 written (rows may have been skipped: counted and listed); 2 usage; 3 runtime.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "store/ProjectClean.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

namespace moewb::cli {

namespace {

const QString kClean = QStringLiteral("project clean");

int runClean(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("IN"),
                                 Cli::tr("the project file to clean (default: --project); it is only read"));
    const QCommandLineOption output(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                    Cli::tr("the clean copy to write (must not exist)"), QStringLiteral("OUT"));
    parser.addOption(output);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() > 1)
        return ctx.usageError(Cli::tr("expects at most one IN, got %1").arg(pos.size()), kClean);
    const QString in = !pos.isEmpty() ? pos.first() : ctx.projectOption;
    if (in.isEmpty())
        return ctx.usageError(Cli::tr("name the project to clean (IN, or --project)"), kClean);
    if (!parser.isSet(output) || parser.value(output).trimmed().isEmpty())
        return ctx.usageError(Cli::tr("needs -o OUT, the clean copy to write"), kClean);
    const QString out = parser.value(output);
    if (QFileInfo(in).absoluteFilePath() == QFileInfo(out).absoluteFilePath())
        return ctx.usageError(Cli::tr("OUT must be another file than IN"), kClean);

    auto cleaned = store::cleanProjectCopy(in, out);
    if (!cleaned)
        return ctx.runtimeError(cleaned.error().text());
    const store::CleanReport& r = cleaned.value();
    if (ctx.json) {
        QJsonArray tables;
        for (const store::CleanTable& t : r.tables) {
            QJsonObject o{{QStringLiteral("table"), t.table},
                          {QStringLiteral("copied"), t.copied},
                          {QStringLiteral("skipped"), t.skipped}};
            if (!t.skippedRows.isEmpty())
                o.insert(QStringLiteral("skipped_rows"), QJsonArray::fromStringList(t.skippedRows));
            if (!t.notRead.isEmpty())
                o.insert(QStringLiteral("not_read"), t.notRead);
            tables.append(o);
        }
        ctx.printJson({{QStringLiteral("source"), r.source},
                       {QStringLiteral("output"), r.target},
                       {QStringLiteral("source_schema_version"), r.sourceVersion},
                       {QStringLiteral("schema_version"), r.targetVersion},
                       {QStringLiteral("copied"), r.copied()},
                       {QStringLiteral("skipped"), r.skipped()},
                       {QStringLiteral("left_out"), QJsonArray::fromStringList(r.leftOut)},
                       {QStringLiteral("tables"), tables}});
        return Success;
    }
    QTextStream& o = ctx.out();
    o << Cli::tr("Wrote %1 (schema %2) from %3 (schema %4): %n row(s) copied", "", int(std::min<qint64>(r.copied(), INT_MAX)))
             .arg(QDir::toNativeSeparators(r.target))
             .arg(r.targetVersion)
             .arg(QDir::toNativeSeparators(r.source))
             .arg(r.sourceVersion)
      << Cli::tr(", %n skipped.", "", int(std::min<qint64>(r.skipped(), INT_MAX))) << Qt::endl;
    if (!r.leftOut.isEmpty()) {
        o << Cli::tr("Left out (moewb did not create them, or they were altered):") << Qt::endl;
        for (const QString& what : r.leftOut)
            o << QStringLiteral("  ") << what << Qt::endl;
    }
    o << Cli::tr("Rows per table (copied, skipped):") << Qt::endl;
    int width = 0;
    for (const store::CleanTable& t : r.tables)
        width = std::max(width, int(t.table.size()));
    for (const store::CleanTable& t : r.tables) {
        o << QStringLiteral("  %1  %2  %3").arg(t.table, -width).arg(t.copied, 8).arg(t.skipped, 6);
        if (!t.notRead.isEmpty())
            o << QStringLiteral("  ") << Cli::tr("not read: %1").arg(t.notRead);
        o << Qt::endl;
        for (const QString& row : t.skippedRows)
            o << QStringLiteral("      ") << Cli::tr("skipped %1").arg(row) << Qt::endl;
        if (t.skipped > t.skippedRows.size())
            o << QStringLiteral("      ") << Cli::tr("… and %n more skipped", "", int(std::min<qint64>(t.skipped - t.skippedRows.size(), INT_MAX)))
              << Qt::endl;
    }
    return Success;
}

} // namespace

QList<Command> projectCommands() {
    Command clean;
    clean.words = {QStringLiteral("project"), QStringLiteral("clean")};
    clean.synopsis = QStringLiteral("[IN] -o OUT");
    clean.summary = Cli::tr("write a clean copy of a project that was refused for objects moewb did not create: "
                            "moewb's schema, only the known tables' rows, each checked");
    clean.run = [clean](CliContext& ctx, const QStringList& args) { return runClean(ctx, clean, args); };
    return {clean};
}

} // namespace moewb::cli
