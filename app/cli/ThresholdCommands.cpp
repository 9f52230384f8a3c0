// moewb threshold list | set KEY VALUE [--source team|suggested] [--note TEXT] |
// suggest N [--run NAME...] [--apply]: the thresholds the stage gates compare against,
// headless (the window's "Thresholds" table and "Suggest thresholds from this round").
// Exit 0 done; 1 nothing to suggest (stage 1 has no usable runs); 2 usage; 3 runtime.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "TextTable.h"
#include "stages/StageEvaluation.h"
#include "stages/StageOneGate.h"
#include "stages/Verdict.h"
#include "store/ProjectStore.h"

#include <QJsonArray>
#include <QLocale>

#include <cmath>

namespace moewb::cli {

namespace {

const QString kList = QStringLiteral("threshold list");
const QString kSet = QStringLiteral("threshold set");
const QString kSuggest = QStringLiteral("threshold suggest");

// Every key a gate reads: the store's placeholders and the keys only the gates know.
QStringList knownKeys() {
    QStringList keys;
    for (const stages::ThresholdUse& t : stages::defaultThresholds())
        keys << t.key;
    return keys;
}


QString updatedText(const QDateTime& t) {
    return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("-");
}

int runList(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments"), kList);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const QList<store::ThresholdRow> stored = project->thresholds();
    // The stored rows, then the gates' built-in defaults the project does not hold.
    struct Row {
        store::ThresholdRow row;
        bool stored = true;
    };
    QList<Row> rows;
    QStringList seen;
    for (const store::ThresholdRow& r : stored) {
        rows << Row{r, true};
        seen << r.key;
    }
    for (const stages::ThresholdUse& t : stages::defaultThresholds())
        if (!seen.contains(t.key))
            rows << Row{store::ThresholdRow{t.key, t.value, store::ThresholdSource::Placeholder,
                                            Cli::tr("built-in default, not stored"), {}},
                        false};
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.row.key < b.row.key; });

    if (ctx.json) {
        QJsonArray array;
        for (const Row& r : rows)
            array.append(QJsonObject{{QStringLiteral("key"), r.row.key},
                                     {QStringLiteral("value"), r.row.value},
                                     {QStringLiteral("source"), store::thresholdSourceName(r.row.source)},
                                     {QStringLiteral("note"), r.row.note},
                                     {QStringLiteral("updated"), r.row.updated.isValid()
                                                                     ? QJsonValue(r.row.updated.toString(Qt::ISODate))
                                                                     : QJsonValue()},
                                     {QStringLiteral("stored"), r.stored}});
        ctx.printJson({{QStringLiteral("project"), project->path()}, {QStringLiteral("thresholds"), array}});
        return Success;
    }
    TextTable table;
    table.addColumn(Cli::tr("key"));
    table.addColumn(Cli::tr("value"), TextTable::Align::Right);
    table.addColumn(Cli::tr("source"));
    table.addColumn(Cli::tr("updated"));
    table.addColumn(Cli::tr("note"));
    for (const Row& r : rows)
        table.addRow({r.row.key, stages::thresholdValueText(r.row.key, r.row.value),
                      store::thresholdSourceName(r.row.source),
                      updatedText(r.row.updated), r.row.note});
    ctx.out() << table.render();
    ctx.out().flush();
    return Success;
}

