#include "StagePage.h"
#include "StagePagePrivate.h"

#include "StagePages.h"
#include "StageWidgets.h"

#include "checks/MisjudgmentChecks.h"
#include "plots/PlotView.h"
#include "stages/StageEvaluation.h"
#include "stages/StageState.h"
#include "store/ProjectStore.h"

#include <QDateTime>
#include <QEvent>
#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <climits>
#include <functional>
#include <optional>

namespace moewb::gui {

WorkerOutcome evaluateInWorker(int generation, const QString& path, int stage, const QStringList& runNames,
                               bool preview) {
    WorkerOutcome out;
    out.generation = generation;
    auto store = store::ProjectStore::open(path, store::OpenMode::MustExist);
    if (!store) {
        out.error = store.error().text();
        return out;
    }
    // Stage 3: only the counts the gate needs; the page reads what it draws (one step,
    // one layer) when it draws it.
    auto e = stages::evaluateStage(**store, stage, runNames, preview, stages::ExpertLoadCounts::Window);
    if (!e) {
        out.error = e.error().message;
    } else {
        checks::addCheckReasons(**store, *e); // as `moewb stage N` does
        out.evaluation = std::move(e).value();
    }
    return out;
}

namespace {

// The least height of a plot on a stage page: at 1366×768 the verdict strip and the
// first row of plots still fit the first screen.
constexpr int kMinPlotHeight = 250;

} // namespace

StagePage* StagePage::create(int stage, QWidget* parent) {
    StagePage* page = nullptr;
    switch (qBound(1, stage, 4)) {
    case 1:
        page = new StageOnePage(parent);
        break;
    case 2:
        page = new StageTwoPage(parent);
        break;
    case 3:
        page = new StageThreePage(parent);
        break;
    default:
        page = new StageFourPage(parent);
        break;
    }
    page->build();
    page->refresh();
    return page;
}

StagePage::StagePage(int stage, QWidget* parent) : QWidget(parent), d(std::make_unique<Private>()) {
    d->stage = qBound(1, stage, 4);
    setObjectName(QStringLiteral("stagePage%1").arg(d->stage));
}

StagePage::~StagePage() {
    // A running worker only holds copies; its result is dropped with the watcher.
    if (d->watcher)
        d->watcher->disconnect(this);
}

int StagePage::stage() const {
    return d->stage;
}

store::ProjectStore* StagePage::project() const {
    return d->project;
}

bool StagePage::isEvaluating() const {
    return d->evaluating;
}

const stages::StageEvaluation* StagePage::lastEvaluation() const {
    return d->last && !d->lastIsLook ? &*d->last : nullptr;
}

bool StagePage::hasResults() const {
    return d->last.has_value();
}

void StagePage::buildInputs(QVBoxLayout*) {}

void StagePage::build() {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("stagePageScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    content->setObjectName(QStringLiteral("stagePageContent"));
    auto* layout = new QVBoxLayout(content);
    layout->setSpacing(6);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    d->scroll = scroll;
    d->content = content;
    scroll->viewport()->installEventFilter(this); // its height sets the plots' height
    // ... and so does where the plots start: the verdict's wrapped text settles a layout
    // pass or two later (longer lines in Chinese).
    content->installEventFilter(this);

    // Title, question, teaching text.
    auto* titleRow = new QHBoxLayout;
    d->title = new QLabel(titleText(), content);
    d->title->setObjectName(QStringLiteral("stageTitle"));
    QFont f = d->title->font();
    f.setPointSizeF(f.pointSizeF() * 1.5);
    f.setBold(true);
    d->title->setFont(f);
    d->infoButton = new QToolButton(content);
    d->infoButton->setObjectName(QStringLiteral("infoButton"));
    d->infoButton->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
    d->infoButton->setText(tr("About this stage"));
    d->infoButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    d->infoButton->setAutoRaise(true);
    d->infoButton->setCheckable(true);
    d->infoButton->setToolTip(tr("What this stage checks and why (the method)"));
    titleRow->addWidget(d->title);
    titleRow->addWidget(d->infoButton);
    titleRow->addStretch(1);
    layout->addLayout(titleRow);
    d->question = new QLabel(questionText(), content);
    d->question->setObjectName(QStringLiteral("stageQuestion"));
    d->question->setWordWrap(true);
    QFont qf = d->question->font();
    qf.setItalic(true);
    d->question->setFont(qf);
    layout->addWidget(d->question);
    d->teaching = new QLabel(teachingText(), content);
    d->teaching->setObjectName(QStringLiteral("teachingText"));
    d->teaching->setWordWrap(true);
    d->teaching->setTextFormat(Qt::RichText);
    d->teaching->setFrameShape(QFrame::StyledPanel);
    d->teaching->setMargin(8);
    d->teaching->hide();
    layout->addWidget(d->teaching);
    connect(d->infoButton, &QToolButton::toggled, d->teaching, &QWidget::setVisible);

    d->noProject = new QLabel(tr("No project is open. Open or create one (File menu) to evaluate this stage."),
                              content);
    d->noProject->setWordWrap(true);
    layout->addWidget(d->noProject);

    d->lockLabel = new QLabel(content);
    d->lockLabel->setObjectName(QStringLiteral("lockLabel"));
    d->lockLabel->setWordWrap(true);
    d->lockLabel->setFrameShape(QFrame::StyledPanel);
    d->lockLabel->setMargin(8);
    d->lockLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    d->lockLabel->hide();
    layout->addWidget(d->lockLabel);

    // Inputs.
    d->inputs = new CollapsibleSection(tr("Inputs"), content);
    d->inputs->setObjectName(QStringLiteral("inputsSection"));
    d->runHint = new QLabel(content);
    d->runHint->setWordWrap(true);
    d->inputs->body()->addWidget(d->runHint);
    d->runList = new QListWidget(content);
    d->runList->setObjectName(QStringLiteral("runList"));
    d->runHint->setBuddy(d->runList);
    d->runList->setMaximumHeight(120);
    d->inputs->body()->addWidget(d->runList);
    buildInputs(d->inputs->body());
    layout->addWidget(d->inputs);

    auto* evalRow = new QHBoxLayout;
    d->evaluateButton = new QPushButton(tr("Evaluate"), content);
    d->evaluateButton->setObjectName(QStringLiteral("evaluateButton"));
    d->evaluateButton->setToolTip(tr("Run the stage's gate on the chosen runs and save its verdict (F5)"));
    d->evaluateButton->setShortcut(QKeySequence(Qt::Key_F5));
    d->previewButton = new QPushButton(tr("Preview data (no verdict)"), content);
    d->previewButton->setObjectName(QStringLiteral("previewButton"));
    d->previewButton->setToolTip(tr("Show the tables and plots of this locked stage as its gate would read them; "
                                    "no verdict is decided or saved"));
    d->previewButton->hide();
    d->cancelButton = new QPushButton(tr("Cancel"), content);
    d->cancelButton->setObjectName(QStringLiteral("cancelEvaluationButton"));
    d->cancelButton->hide();
    d->progress = new QProgressBar(content);
    d->progress->setObjectName(QStringLiteral("evaluationProgress"));
    d->progress->setRange(0, 0); // busy: the gate reports no fraction
    d->progress->setMaximumWidth(200);
    d->progress->hide();
    d->progressLabel = new QLabel(content);
    evalRow->addWidget(d->evaluateButton);
    evalRow->addWidget(d->previewButton);
    evalRow->addWidget(d->cancelButton);
    evalRow->addWidget(d->progress);
    evalRow->addWidget(d->progressLabel, 1);
    layout->addLayout(evalRow);
    connect(d->evaluateButton, &QPushButton::clicked, this, &StagePage::evaluate);
    connect(d->previewButton, &QPushButton::clicked, this, &StagePage::evaluate);
    connect(d->cancelButton, &QPushButton::clicked, this, [this] {
        ++d->generation; // the worker's result will be dropped
        d->evaluating = false;
        d->progress->hide();
        d->cancelButton->hide();
        d->evaluateButton->setEnabled(true);
        d->previewButton->setEnabled(true);
        d->progressLabel->setText(tr("Evaluation cancelled; nothing was saved."));
        emit statusMessage(d->progressLabel->text());
    });

    layout->addWidget(buildVerdictBox(content)); // StageVerdictBox.cpp
    layout->addWidget(buildThresholdSection(content)); // StageThresholds.cpp

    // Results.
    d->resultsBox = new QWidget(content);
    d->resultsBox->setObjectName(QStringLiteral("resultsBox"));
    auto* resultsLayout = new QVBoxLayout(d->resultsBox);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    buildResults(resultsLayout);
    layout->addWidget(d->resultsBox);
    layout->addStretch(1);

    // Results first: the verdict strip and Evaluate on top, then the inputs (folded once
    // the page has data), the results (plots, then tables), the thresholds last.
    layout->removeWidget(d->verdictFrame);
    layout->removeWidget(d->inputs);
    layout->removeWidget(d->thresholdSection);
    layout->insertWidget(layout->indexOf(evalRow), d->verdictFrame);
    layout->insertWidget(layout->indexOf(evalRow) + 1, d->inputs);
    layout->insertWidget(layout->indexOf(d->resultsBox) + 1, d->thresholdSection);
    d->thresholdSection->setExpanded(false);
    installWheelGuard();
    // Tab follows the page from top to bottom (the layouts' order, not the order the
    // widgets were created in: results first moved the tables below the plots).
    QList<QWidget*> chain;
    std::function<void(QLayout*)> walk = [&](QLayout* l) {
        for (int i = 0; i < l->count(); ++i) {
            QLayoutItem* item = l->itemAt(i);
            if (QLayout* inner = item->layout()) {
                walk(inner);
            } else if (QWidget* w = item->widget()) {
                if ((w->focusPolicy() & Qt::TabFocus) && !qobject_cast<QScrollBar*>(w))
                    chain << w;
                if (w->layout())
                    walk(w->layout());
            }
        }
    };
    walk(layout);
    for (int i = 1; i < chain.size(); ++i)
        QWidget::setTabOrder(chain[i - 1], chain[i]);

    d->watcher = new QFutureWatcher<WorkerOutcome>(this);
    connect(d->watcher, &QFutureWatcher<WorkerOutcome>::finished, this, &StagePage::finishEvaluation);
    d->lookWatcher = new QFutureWatcher<WorkerOutcome>(this);
    connect(d->lookWatcher, &QFutureWatcher<WorkerOutcome>::finished, this, &StagePage::finishLook);
}

void StagePage::loadData() {
    // The data the stage would read, shown before Evaluate: once per project and set of
    // runs, never over an evaluation the user ran.
    if (!d->project || d->evaluating || (d->last && !d->lastIsLook) || d->runList->count() == 0)
        return;
    QStringList signature;
    for (const store::RunRow& r : d->project->runs())
        signature << QStringLiteral("%1:%2:%3").arg(r.id).arg(r.name).arg(r.stepCount);
    const QString joined = d->project->path() + QLatin1Char('|') + signature.join(QLatin1Char(','));
    if (joined == d->lookSignature)
        return;
    d->lookSignature = joined;
    d->lookWatcher->setFuture(QtConcurrent::run(evaluateInWorker, d->generation, d->project->path(), d->stage,
                                                selectedRunNames(), true));
}

void StagePage::finishLook() {
    const WorkerOutcome out = d->lookWatcher->result();
    if (out.generation != d->generation || d->evaluating || !d->project || !out.evaluation ||
        (d->last && !d->lastIsLook))
        return;
    d->last = out.evaluation;
    d->lastIsLook = true; // a locked stage's data shows as its preview (no verdict)
    clearResults();
    showResults(*d->last);
    d->resultsBox->setVisible(true);
    showSavedState();
    relayoutNow();
    emit dataLoaded();
}

void StagePage::setProject(store::ProjectStore* project) {
    if (project != d->project) {
        ++d->generation; // drop a running evaluation of the previous project
        d->evaluating = false;
        d->last.reset();
        d->lastIsLook = false;
        d->lookSignature.clear();
        clearResults();
    }
    d->project = project;
    refresh();
    // Inputs fold away once there is data to show; open while there is none.
    d->inputs->setExpanded(d->runList->count() == 0);
    relayoutNow();
}

void StagePage::refresh() {
    const bool has = d->project != nullptr;
    d->noProject->setVisible(!has);
    d->inputs->setVisible(has);
    d->thresholdSection->setVisible(has);

    // Runs the stage takes; keep the user's unchecked choices.
    QSet<QString> unchecked;
    for (int i = 0; i < d->runList->count(); ++i)
        if (d->runList->item(i)->checkState() == Qt::Unchecked)
            unchecked.insert(d->runList->item(i)->data(Qt::UserRole).toString());
    d->runList->clear();
    if (has) {
        for (const store::RunRow& r : d->project->runs()) {
            if (!takesRun(*d->project, r))
                continue;
            auto* item = new QListWidgetItem(
                tr("%1  (%2, record %3%4)")
                    .arg(r.name, store::runKindTitle(r.kind), r.recordName,
                         r.clusterName.isEmpty() ? QString() : tr(", cluster %1").arg(r.clusterName)),
                d->runList);
            item->setData(Qt::UserRole, r.name);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(unchecked.contains(r.name) ? Qt::Unchecked : Qt::Checked);
        }
    }
    d->runHint->setText(d->runList->count() == 0
                            ? tr("The project has no runs this stage can use yet.")
                            : tr("Runs to evaluate (%n run(s) with this stage's data; all are taken by default):", "",
                                 d->runList->count()));
    d->runList->setVisible(d->runList->count() > 0 && d->stage != 4);
    d->runHint->setVisible(d->stage != 4 || d->runList->count() == 0); // stage 4: source and target instead
    const int rowH = d->runList->sizeHintForRow(0) > 0 ? d->runList->sizeHintForRow(0) : 18;
    d->runList->setFixedHeight(qMin(int(d->runList->count()), 6) * rowH + 2 * d->runList->frameWidth() + 4);

    QString locked;
    if (has)
        locked = stages::lockReason(*d->project, d->stage);
    if (d->last && d->last->preview && locked.isEmpty()) {
        d->last.reset(); // the stage unlocked: a preview is no stand-in for its evaluation
        d->lookSignature.clear();
        clearResults();
    }
    d->lockLabel->setVisible(!locked.isEmpty());
    // The one place the page says why it is locked, and what unlocks it (the stage
    // frame shows no banner of its own above a page).
    QString unlock;
    if (!locked.isEmpty()) {
        int blocking = 1; // the first earlier stage that blocks: the one to open
        while (blocking + 1 < d->stage && stages::lockReason(*d->project, blocking + 1).isEmpty())
            ++blocking;
        unlock = tr("<br>To unlock it: open stage %1 (Ctrl+%1) and evaluate it until it passes, or override its "
                    "stop there with a written justification.")
                     .arg(blocking);
    }
    d->lockLabel->setText(tr("<b>LOCKED</b> — %1").arg(locked.toHtmlEscaped()) + unlock);
    // Looking is not proceeding: a locked stage can still show its data, with no verdict.
    d->evaluateButton->setVisible(has && locked.isEmpty() && !d->evaluating);
    d->previewButton->setVisible(has && !locked.isEmpty() && d->runList->count() > 0 && !d->evaluating);
    d->resultsBox->setVisible(locked.isEmpty() || d->last);
    if (has)
        fillThresholds();
    refreshInputs();
    showSavedState();
    loadData();
}

QStringList StagePage::selectedRunNames() const {
    QStringList names;
    bool all = true;
    for (int i = 0; i < d->runList->count(); ++i) {
        if (d->runList->item(i)->checkState() == Qt::Checked)
            names << d->runList->item(i)->data(Qt::UserRole).toString();
        else
            all = false;
    }
    return all ? QStringList() : names;
}

void StagePage::evaluate() {
    if (!d->project || d->evaluating)
        return;
    const bool preview = !stages::lockReason(*d->project, d->stage).isEmpty();
    const QStringList names = selectedRunNames();
    if (d->stage != 4 && d->runList->count() > 0 && names.isEmpty()) {
        bool anyChecked = false;
        for (int i = 0; i < d->runList->count(); ++i)
            anyChecked = anyChecked || d->runList->item(i)->checkState() == Qt::Checked;
        if (!anyChecked) {
            d->progressLabel->setText(tr("Check at least one run to evaluate."));
            emit statusMessage(d->progressLabel->text());
            return;
        }
    }
    d->evaluating = true;
    const int generation = ++d->generation;
    d->evaluateButton->setEnabled(false);
    d->previewButton->setEnabled(false);
    d->cancelButton->show();
    d->progress->show();
    d->progressLabel->setText(preview ? tr("Reading stage %1's data for a preview (no verdict)…").arg(d->stage)
                              : names.isEmpty() ? tr("Evaluating stage %1 on its default runs…").arg(d->stage)
                                                : tr("Evaluating stage %1 on %n run(s)…", "", int(names.size()))
                                                      .arg(d->stage));
    emit statusMessage(d->progressLabel->text());
    d->watcher->setFuture(
        QtConcurrent::run(evaluateInWorker, generation, d->project->path(), d->stage, names, preview));
}

void StagePage::finishEvaluation() {
    const WorkerOutcome out = d->watcher->result();
    if (out.generation != d->generation)
        return; // cancelled, or the project changed meanwhile
    d->evaluating = false;
    d->progress->hide();
    d->cancelButton->hide();
    d->evaluateButton->setEnabled(true);
    d->previewButton->setEnabled(true);
    if (!d->project)
        return;
    if (!out.evaluation) {
        d->progressLabel->setText(tr("Not evaluated: %1").arg(out.error));
        emit statusMessage(d->progressLabel->text());
        return;
    }
    d->last = out.evaluation;
    d->lastIsLook = false;
    const stages::StageEvaluation& e = *d->last;
    QString saved;
    if (!e.locked()) {
        if (auto ok = stages::saveStageVerdict(*d->project, e); !ok)
            saved = tr(" The verdict was not saved: %1").arg(ok.error().text());
        else
            emit projectModified();
    }
    clearResults();
    showResults(e);
    refresh(); // lock, override button, the saved verdict
    relayoutNow();
    // Results first: back to the top, where the verdict and the key plots are (the focus
    // left the disabled Evaluate button for a control further down meanwhile).
    if (d->evaluateButton->isVisible() && isVisible())
        d->evaluateButton->setFocus(Qt::OtherFocusReason);
    d->scroll->verticalScrollBar()->setValue(0);
    d->progressLabel->setText(
        e.preview ? tr("Stage %1 previewed at %2: no verdict while it is locked.")
                        .arg(d->stage)
                        .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")))
                  : tr("Stage %1 evaluated at %2: %3.%4")
                        .arg(d->stage)
                        .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                             // The state after saving: an override that holds is said.
                             stages::describeStageState(stages::stageStatus(*d->project, d->stage), d->stage).title,
                             saved));
    emit statusMessage(d->progressLabel->text());
    emit evaluationFinished();
}

void StagePage::relayoutNow() {
    // The tables keep a fixed height (ResultTable::fitHeight) and grow in place at once;
    // left to the posted layout requests, the results box is first laid out inside its
    // old, smaller rectangle — fixed-height tables and plots spill over their neighbours —
    // and only a round or two later gets its new height, the page painted in between
    // (seen in tall windows: a table over the loss plot, "Loss curves" clipped). Lay out
    // inner to outer now: the results' size hints, the scroll area's content size, then
    // the content, which moves the results box into its new band.
    if (QLayout* l = d->resultsBox->layout())
        l->activate();
    if (QLayout* l = d->content->layout())
        l->invalidate();
    d->scroll->setWidgetResizable(true); // re-sizes the content to its new minimum now
    if (QLayout* l = d->content->layout())
        l->activate();
    fitPlotHeights();
}

bool StagePage::eventFilter(QObject* watched, QEvent* event) {
    const bool resized = d->scroll && watched == d->scroll->viewport() && event->type() == QEvent::Resize;
    const bool relaid = d->content && watched == d->content && event->type() == QEvent::LayoutRequest;
    if ((resized || relaid) && !d->fitQueued) {
        // After the scroll area has laid the page out for its new size (once per round:
        // fitPlotHeights changes nothing when the heights already fit, so this settles).
        d->fitQueued = true;
        QMetaObject::invokeMethod(this, [this] {
            d->fitQueued = false;
            fitPlotHeights();
        }, Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

void StagePage::fitPlotHeights() {
    if (!d->resultsBox || !d->scroll || !d->content)
        return;
    const QList<plots::PlotView*> views = d->resultsBox->findChildren<plots::PlotView*>();
    int top = INT_MAX;
    for (plots::PlotView* v : views)
        if (v->isVisibleTo(d->content))
            top = std::min(top, v->mapTo(d->content, QPoint(0, 0)).y());
    if (top == INT_MAX)
        return;
    // The first row of plots ends at the bottom of the first screen (the page not
    // scrolled): the taller the window, the taller the plots, up to ¾ of the screen
    // and 800 px.
    const int viewH = d->scroll->viewport()->height();
    const int h = std::clamp(viewH - top - 12, kMinPlotHeight, std::max(kMinPlotHeight, std::min(viewH * 3 / 4, 800)));
    bool changed = false;
    for (plots::PlotView* v : views) {
        // A plot below the first screen may ask for more ("moewbHeightFactor": stage 2's
        // whole loss curves, their legend of every run under them).
        const int want = int(h * std::max(1.0, v->property("moewbHeightFactor").toDouble()));
        // Fixed, not only a minimum: a page whose wrapped labels make its layout measure
        // height for width lays plots out at their size hint, below the first screen.
        if (std::abs(v->minimumHeight() - want) > 2 || v->maximumHeight() != v->minimumHeight()) {
            v->setFixedHeight(want);
            changed = true;
        }
    }
    if (!changed)
        return;
    // Resize the page to its new minimum now (it shrinks too), as relayoutNow does.
    if (QLayout* l = d->resultsBox->layout())
        l->activate();
    if (QLayout* l = d->content->layout())
        l->invalidate();
    d->scroll->setWidgetResizable(true);
    if (QLayout* l = d->content->layout())
        l->activate();
}

} // namespace moewb::gui
