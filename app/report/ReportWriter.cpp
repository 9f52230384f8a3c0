#include "ReportWriter.h"

#include "ReportDecision.h"
#include "ReportPageFlow.h"

#include "plots/PlotFont.h"
#include "plots/PlotRender.h"
#include "plotspec/StagePlots.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QJsonDocument>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextLayout>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <utility>

namespace moewb::report {

namespace {


// Section titles: one place, so the contents, the headings and sectionTitles() agree.
QString titleRecords() {
    return Report::tr("Config records");
}
QString titleRuns() {
    return Report::tr("Runs");
}
QString titleWarnings() {
    return Report::tr("Misjudgment warnings");
}
QString titleThresholds() {
    return Report::tr("Thresholds and their source");
}
QString titleOverrides() {
    return Report::tr("Overrides");
}
QString titleApplicability() {
    return Report::tr("Applicability statement");
}
QString titleAssessment() {
    return Report::tr("Assessment sheet");
}
QString titleCosts() {
    return Report::tr("Cost estimate");
}
QString titleAppendix() {
    return Report::tr("Appendix: run environments");
}
QString titleFullTables() {
    return Report::tr("Appendix: full tables");
}

// A run's environment as readable rows: nested objects as dotted keys, lists of
// plain values joined, anything deeper as compact text.
QList<std::pair<QString, QString>> environmentRows(const QJsonObject& env) {
    QList<std::pair<QString, QString>> rows;
    std::function<void(const QString&, const QJsonValue&, int)> add = [&](const QString& key, const QJsonValue& v,
                                                                         int depth) {
        if (v.isObject() && depth < 2 && !v.toObject().isEmpty()) {
            const QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                add(key + QLatin1Char('.') + it.key(), it.value(), depth + 1);
            return;
        }
        QString text;
        if (v.isString())
            text = v.toString();
        else if (v.isDouble())
            text = QString::number(v.toDouble(), 'g', 12);
        else if (v.isBool())
            text = v.toBool() ? Report::tr("yes") : Report::tr("no");
        else if (v.isNull() || v.isUndefined())
            text = QStringLiteral("—");
        else if (v.isArray()) {
            QStringList parts;
            bool plain = true;
            for (const QJsonValue& e : v.toArray()) {
                if (e.isString())
                    parts << e.toString();
                else if (e.isDouble())
                    parts << QString::number(e.toDouble(), 'g', 12);
                else
                    plain = false;
            }
            text = plain ? parts.join(QStringLiteral(", "))
                         : QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        } else {
            text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        }
        rows.append({key, text});
    };
    for (auto it = env.begin(); it != env.end(); ++it)
        add(it.key(), it.value(), 0);
    return rows;
}
QString titleContents() {
    return Report::tr("Contents");
}



void verdictBlock(PageFlow& f, const StageSection& s) {
    f.heading(3, Report::tr("Verdict"), nullptr);
    // The state the window and `moewb status` show (stages::describeStageState).
    f.paragraph(s.locked() ? Report::tr("Verdict: LOCKED — %1").arg(s.lockReason)
                           : Report::tr("Verdict: %1").arg(s.state.title),
                f.font(11, true), statusColour(s.locked() ? QStringLiteral("stop") : s.statusToken()), 0, 3);
    if (!s.state.overrideLine.isEmpty())
        f.paragraph(s.state.overrideLine + QLatin1Char(' ') + s.state.action, f.body(),
                    s.saved.overrideOnOlderData ? statusColour(QStringLiteral("warn")) : kInk);
    const bool sameAsState = s.verdict && s.statusToken() == stages::statusToken(s.verdict->status);
    if (s.verdict && s.hasData && !sameAsState)
        f.paragraph(s.locked() ? Report::tr("For reference only, the gate would say %1 on the current data.")
                                     .arg(stages::statusTitle(s.verdict->status))
                               : Report::tr("On the current data the gate says %1 (not saved in the project: "
                                            "evaluate stage %2 to decide).")
                                     .arg(stages::statusTitle(s.verdict->status))
                                     .arg(s.stage),
                    f.body(), kMuted);
    if (s.verdict && (!s.locked() || s.hasData)) {
        const stages::Verdict& v = *s.verdict;
        if (!v.reasons.isEmpty()) {
            f.paragraph(v.status == stages::Verdict::Status::Stop ? Report::tr("Stop reasons:")
                                                                  : Report::tr("Reasons:"),
                        f.font(9.5, true), kInk, 0, 2);
            // At most stages::kShownReasons here; the rest in the details list below.
            int more = 0;
            f.bullets(stages::shownReasons(v.reasons, &more), f.body());
            if (more > 0) {
                f.paragraph(Report::tr("Details: %1 more reasons").arg(more), f.font(9, true), kMuted, 0, 2);
                f.bullets(v.reasons.mid(v.reasons.size() - more), f.small(), kMuted);
            }
        }
        if (!v.nextStep.isEmpty())
            f.paragraph(Report::tr("What to do: %1").arg(v.nextStep), f.body());
        if (!v.notes.isEmpty()) {
            QStringList notes;
            for (const QString& n : v.notes)
                notes << Report::tr("Note: %1").arg(n);
            f.bullets(notes, f.small(), kMuted);
        }
        if (!v.thresholds.isEmpty()) {
            ReportTable t;
            t.caption = Report::tr("Thresholds this verdict compared against");
            t.headers = {Report::tr("Key"), Report::tr("Value"), Report::tr("Source")};
            t.widths = {2.0, 0.8, 2.2};
            for (const stages::ThresholdUse& u : v.thresholds)
                t.rows.append({u.key, stages::thresholdValueText(u.key, u.value),
                               stages::thresholdSourceText(u.source) +
                                   (u.builtInDefault ? Report::tr(" (built-in default)") : QString())});
            f.table(t);
        }
    }
    if (s.recorded)
        f.paragraph(Report::tr("Recorded verdict in the project: %1, decided %2")
                        .arg(stages::verdictWord(s.recorded->status), utcText(s.recorded->decided)),
                    f.body());
    else
        f.paragraph(Report::tr("No verdict recorded in the project for this stage."), f.body(), kMuted);
    if (s.saved.freshness.newData())
        f.paragraph(s.saved.freshness.sentence, f.body(), statusColour(QStringLiteral("warn")));
    if (!s.overrides.isEmpty()) {
        f.paragraph(Report::tr("Overrides of this stage:"), f.font(9.5, true), kInk, 0, 2);
        QStringList lines;
        for (const store::OverrideRow& o : s.overrides)
            lines << overrideLine(o, s);
        f.bullets(lines, f.body());
    }
}

// The whole document; the same calls in both passes.
void compose(PageFlow& f, const ReportData& d, QList<TocEntry>& toc, const QList<TocEntry>& knownToc,
             const ReportOptions& options) {
    Q_UNUSED(options);
    // Page 1: the decision memo — alone, it tells the reader the decision.
    f.paragraph(Report::tr("MoE Workbench · evaluation report"), f.font(10), kMuted, 0, 2);
    f.paragraph(d.projectName, f.font(22, true), kAccent, 0, 3);
    QStringList clusterText;
    for (const ClusterSummary& c : d.clusters)
        clusterText << Report::tr("%1: %n node(s), %2 GPUs", nullptr, c.nodes).arg(c.cluster.name).arg(c.gpus);
    f.paragraph(Report::tr("Project %1 · %n config record(s)", nullptr, int(d.records.size())).arg(d.projectName) +
                    Report::tr(", %n run(s)", nullptr, int(d.runs.size())) +
                    Report::tr(" · clusters: %1")
                        .arg(clusterText.isEmpty() ? Report::tr("none recorded") : clusterText.join(QStringLiteral("; "))),
                f.small(), kMuted, 0, 1);
    // The data ID names what the report was made from: the same runs, records and
    // verdicts always give the same ID (ReportData's content hash).
    f.paragraph(Report::tr("Generated %1 by MoE Workbench %2 · data ID %3 (two reports with the same ID were made "
                           "from the same runs, records and verdicts)")
                    .arg(utcText(d.generated), d.toolVersion, d.contentHash),
                f.small(), kMuted, 0, 6);
    if (d.demo)
        f.paragraph(Report::tr("This is the demo project: every measurement in it is synthetic."),
                    f.font(10, true), statusColour(QStringLiteral("stop")), 0, 4);
    if (!d.referenceBanner.isEmpty())
        f.paragraph(d.referenceBanner, f.font(10, true), kAccent, 0, 4);
    const Decision decision = decide(d);
    f.paragraph(Report::tr("Decision"), f.font(13, true), kAccent, 0, 3);
    f.paragraph(decision.text, f.font(11, true), statusColour(decision.token), 0, 4);
    {
        QStringList budget;
        const QList<assessment::CostCategory> cats = assessment::costCategories();
        for (int i = 0; i < cats.size() && i < d.sheet.costs.size(); ++i)
            if (!d.sheet.costs[i].estimate.trimmed().isEmpty())
                budget << Report::tr("%1: %2").arg(cats[i].title, d.sheet.costs[i].estimate);
        f.paragraph(budget.isEmpty()
                        ? Report::tr("Budget: no cost estimate is recorded in the assessment sheet, so this "
                                     "decision covers the technical gates only.")
                        : Report::tr("Budget, from the cost estimate: %1.").arg(budget.join(QStringLiteral("; "))),
                    f.body(), kInk, 0, 8);
    }
    {
        ReportTable t;
        t.caption = Report::tr("The four stage verdicts");
        t.headers = {Report::tr("Stage"), Report::tr("Verdict"), Report::tr("Why, in one line")};
        t.widths = {1.4, 1.3, 3.8};
        for (const StageSection& s : d.stages) {
            // The state the window and `moewb status` show (stages::describeStageState).
            QString why = s.state.reasons.value(0);
            if (s.overridden() && s.saved.override_)
                why = Report::tr("Overridden (the justification is under Overrides). The stop: %1").arg(why);
            if (s.state.token == QLatin1String("not_evaluated"))
                why = !s.hasData ? s.noData
                      : s.verdict ? Report::tr("Not evaluated in the project; on the current data the gate says %1.")
                                        .arg(stages::statusTitle(s.verdict->status))
                                  : QString();
            if (s.overridden() && s.saved.overrideOnOlderData)
                why += QLatin1Char(' ') + s.state.action;
            if (s.saved.freshness.newData())
                why += QLatin1Char(' ') + Report::tr("New data since the saved verdict.");
            t.rows.append({s.title, s.statusTitle(), why});
        }
        f.table(t);
    }
    f.paragraph(Report::tr("Overrides"), f.font(11, true), kAccent, 0, 2);
    {
        QStringList lines;
        for (const StageSection& s : d.stages)
            for (const store::OverrideRow& o : s.overrides)
                lines << Report::tr("Stage %1: %2").arg(s.stage).arg(overrideLine(o, s));
        if (lines.isEmpty())
            f.paragraph(Report::tr("No stop was overridden."), f.body(), kInk, 0, 6);
        else
            f.bullets(lines, f.body());
    }
    f.paragraph(Report::tr("Open warnings"), f.font(11, true), kAccent, 0, 2);
    {
        QStringList lines;
        // Each warning is told once, in its own section; page 1 names them.
        const int warningsSection = 2 + int(d.stages.size()) + 1;
        for (const checks::MisjudgmentWarning& w : d.warnings)
            lines << Report::tr("%1. %2 (section %3)").arg(w.id).arg(w.title).arg(warningsSection);
        if (lines.isEmpty())
            f.paragraph(Report::tr("None of the six misjudgment checks fired on this project."), f.body(), kInk, 0,
                        6);
        else
            f.bullets(lines, f.body());
    }
    f.paragraph(Report::tr("Applicability"), f.font(11, true), kAccent, 0, 2);
    {
        const StageSection& four = d.stages.value(3);
        if (four.applicability.isEmpty()) {
            f.paragraph(Report::tr("No applicability statement: stage 4 has no result, so the conclusions hold only "
                                   "on the cluster they were measured on."),
                        f.body());
        } else {
            f.paragraph(four.statusToken() != QLatin1String("pass")
                            ? Report::tr("Stage 4 has not passed, so these conditions are not yet confirmed; once it "
                                         "passes, conclusions drawn on the source cluster hold under them:")
                            : Report::tr("Conclusions drawn on the source cluster hold under these conditions:"),
                        f.body());
            f.bullets(four.applicability, f.body());
        }
    }

    // Contents (one page).
    f.newPage();
    f.paragraph(titleContents(), f.font(15, true), kAccent, 0, 10);
    for (const TocEntry& e : knownToc) {
        const QFont font = e.level == 1 ? f.font(10.5, true) : f.font(9.5);
        const double indent = e.level == 1 ? 0 : f.pt(16);
        const double h = f.textHeight(e.text, font, f.width() - indent - f.pt(40));
        f.drawBlock(e.text, font, kInk, indent, f.y(), f.width() - indent - f.pt(40));
        f.drawBlock(QString::number(e.page), font, kInk, f.width() - f.pt(30), f.y(), f.pt(30));
        f.moveTo(f.y() + h + f.pt(e.level == 1 ? 4 : 2));
    }

    int section = 0;
    auto h1 = [&](const QString& title, bool page = true) {
        f.heading(1, QStringLiteral("%1  %2").arg(++section).arg(title), &toc, page);
    };

    // Config records, on the page after the contents.
    f.newPage();
    h1(titleRecords());
    {
        ReportTable t;
        t.headers = {Report::tr("Name"), Report::tr("Status"), Report::tr("Key fields"),
                     Report::tr("Created")};
        t.widths = {1.4, 0.8, 3.6, 1.1};
        for (const store::ConfigRecordRow& r : d.records)
            t.rows.append({r.name, r.complete ? Report::tr("complete") : Report::tr("draft"),
                           recordSummary(r.json), utcText(r.created)});
        if (d.records.isEmpty())
            f.paragraph(Report::tr("The project holds no config record."), f.body());
        else
            f.table(t);
    }

    // Runs.
    h1(titleRuns(), false);
    {
        ReportTable t;
        t.headers = {Report::tr("Run"),         Report::tr("Kind"),         Report::tr("Record"),
                     Report::tr("Cluster"),     Report::tr("Comm samples"), Report::tr("Steps"),
                     Report::tr("Load blocks"), Report::tr("Imported")};
        t.widths = {1.6, 0.8, 1.4, 1.0, 0.8, 0.7, 0.8, 1.1};
        const QList<store::RunRow> listed = runsToList(d, kListedRuns);
        for (const store::RunRow& r : listed)
            t.rows.append({r.name, store::runKindTitle(r.kind), r.recordName, r.clusterName,
                           QString::number(r.commSampleCount), QString::number(r.stepCount),
                           QString::number(r.expertLoadBlocks), utcText(r.created)});
        if (d.runs.isEmpty())
            f.paragraph(Report::tr("The project holds no run."), f.body());
        else
            f.table(t);
        if (listed.size() < d.runs.size())
            f.paragraph(Report::tr("%n more run(s) are not listed: the table names the runs the stages were "
                                   "decided on and the newest. The command moewb runs list names every run.",
                                   nullptr, int(d.runs.size() - listed.size())),
                        f.small(), kMuted, 0, 4);
    }

    // A chapter's subsections (stage 3: each run's step anatomy): sentences, plots, tables.
    const auto subsections = [&](const StageSection& s) {
        for (const ReportSubsection& sub : s.subsections) {
            // The heading keeps its sentences and the first plot (which they point to) on its page.
            double keep = sub.plots.isEmpty() ? f.pt(60) : f.minPlotHeight();
            for (const QString& p : sub.paragraphs)
                keep += f.textHeight(p, f.body(), f.width()) + f.pt(4);
            f.heading(3, sub.title, nullptr, false, keep);
            for (const QString& p : sub.paragraphs)
                f.paragraph(p, f.body());
            for (const plots::PlotSpec& p : sub.plots) {
                f.plot(p);
                if (!options.includePlots && !p.note.isEmpty())
                    f.paragraph(p.note, f.small(), kMuted, 0, 6);
            }
            for (const ReportTable& t : sub.tables)
                f.table(t);
        }
    };

    // Stages: the verdict and the plots first, then the key table; the full tables
    // are in the appendix.
    for (const StageSection& s : d.stages) {
        h1(s.title);
        f.paragraph(s.purpose, f.body(), kMuted);
        if (!s.hasData) {
            f.paragraph(s.noData, f.font(10, true));
            verdictBlock(f, s);
            subsections(s);
            continue;
        }
        verdictBlock(f, s);
        if (!s.plots.isEmpty()) {
            // The heading stays with the first plot (not alone at the foot of a page).
            f.heading(3, Report::tr("Plots"), nullptr, false,
                      plots::isEmpty(s.plots.first()) ? -1.0 : f.minPlotHeight());
            for (const plots::PlotSpec& p : s.plots) {
                f.plot(p);
                // A drawn plot carries its note under it already.
                if (!options.includePlots && !p.note.isEmpty())
                    f.paragraph(p.note, f.small(), kMuted, 0, 6);
            }
        }
        f.heading(3, Report::tr("Results"), nullptr);
        for (const ReportTable& t : s.keyTables)
            f.table(t);
        if (!s.tables.isEmpty())
            f.paragraph(Report::tr("The full tables are in the appendix."), f.small(), kMuted, 0, 4);
        if (!s.remarks.isEmpty())
            f.bullets(s.remarks, f.body());
        if (!s.applicability.isEmpty()) {
            f.heading(3, Report::tr("Conditions under which the conclusions hold"), nullptr);
            f.bullets(s.applicability, f.body());
        }
        f.heading(3, Report::tr("Inputs"), nullptr);
        f.bullets(s.inputRuns, f.body());
        subsections(s);
    }

    // Misjudgment warnings.
    h1(titleWarnings());
    if (d.warnings.isEmpty())
        f.paragraph(Report::tr("None of the six misjudgment checks fired on this project."), f.body());
    for (const checks::MisjudgmentWarning& w : d.warnings) {
        f.paragraph(Report::tr("%1. %2").arg(w.id).arg(w.title), f.font(10, true),
                    statusColour(QStringLiteral("warn")), 0, 2);
        if (w.details.size() > 1) {
            f.paragraph(w.summary, f.body(), kInk, f.pt(12), 2);
            f.bullets(w.details, f.small());
        } else {
            f.paragraph(w.message, f.body(), kInk, f.pt(12), 2);
        }
        f.paragraph(Report::tr("Fix: %1").arg(w.fix), f.body(), kInk, f.pt(12), 6);
    }

    // Thresholds.
    h1(titleThresholds(), false);
    {
        ReportTable t;
        t.headers = {Report::tr("Key"), Report::tr("Value"), Report::tr("Source"), Report::tr("Note"),
                     Report::tr("Updated")};
        t.widths = {1.8, 0.6, 1.5, 2.4, 1.1};
        for (const store::ThresholdRow& r : d.thresholds)
            t.rows.append({r.key, stages::thresholdValueText(r.key, r.value), stages::thresholdSourceText(r.source),
                           r.note, utcText(r.updated)});
        for (const stages::ThresholdUse& u : d.thresholdDefaults)
            t.rows.append({u.key, stages::thresholdValueText(u.key, u.value), Report::tr("the method's default"),
                           stages::thresholdMeaning(u.key), QStringLiteral("—")});
        f.table(t);
    }

    // Overrides.
    h1(titleOverrides(), false);
    if (d.overrides.isEmpty())
        f.paragraph(Report::tr("No stop was overridden."), f.body());
    else {
        ReportTable t;
        t.headers = {Report::tr("Stage"), Report::tr("Justification"), Report::tr("Author"),
                     Report::tr("Date")};
        t.widths = {0.5, 4.0, 1.0, 1.2};
        for (const store::OverrideRow& o : d.overrides)
            t.rows.append({QString::number(o.stage), o.justification, o.author, utcText(o.created)});
        f.table(t);
    }

    // Applicability (stage 4).
    h1(titleApplicability(), false);
    const StageSection& four = d.stages.value(3);
    if (four.applicability.isEmpty())
        f.paragraph(Report::tr("No applicability statement: stage 4 has no result (see its section)."),
                    f.body());
    else {
        f.paragraph(Report::tr("Conclusions drawn on the source cluster hold under these conditions:"),
                    f.body());
        f.bullets(four.applicability, f.body());
    }

    // Assessment sheet.
    h1(titleAssessment());
    f.paragraph(Report::tr("The ten review dimensions, applied to the team's MoE training plan and this evaluation. Rated %1 of 10; last saved %2%3.")
                    .arg(assessment::ratedCount(d.sheet))
                    .arg(utcText(d.sheet.updated))
                    .arg(d.sheet.author.isEmpty() ? QString() : Report::tr(" by %1").arg(d.sheet.author)),
                f.body(), kMuted);
    const QList<assessment::Dimension> dims = assessment::dimensions();
    for (int i = 0; i < dims.size(); ++i) {
        const assessment::Dimension& dim = dims[i];
        const assessment::DimensionEntry entry = i < d.sheet.dimensions.size() ? d.sheet.dimensions[i]
                                                                               : assessment::DimensionEntry{};
        f.ensure(f.pt(80));
        f.paragraph(QStringLiteral("%1.%2  %3 — %4")
                        .arg(section)
                        .arg(i + 1)
                        .arg(dim.title, assessment::ratingTitle(entry.rating)),
                    f.font(10, true), kAccent, 0, 2);
        f.paragraph(Report::tr("Core question: %1").arg(dim.question), f.body(), kInk, f.pt(12), 1);
        f.paragraph(Report::tr("Verification: %1").arg(dim.method), f.body(), kInk, f.pt(12), 1);
        f.paragraph(Report::tr("Reading the result: %1").arg(dim.interpretation), f.small(), kMuted, f.pt(12),
                    1);
        // What the project shows, marked as such; where it shows nothing, the team fills it.
        const QStringList fromProject = i < d.projectEvidence.size() ? d.projectEvidence[i].lines : QStringList();
        if (fromProject.isEmpty()) {
            f.paragraph(Report::tr("From the project: nothing the workbench measures speaks to this — for the team "
                                   "to fill."),
                        f.body(), kMuted, f.pt(12), 1);
        } else {
            f.paragraph(Report::tr("From the project:"), f.font(9.5, true), kInk, f.pt(12), 1);
            for (const QString& line : fromProject)
                f.paragraph(QStringLiteral("• ") + line, f.body(), kInk, f.pt(20), 1);
        }
        f.paragraph(
            Report::tr("Notes: %1").arg(entry.notes.trimmed().isEmpty() ? Report::tr("none") : entry.notes),
            f.body(), kInk, f.pt(12), 1);
        QStringList links;
        for (const store::EvidenceLink& e : entry.evidence)
            links << assessment::evidenceText(e);
        f.paragraph(Report::tr("Evidence: %1")
                        .arg(links.isEmpty() ? Report::tr("none linked") : links.join(QStringLiteral("; "))),
                    f.body(), kInk, f.pt(12), 6);
    }

    // Cost estimate.
    h1(titleCosts(), false);
    {
        ReportTable t;
        t.headers = {Report::tr("Category"), Report::tr("Estimate"), Report::tr("Cost drivers"),
                     Report::tr("Notes")};
        t.widths = {1.0, 1.8, 2.4, 1.8};
        const QList<assessment::CostCategory> cats = assessment::costCategories();
        for (int i = 0; i < cats.size(); ++i) {
            const assessment::CostEntry e = i < d.sheet.costs.size() ? d.sheet.costs[i] : assessment::CostEntry{};
            t.rows.append({cats[i].title, e.estimate.isEmpty() ? Report::tr("not estimated") : e.estimate,
                           e.drivers, e.notes});
        }
        f.table(t);
    }

    // Appendix: the stages' full tables, then each run's environment as a table.
    f.heading(1, titleFullTables(), &toc, true);
    for (const StageSection& s : d.stages) {
        if (s.tables.isEmpty())
            continue;
        f.heading(3, s.title, nullptr);
        for (const ReportTable& t : s.tables)
            f.table(t);
    }
    f.heading(1, titleAppendix(), &toc, true);
    if (d.runs.isEmpty())
        f.paragraph(Report::tr("The project holds no run."), f.body());
    const QList<store::RunRow> described = runsToList(d, kAppendixRuns);
    if (described.size() < d.runs.size())
        f.paragraph(Report::tr("The environments of %n run(s): those the stages were decided on and the newest.",
                               nullptr, int(described.size())),
                    f.small(), kMuted, 0, 4);
    for (const store::RunRow& r : described) {
        f.heading(3, Report::tr("Run %1").arg(r.name), nullptr);
        f.paragraph(Report::tr("Source file: %1")
                        .arg(r.sourceFile.isEmpty() ? Report::tr("not recorded") : r.sourceFile),
                    f.small(), kMuted, 0, 2);
        if (r.environment.isEmpty()) {
            f.paragraph(Report::tr("No environment metadata."), f.small(), kMuted, 0, 6);
            continue;
        }
        ReportTable t;
        t.headers = {Report::tr("Field"), Report::tr("Value")};
        t.widths = {1.6, 4.4};
        for (const auto& [key, value] : environmentRows(r.environment))
            t.rows.append({key, value});
        f.table(t);
    }
    f.finishPage();
}

} // namespace

QStringList sectionTitles() {
    QStringList t{titleContents(), titleRecords(), titleRuns()};
    t << Report::tr("Stage 1 — communication baseline") << Report::tr("Stage 2 — dense control")
      << Report::tr("Stage 3 — expert load and loss") << Report::tr("Stage 4 — transfer boundary");
    t << titleWarnings() << titleThresholds() << titleOverrides() << titleApplicability() << titleAssessment()
      << titleCosts() << titleFullTables() << titleAppendix();
    return t;
}

Expected<int, ReportError> paintReport(const ReportData& data, const QString& pdfPath,
                                       const ReportOptions& options, const ReportProgress& progress) {
    const QString file = QFileInfo(pdfPath).absoluteFilePath();
    auto configure = [&](QPdfWriter& w) {
        w.setResolution(options.resolutionDpi);
        w.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(18, 18, 18, 16),
                                    QPageLayout::Millimeter));
        w.setTitle(Report::tr("Evaluation report: %1").arg(data.projectName));
        w.setCreator(QStringLiteral("MoE Workbench %1").arg(data.toolVersion));
    };
    const QString footer =
        Report::tr("%1 — MoE Workbench evaluation report, %2").arg(data.projectName, utcText(data.generated));

    // Pass 1: measure only (no painter): section pages and the page total.
    QList<TocEntry> toc;
    int totalPages = 0;
    {
        QByteArray sink;
        QBuffer buffer(&sink);
        QPdfWriter measure(&buffer);
        configure(measure);
        PageFlow flow(&measure, nullptr, options);
        const QList<TocEntry> notYetKnown; // the contents page stays one page either way
        compose(flow, data, toc, notYetKnown, options);
        totalPages = flow.page();
    }
    if (progress && !progress(0.05, Report::tr("Laid out %n page(s)", nullptr, totalPages)))
        return unexpected(ReportError{file, Report::tr("cancelled"), true});

    // Pass 2: paint into a temporary file beside the target; rename at the end.
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return unexpected(ReportError{file, Report::tr("cannot be written: %1").arg(out.errorString())});
    bool cancelled = false;
    {
        QPdfWriter writer(&out);
        configure(writer);
        QPainter painter;
        if (!painter.begin(&writer)) {
            out.cancelWriting();
            return unexpected(ReportError{file, Report::tr("cannot start the PDF")});
        }
        PageFlow flow(&writer, &painter, options);
        flow.setFooter(footer, totalPages);
        flow.setPageHook([&](int page) {
            if (progress && !progress(0.05 + 0.95 * double(page - 1) / std::max(1, totalPages),
                                      Report::tr("Page %1 of %2").arg(page).arg(totalPages))) {
                cancelled = true;
                return false;
            }
            return true;
        });
        QList<TocEntry> again;
        if (!cancelled)
            compose(flow, data, again, toc, options);
        painter.end();
        cancelled = cancelled || flow.cancelled();
        if (!cancelled && flow.page() != totalPages)
            qWarning("report: page count changed between passes (%d, then %d)", totalPages, flow.page());
        totalPages = flow.page();
    }
    if (cancelled) {
        out.cancelWriting();
        return unexpected(ReportError{file, Report::tr("cancelled"), true});
    }
    if (!out.commit())
        return unexpected(ReportError{file, Report::tr("cannot be written: %1").arg(out.errorString())});
    if (progress)
        progress(1.0, Report::tr("Written %n page(s)", nullptr, totalPages));
    return totalPages;
}

Expected<Ok, ReportError> writeReport(const QString& projectPath, const QString& pdfPath,
                                      const ReportOptions& options, const ReportProgress& progress) {
    auto data = collectReportData(projectPath, [&](double fraction, const QString& what) {
        return !progress || progress(0.3 * fraction, what);
    });
    if (!data)
        return unexpected(data.error());
    auto painted = paintReport(*data, pdfPath, options, [&](double fraction, const QString& what) {
        return !progress || progress(0.3 + 0.7 * fraction, what);
    });
    if (!painted)
        return unexpected(painted.error());
    return Ok{};
}

} // namespace moewb::report
