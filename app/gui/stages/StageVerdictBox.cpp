// The verdict box of a stage page (StagePage.h): the verdict strip with its reasons,
// what to do, the override, confirm and withdraw buttons, and the details folded away.
#include "StagePage.h"
#include "StagePagePrivate.h"

#include "StagePages.h"
#include "StageWidgets.h"

#include "stages/StageState.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {

QString escaped(const QString& s) {
    return s.toHtmlEscaped();
}

QString bulletList(const QStringList& items);

// The first reasons on the strip (fewer than the report's and the CLI's six: the plots
// belong on the first screen); the rest go under "Details", said on the strip.
QString shortReasons(const QStringList& reasons, QString* details) {
    constexpr int kStripReasons = 2;
    int more = 0;
    const QStringList shown = stages::shownReasons(reasons, &more, kStripReasons);
    if (more == 0)
        return bulletList(reasons);
    *details = bulletList(reasons.mid(shown.size())) + *details;
    return bulletList(shown) + StagePage::tr("<p>%1 more reasons under Details.</p>").arg(more);
}

QString bulletList(const QStringList& items) {
    if (items.isEmpty())
        return {};
    QString html = QStringLiteral("<ul style=\"margin-top:2px; margin-bottom:2px;\">");
    for (const QString& i : items)
        html += QStringLiteral("<li>%1</li>").arg(escaped(i));
    return html + QStringLiteral("</ul>");
}

// Status words with a symbol, so the verdict never rests on colour alone.
QString verdictHeadline(stages::Verdict::Status status) {
    switch (status) {
    case stages::Verdict::Status::Pass:
        return StagePage::tr("✔ VERDICT: PASS");
    case stages::Verdict::Status::Stop:
        return StagePage::tr("✖ VERDICT: STOP");
    case stages::Verdict::Status::NotReady:
        break;
    }
    return StagePage::tr("… VERDICT: NOT READY");
}

QString frameStyle(const QString& border, const QString& background) {
    return QStringLiteral("QFrame#verdictFrame { border: 2px solid %1; border-radius: 6px; background: %2; }")
        .arg(border, background);
}

} // namespace

QFrame* StagePage::buildVerdictBox(QWidget* content) {
    d->verdictFrame = new QFrame(content);
    d->verdictFrame->setObjectName(QStringLiteral("verdictFrame"));
    auto* vLayout = new QVBoxLayout(d->verdictFrame);
    d->verdictTitle = new QLabel(d->verdictFrame);
    d->verdictTitle->setObjectName(QStringLiteral("verdictTitle"));
    QFont vf = d->verdictTitle->font();
    vf.setPointSizeF(vf.pointSizeF() * 1.25);
    vf.setBold(true);
    d->verdictTitle->setFont(vf);
    d->verdictBody = new QLabel(d->verdictFrame);
    d->verdictBody->setObjectName(QStringLiteral("verdictBody"));
    d->verdictBody->setWordWrap(true);
    d->verdictBody->setTextFormat(Qt::RichText);
    d->verdictBody->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->overrideButton = new QPushButton(tr("Override with justification…"), d->verdictFrame);
    d->overrideButton->setObjectName(QStringLiteral("overrideButton"));
    d->overrideButton->hide();
    vLayout->addWidget(d->verdictTitle);
    vLayout->addWidget(d->verdictBody);
    // The strip stays short (the plots belong on the first screen): the thresholds used
    // and the notes fold away behind "Details".
    d->detailsButton = new QToolButton(d->verdictFrame);
    d->detailsButton->setObjectName(QStringLiteral("verdictDetailsButton"));
    d->detailsButton->setText(tr("Details: thresholds and notes"));
    d->detailsButton->setCheckable(true);
    d->detailsButton->setAutoRaise(true);
    d->detailsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    d->detailsButton->setArrowType(Qt::RightArrow);
    d->detailsButton->hide();
    d->verdictDetails = new QLabel(d->verdictFrame);
    d->verdictDetails->setObjectName(QStringLiteral("verdictDetails"));
    d->verdictDetails->setWordWrap(true);
    d->verdictDetails->setTextFormat(Qt::RichText);
    d->verdictDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->verdictDetails->hide();
    vLayout->addWidget(d->verdictDetails); // its button sits in the row of buttons below
    connect(d->detailsButton, &QToolButton::toggled, this, [this](bool on) {
        d->detailsButton->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        d->verdictDetails->setVisible(on && !d->verdictDetails->text().isEmpty());
        relayoutNow();
    });
    auto* overrideRow = new QHBoxLayout;
    overrideRow->addWidget(d->overrideButton);
    d->reevaluateButton = new QPushButton(tr("Re-evaluate"), d->verdictFrame);
    d->reevaluateButton->setObjectName(QStringLiteral("reevaluateButton"));
    d->reevaluateButton->setToolTip(tr("Evaluate the stage again on the runs it would use now and save that verdict"));
    d->reevaluateButton->hide();
    overrideRow->addWidget(d->reevaluateButton);
    connect(d->reevaluateButton, &QPushButton::clicked, this, &StagePage::evaluate);
    // An override on older data (the stop was evaluated again on another basis).
    d->confirmOverrideButton = new QPushButton(tr("Confirm override…"), d->verdictFrame);
    d->confirmOverrideButton->setObjectName(QStringLiteral("confirmOverrideButton"));
    d->confirmOverrideButton->setToolTip(tr("Write the override again for this stop"));
    d->confirmOverrideButton->hide();
    d->withdrawOverrideButton = new QPushButton(tr("Withdraw override"), d->verdictFrame);
    d->withdrawOverrideButton->setObjectName(QStringLiteral("withdrawOverrideButton"));
    d->withdrawOverrideButton->setToolTip(tr("The stop is in force again; the override stays on record"));
    d->withdrawOverrideButton->hide();
    overrideRow->addWidget(d->confirmOverrideButton);
    overrideRow->addWidget(d->withdrawOverrideButton);
    connect(d->confirmOverrideButton, &QPushButton::clicked, this, &StagePage::overrideStop);
    connect(d->withdrawOverrideButton, &QPushButton::clicked, this, &StagePage::withdrawOverride);
    overrideRow->addWidget(d->detailsButton);
    overrideRow->addStretch(1);
    vLayout->addLayout(overrideRow);
    connect(d->overrideButton, &QPushButton::clicked, this, &StagePage::overrideStop);
    return d->verdictFrame;
}