int runSet(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("KEY"), Cli::tr("the threshold, e.g. stage1.cv_max (moewb threshold list)"));
    parser.addPositionalArgument(QStringLiteral("VALUE"),
                                 Cli::tr("in the unit threshold list shows (5%, 1.6x, 500), or the stored number "
                                         "(0.05 for 5%)"));
    const QCommandLineOption sourceOption(QStringLiteral("source"),
                                          Cli::tr("team (default: your team's own figure) or suggested (derived "
                                                  "from a first round of measurements)"),
                                          QStringLiteral("SOURCE"));
    const QCommandLineOption noteOption(QStringLiteral("note"), Cli::tr("why this value (kept for the report)"),
                                        QStringLiteral("TEXT"));
    parser.addOption(sourceOption);
    parser.addOption(noteOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2)
        return ctx.usageError(Cli::tr("expects KEY VALUE"), kSet);
    const QString key = pos[0].trimmed();
    const QStringList keys = knownKeys();
    if (!keys.contains(key))
        return ctx.usageError(Cli::tr("unknown threshold \"%1\"; the known keys are: %2")
                                  .arg(key, keys.join(QStringLiteral(", "))),
                              kSet);
    const std::optional<double> parsed = stages::parseThresholdValue(key, pos[1], stages::BareNumber::Stored);
    if (!parsed)
        return ctx.usageError(Cli::tr("the value must be a finite number in the threshold's unit (e.g. %1), not "
                                      "\"%2\"")
                                  .arg(stages::thresholdValueText(key, stages::ThresholdSet().get(key).value), pos[1]),
                              kSet);
    const double value = *parsed;
    store::ThresholdSource source = store::ThresholdSource::Team;
    if (parser.isSet(sourceOption)) {
        const QString name = parser.value(sourceOption).trimmed();
        const auto s = store::thresholdSourceFromName(name);
        if (!s || *s == store::ThresholdSource::Placeholder)
            return ctx.usageError(Cli::tr("--source must be team or suggested, not \"%1\"").arg(name), kSet);
        source = *s;
    }
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    const store::ThresholdRow row{key, value, source, parser.value(noteOption).trimmed(), {}};
    if (auto saved = project->setThreshold(row); !saved)
        return ctx.runtimeError(saved.error().text());
    const auto stored = project->threshold(key);
    if (ctx.json) {
        ctx.printJson({{QStringLiteral("project"), project->path()},
                       {QStringLiteral("key"), key},
                       {QStringLiteral("value"), value},
                       {QStringLiteral("source"), store::thresholdSourceName(source)},
                       {QStringLiteral("note"), row.note},
                       {QStringLiteral("updated"), stored ? stored->updated.toString(Qt::ISODate) : QString()}});
    } else {
        ctx.out() << Cli::tr("%1 = %2 (%3) saved in %4. Evaluate again to apply it: moewb stage %5")
                         .arg(key, stages::thresholdValueText(key, value), stages::thresholdSourceText(source), project->path(),
                              key.section(QLatin1Char('.'), 0, 0).mid(5))
                  << Qt::endl;
    }
    return Success;
}

