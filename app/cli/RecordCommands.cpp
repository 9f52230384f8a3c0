#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "record/DuplicateKeys.h"
#include "record/RecordJson.h"
#include "record/RecordValidation.h"
#include "store/NameRules.h"
#include "store/ProjectStore.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace moewb::cli {

namespace {

struct LoadedRecord {
    bool readable = false;       // the file could be read at all
    bool syntaxOk = false;       // it is a JSON object
    QJsonObject json;
    QList<record::FieldIssue> issues;  // syntax issues, or every missing/invalid field
    QString recordName;
};

LoadedRecord loadRecord(CliContext& ctx, const QString& path) {
    LoadedRecord loaded;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ctx.err() << Cli::tr("moewb: cannot read %1: %2").arg(path, file.errorString()) << Qt::endl;
        return loaded;
    }
    loaded.readable = true;
    const QByteArray bytes = file.readAll();
    const record::ParsedRecord parsed = record::parseRecord(bytes);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        loaded.issues = parsed.issues;  // located syntax error (line, column)
        if (loaded.issues.isEmpty())
            loaded.issues << record::FieldIssue{QString(), Cli::tr("the file is not a JSON object")};
        return loaded;
    }
    if (const auto duplicates = record::duplicateKeyIssues(bytes); !duplicates.isEmpty()) {
        loaded.issues = duplicates; // "line 9: key ... appears again (first on line 4)"
        return loaded;
    }
    loaded.syntaxOk = true;
    loaded.json = doc.object();
    loaded.issues = record::validateJson(loaded.json);
    loaded.recordName = parsed.record.name;
    return loaded;
}

QJsonArray issuesJson(const QList<record::FieldIssue>& issues) {
    QJsonArray array;
    for (const auto& i : issues)
        array.append(QJsonObject{{QStringLiteral("field"), i.field}, {QStringLiteral("message"), i.message}});
    return array;
}

void printIssues(QTextStream& stream, const QString& path, const QList<record::FieldIssue>& issues) {
    // Messages name their field ("moe.top_k is missing: ..."), so the path is not repeated.
    for (const auto& i : issues) {
        if (i.field.isEmpty() || i.message.contains(i.field))
            stream << path << ": " << i.message << Qt::endl;
        else
            stream << path << ": " << i.field << ": " << i.message << Qt::endl;
    }
}

int runValidate(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), Cli::tr("a config record as JSON (docs/formats.md)"));
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(Cli::tr("expects exactly one FILE"), QStringLiteral("record validate"));
    const QString path = pos.first();
    const LoadedRecord loaded = loadRecord(ctx, path);
    if (!loaded.readable)
        return RuntimeFailure;
    const bool valid = loaded.issues.isEmpty();
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("file"), path},
                       {QStringLiteral("valid"), valid},
                       {QStringLiteral("issues"), issuesJson(loaded.issues)}});
    } else if (valid) {
        ctx.out() << Cli::tr("%1: complete; every field of the config record is present and valid.").arg(path)
                  << Qt::endl;
    } else {
        printIssues(ctx.out(), path, loaded.issues);
        ctx.out() << Cli::tr("%1: %n field(s) missing or invalid; runs with this record cannot be compared.", "",
                             int(loaded.issues.size()))
                         .arg(path)
                  << Qt::endl;
    }
    return valid ? Success : ValidationFailed;
}