void StagePage::showSavedState() {
    const bool has = d->project != nullptr;
    std::optional<stages::StageStatus> status;
    if (has)
        status = stages::stageStatus(*d->project, d->stage);
    if (d->suggestButton)
        d->suggestButton->setEnabled(d->last && d->last->stageOne() && !d->last->stageOne()->suggestions.isEmpty());
    d->overrideButton->setVisible(status && status->kind == stages::StageStatus::Kind::Stopped);
    const bool olderBasis = status && status->kind == stages::StageStatus::Kind::Overridden &&
                            status->overrideOnOlderBasis && !d->evaluating;
    d->confirmOverrideButton->setVisible(olderBasis);
    d->withdrawOverrideButton->setVisible(olderBasis);
    // New data since the saved verdict: said on top, nothing changed until Re-evaluate.
    const bool newData = status && status->kind != stages::StageStatus::Kind::Locked &&
                         status->freshness.newData() && !d->evaluating;
    d->reevaluateButton->setVisible(newData);
    if (!has) {
        d->verdictFrame->hide();
        return;
    }
    d->verdictFrame->show();
    QString body;
    QString details; // under "Details" (thresholds used, notes)
    QString title;
    QString border = QStringLiteral("#888888");
    QString background = QStringLiteral("palette(base)");
    // The one description of the stage's state (core/stages/StageState.h), as the CLI
    // and the report print it.
    const std::optional<stages::StageStateText> state =
        status ? std::optional(stages::describeStageState(*status, d->stage)) : std::nullopt;
    const bool overridden = status && status->kind == stages::StageStatus::Kind::Overridden;
    if (status && status->kind == stages::StageStatus::Kind::Locked && !(d->last && d->last->preview)) {
        // The lock and what unlocks it are said once, above (lockLabel); a verdict saved
        // before the lock is not shown as if it held.
        d->verdictFrame->hide();
        return;
    }
    if (d->last && !d->last->locked() && !d->lastIsLook) {
        const stages::Verdict& v = d->last->verdict;
        title = overridden ? tr("↷ VERDICT: %1").arg(state->title) : verdictHeadline(v.status);
        switch (v.status) {
        case stages::Verdict::Status::Pass:
            border = QStringLiteral("#009E73"); // Okabe–Ito bluish green
            break;
        case stages::Verdict::Status::Stop:
            border = QStringLiteral("#D55E00"); // vermillion
            break;
        case stages::Verdict::Status::NotReady:
            border = QStringLiteral("#E69F00"); // orange
            break;
        }
        body += shortReasons(v.reasons, &details);
        if (!v.nextStep.isEmpty())
            body += tr("<p><b>What to do:</b> %1</p>").arg(escaped(v.nextStep));
        QStringList used;
        for (const stages::ThresholdUse& t : v.thresholds)
            used << tr("%1 = %2 (%3)").arg(t.key, stages::thresholdValueText(t.key, t.value), stages::thresholdSourceText(t.source));
        if (!used.isEmpty())
            details += tr("<p><b>Thresholds:</b> %1</p>").arg(escaped(used.join(QStringLiteral("; "))));
        if (!v.notes.isEmpty())
            details += tr("<p><b>Notes:</b></p>") + bulletList(v.notes);
        if (!d->last->stageTwoStaleReason.isEmpty())
            body += tr("<p><b>⚠ Stage 2 is now stale:</b> %1 Re-run stage 2 before relying on its verdict.</p>")
                        .arg(escaped(d->last->stageTwoStaleReason));
    } else if (d->last && d->last->preview) {
        // Read-only: the data of a locked stage, and why there is no verdict.
        // The lock and what unlocks it are said once, above (lockLabel).
        title = tr("PREVIEW — no verdict");
        border = QStringLiteral("#56B4E9"); // Okabe–Ito sky blue
        body += tr("<p>The tables and plots below show the data as the gate would read it; nothing is decided "
                   "or saved while the stage is locked.</p>");
        QStringList notes;
        for (const QString& n : d->last->verdict.notes)
            if (!n.contains(d->last->lockReason))
                notes << n;
        if (!notes.isEmpty())
            body += tr("<p><b>Notes:</b></p>") + bulletList(notes);
    } else if (status && status->verdict) {
        const stages::StageStatus& s = *status;
        title = tr("Saved verdict: %1").arg(state->title);
        if (s.kind == stages::StageStatus::Kind::Passed)
            border = QStringLiteral("#009E73");
        else if (s.kind == stages::StageStatus::Kind::Stopped || overridden)
            border = QStringLiteral("#D55E00");
        body += tr("<p>Decided %1. The plots and tables show the project's data now; Evaluate decides again.</p>")
                    .arg(s.verdict->decided.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        body += shortReasons(savedReasons(s), &details);
    } else {
        title = tr("No verdict yet");
        body = tr("<p>Press <b>Evaluate</b>: the gate compares the runs (under Inputs) with the thresholds and saves "
                  "its verdict in the project.</p>");
    }
    if (overridden && !state->overrideLine.isEmpty())
        body += tr("<p><b>%1</b> %2</p>").arg(escaped(state->overrideLine), escaped(state->action));
    if (newData)
        body = tr("<p style=\"color:#B35C00\"><b>⚠ %1</b></p>").arg(escaped(status->freshness.sentence)) + body;
    if (status && status->kind == stages::StageStatus::Kind::Stale)
        body += tr("<p><b>⚠ Stale:</b> the load-balancing method changed after this stage was decided. "
                   "Re-run this stage.</p>");
    d->verdictTitle->setText(title);
    d->verdictBody->setText(body);
    d->verdictDetails->setText(details);
    d->detailsButton->setVisible(!details.isEmpty());
    d->verdictDetails->setVisible(!details.isEmpty() && d->detailsButton->isChecked());
    d->verdictFrame->setStyleSheet(frameStyle(border, background));
}

QStringList StagePage::savedReasons(const stages::StageStatus& s) const {
    // The project stores a verdict's reasons as sentences in the language it was
    // evaluated in. When the data loaded for the page is what that verdict was decided
    // on — its runs unchanged (recorded, no new data), the stage's default runs, no
    // threshold of the stage changed since, the same status — the loaded evaluation's
    // reasons are the same sentences in the language the window speaks now.
    if (!s.verdict || !d->last || !d->lastIsLook || d->last->locked() || !d->last->runNames.isEmpty() ||
        !s.freshness.recorded || s.freshness.newData() ||
        s.verdict->basis.value(QStringLiteral("selection")).toString() != QLatin1String("default") ||
        stages::statusToken(d->last->verdict.status) != s.verdict->status)
        return s.reasons;
    const QString prefix = QStringLiteral("stage%1.").arg(d->stage);
    for (const store::ThresholdRow& t : d->project->thresholds())
        if (t.key.startsWith(prefix) && t.updated.isValid() && t.updated > s.verdict->decided)
            return s.reasons;
    return d->last->verdict.reasons;
}

void StagePage::overrideStop() {
    if (!d->project)
        return;
    const stages::StageStatus status = stages::stageStatus(*d->project, d->stage);
    // Confirming an override given on older data starts from its justification.
    OverrideDialog dialog(d->stage, status.reasons, this,
                          status.override_ ? status.override_->justification : QString());
    if (dialog.exec() != QDialog::Accepted)
        return;
    auto added = stages::overrideStage(*d->project, d->stage, dialog.justification(), dialog.author());
    if (!added) {
        emit statusMessage(tr("Not overridden: %1").arg(added.error().message));
        return;
    }
    emit projectModified();
    emit statusMessage(tr("Stage %1's stop is overridden; stage %2 is unlocked.").arg(d->stage).arg(d->stage + 1));
    refresh();
}

void StagePage::withdrawOverride() {
    if (!d->project)
        return;
    if (auto done = stages::withdrawOverride(*d->project, d->stage); !done) {
        emit statusMessage(tr("Not withdrawn: %1").arg(done.error().message));
        return;
    }
    emit projectModified();
    emit statusMessage(tr("Stage %1's override is withdrawn: the stop is in force again.").arg(d->stage));
    refresh();
}

} // namespace moewb::gui