int runSuggest(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("N"), Cli::tr("the stage: 1 (the only one that suggests thresholds)"));
    const QCommandLineOption runOption(QStringLiteral("run"),
                                       Cli::tr("derive from this run (repeatable); default: every stage 1 run"),
                                       QStringLiteral("NAME"));
    const QCommandLineOption applyOption(QStringLiteral("apply"),
                                         Cli::tr("store the suggestions as thresholds (source suggested); "
                                                 "without it nothing changes"));
    parser.addOption(runOption);
    parser.addOption(applyOption);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    const QStringList pos = parser.positionalArguments();
    bool ok = false;
    const int stage = pos.size() == 1 ? pos.first().toInt(&ok) : 0;
    if (!ok || stage < 1 || stage > 4)
        return ctx.usageError(Cli::tr("expects the stage number: 1, 2, 3 or 4"), kSuggest);
    if (stage != 1)
        return ctx.usageError(Cli::tr("stage %1 suggests no thresholds: only stage 1 derives them from a first "
                                      "round of measurements (set the others with: moewb threshold set KEY VALUE)")
                                  .arg(stage),
                              kSuggest);
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;
    // The same evaluation as `moewb stage 1` and the window (nothing saved here).
    auto evaluated = stages::evaluateStage(*project, stage, parser.values(runOption));
    if (!evaluated)
        return ctx.usageError(evaluated.error().message, kSuggest);
    const stages::StageOneResult* result = evaluated->stageOne();
    const QList<stages::SuggestedThreshold> suggestions = result ? result->suggestions : QList<stages::SuggestedThreshold>();
    const stages::ThresholdSet current = stages::loadThresholds(*project);
    const bool apply = parser.isSet(applyOption);
    if (apply) {
        for (const stages::SuggestedThreshold& s : suggestions) {
            const store::ThresholdRow row{s.key, s.value, store::ThresholdSource::Suggested, s.basis, {}};
            if (auto saved = project->setThreshold(row); !saved)
                return ctx.runtimeError(saved.error().text());
        }
    }
    if (ctx.json) {
        QJsonArray array;
        for (const stages::SuggestedThreshold& s : suggestions) {
            const stages::ThresholdUse now = current.get(s.key);
            array.append(QJsonObject{{QStringLiteral("key"), s.key},
                                     {QStringLiteral("value"), s.value},
                                     {QStringLiteral("basis"), s.basis},
                                     {QStringLiteral("current_value"), now.value},
                                     {QStringLiteral("current_source"), store::thresholdSourceName(now.source)}});
        }
        QJsonArray reasons;
        if (suggestions.isEmpty())
            for (const QString& r : evaluated->verdict.reasons)
                reasons.append(r);
        ctx.printJson({{QStringLiteral("project"), project->path()},
                       {QStringLiteral("stage"), stage},
                       {QStringLiteral("suggestions"), array},
                       {QStringLiteral("applied"), apply && !suggestions.isEmpty()},
                       {QStringLiteral("reasons"), reasons}});
    } else if (suggestions.isEmpty()) {
        ctx.err() << Cli::tr("moewb: no thresholds to suggest from stage 1's runs.") << Qt::endl;
        for (const QString& r : evaluated->verdict.reasons)
            ctx.err() << QStringLiteral("  - ") << r << Qt::endl;
    } else {
        TextTable table;
        table.addColumn(Cli::tr("key"));
        table.addColumn(Cli::tr("suggested"), TextTable::Align::Right);
        table.addColumn(Cli::tr("now"), TextTable::Align::Right);
        table.addColumn(Cli::tr("source now"));
        for (const stages::SuggestedThreshold& s : suggestions) {
            const stages::ThresholdUse now = current.get(s.key);
            table.addRow({s.key, stages::thresholdValueText(s.key, s.value), stages::thresholdValueText(s.key, now.value),
                          store::thresholdSourceName(now.source)});
        }
        QTextStream& o = ctx.out();
        o << table.render();
        for (const stages::SuggestedThreshold& s : suggestions)
            o << Cli::tr("%1: %2").arg(s.key, s.basis) << '\n';
        o << (apply ? Cli::tr("Applied (source suggested). Evaluate again to use them: moewb stage 1")
                    : Cli::tr("Not applied; to store them: moewb threshold suggest 1 --apply"))
          << Qt::endl;
    }
    return suggestions.isEmpty() ? ValidationFailed : Success;
}

} // namespace

QList<Command> thresholdCommands() {
    Command list;
    list.words = {QStringLiteral("threshold"), QStringLiteral("list")};
    list.synopsis = QString();
    list.summary = Cli::tr("the thresholds the gates compare against: value, source, note, when set");
    list.run = [list](CliContext& ctx, const QStringList& a) { return runList(ctx, list, a); };

    Command set;
    set.words = {QStringLiteral("threshold"), QStringLiteral("set")};
    set.synopsis = QStringLiteral("KEY VALUE [--source team|suggested] [--note TEXT]");
    set.summary = Cli::tr("set a threshold (unknown keys are refused, listing the known ones)");
    set.run = [set](CliContext& ctx, const QStringList& a) { return runSet(ctx, set, a); };

    Command suggest;
    suggest.words = {QStringLiteral("threshold"), QStringLiteral("suggest")};
    suggest.synopsis = QStringLiteral("N [--run NAME...] [--apply]");
    suggest.summary = Cli::tr("thresholds derived from stage N's runs (a first round); stored only with --apply");
    suggest.run = [suggest](CliContext& ctx, const QStringList& a) { return runSuggest(ctx, suggest, a); };
    return {list, set, suggest};
}

} // namespace moewb::cli