int runAdd(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("FILE"), Cli::tr("a config record as JSON (docs/formats.md)"));
    const QCommandLineOption nameOption(QStringLiteral("name"),
                                        Cli::tr("the record's name (default: its \"name\" field, else the file name)"),
                                        QStringLiteral("NAME"));
    parser.addOption(nameOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(Cli::tr("expects exactly one FILE"), QStringLiteral("record add"));
    const QString path = pos.first();
    const LoadedRecord loaded = loadRecord(ctx, path);
    if (!loaded.readable)
        return RuntimeFailure;
    if (!loaded.syntaxOk) {
        printIssues(ctx.err(), path, loaded.issues);
        ctx.err() << Cli::tr("moewb: nothing stored.") << Qt::endl;
        return ValidationFailed;
    }
    QString name = parser.value(nameOption).trimmed();
    if (name.isEmpty())
        name = loaded.recordName.trimmed();
    if (name.isEmpty())
        name = QFileInfo(path).completeBaseName();
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const bool complete = loaded.issues.isEmpty();
    // The JSON is stored as written, so nothing the user typed is lost even while
    // fields are still missing; completeness is recorded beside it.
    auto added = project->addConfigRecord(name, loaded.json, complete);
    if (!added)
        return ctx.runtimeError(added.error().text());
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("record"), name},
                       {QStringLiteral("id"), added.value()},
                       {QStringLiteral("project"), project->path()},
                       {QStringLiteral("complete"), complete},
                       {QStringLiteral("issues"), issuesJson(loaded.issues)}});
    } else if (complete) {
        ctx.out() << Cli::tr("Stored config record \"%1\" in %2 (complete).").arg(name, project->path()) << Qt::endl;
    } else {
        printIssues(ctx.out(), path, loaded.issues);
        ctx.out() << Cli::tr("Stored config record \"%1\" in %2, incomplete: %n field(s) missing or invalid. "
                             "Comparisons that use it are refused until they are fixed.",
                             "", int(loaded.issues.size()))
                         .arg(name, project->path())
                  << Qt::endl;
    }
    return Success;
}

int runList(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), QStringLiteral("record list"));
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const auto rows = project->configRecords();
    if (ctx.json) {
        QJsonArray array;
        for (const auto& r : rows) {
            array.append(QJsonObject{{QStringLiteral("name"), r.name},
                                     {QStringLiteral("complete"), r.complete},
                                     {QStringLiteral("created"), r.created.toString(Qt::ISODate)},
                                     {QStringLiteral("missing_or_invalid"),
                                      issuesJson(record::validateJson(r.json))}});
        }
        ctx.printJson({{QStringLiteral("records"), array}});
        return Success;
    }
    if (rows.isEmpty()) {
        ctx.out() << Cli::tr("No config records in %1. Add one with: moewb record add FILE").arg(project->path())
                  << Qt::endl;
        return Success;
    }
    TextTable table;
    table.addColumn(Cli::tr("NAME"));
    table.addColumn(Cli::tr("STATUS"));
    table.addColumn(Cli::tr("CREATED"));
    for (const auto& r : rows) {
        const auto issues = record::validateJson(r.json);
        // Names from a shared project are escaped: a name cannot drive the terminal.
        table.addRow({store::printableName(r.name),
                      issues.isEmpty() ? Cli::tr("complete")
                                       : Cli::tr("incomplete (%n field(s))", "", int(issues.size())),
                      r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))});
    }
    ctx.out() << table.render();
    return Success;
}

} // namespace

QList<Command> recordCommands() {
    Command validate;
    validate.words = {QStringLiteral("record"), QStringLiteral("validate")};
    validate.synopsis = QStringLiteral("FILE");
    validate.summary = Cli::tr("check a config record; exit 1 listing every missing or invalid field");
    validate.run = [validate](CliContext& ctx, const QStringList& a) { return runValidate(ctx, validate, a); };

    Command add;
    add.words = {QStringLiteral("record"), QStringLiteral("add")};
    add.synopsis = QStringLiteral("FILE [--name NAME]");
    add.summary = Cli::tr("store a config record (JSON, docs/formats.md) in the project");
    add.run = [add](CliContext& ctx, const QStringList& a) { return runAdd(ctx, add, a); };

    Command list;
    list.words = {QStringLiteral("record"), QStringLiteral("list")};
    list.synopsis = QString();
    list.summary = Cli::tr("the project's config records and whether each is complete");
    list.run = [list](CliContext& ctx, const QStringList& a) { return runList(ctx, list, a); };
    return {validate, add, list};
}

} // namespace moewb::cli
