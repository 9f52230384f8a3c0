#include "StagePage.h"

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

namespace {

// What the worker thread hands back.
struct WorkerOutcome {
    int generation = 0;
    std::optional<stages::StageEvaluation> evaluation;
    QString error;
};

// Runs on a pool thread: its own ProjectStore on the same file (ProjectStore.h).
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

// The least height of a plot on a stage page: at 1366×768 the verdict strip and the
// first row of plots still fit the first screen.
constexpr int kMinPlotHeight = 250;

QString frameStyle(const QString& border, const QString& background) {
    return QStringLiteral("QFrame#verdictFrame { border: 2px solid %1; border-radius: 6px; background: %2; }")
        .arg(border, background);
}

} // namespace

struct StagePage::Private {
    int stage = 1;
    store::ProjectStore* project = nullptr;

    QLabel* title = nullptr;
    QToolButton* infoButton = nullptr;
    QLabel* question = nullptr;
    QLabel* teaching = nullptr;
    QLabel* noProject = nullptr;
    QLabel* lockLabel = nullptr;
    CollapsibleSection* inputs = nullptr;
    QListWidget* runList = nullptr;
    QLabel* runHint = nullptr;
    QPushButton* evaluateButton = nullptr;
    QPushButton* previewButton = nullptr; // a locked stage: its data, no verdict
    QPushButton* cancelButton = nullptr;
    QProgressBar* progress = nullptr;
    QLabel* progressLabel = nullptr;
    QFrame* verdictFrame = nullptr;
    QLabel* verdictTitle = nullptr;
    QLabel* verdictBody = nullptr;
    QToolButton* detailsButton = nullptr; // thresholds and notes of the verdict, folded
    QLabel* verdictDetails = nullptr;
    QPushButton* overrideButton = nullptr;
    QPushButton* reevaluateButton = nullptr; // new data since the saved verdict
    QPushButton* confirmOverrideButton = nullptr;
    QPushButton* withdrawOverrideButton = nullptr;
    CollapsibleSection* thresholdSection = nullptr;
    QTableWidget* thresholds = nullptr;
    QPushButton* suggestButton = nullptr;
    QWidget* resultsBox = nullptr;
    QScrollArea* scroll = nullptr;
    QWidget* content = nullptr;

    QFutureWatcher<WorkerOutcome>* watcher = nullptr;
    // Loading the project's data for the plots and tables before Evaluate (no verdict
    // decided or saved): its own watcher, dropped when Evaluate starts.
    QFutureWatcher<WorkerOutcome>* lookWatcher = nullptr;
    bool lastIsLook = false;   // d->last holds loaded data, not an evaluation
    QString lookSignature;     // the runs the loaded data came from
    int generation = 0;
    bool evaluating = false;
    bool fillingThresholds = false;
    std::optional<stages::StageEvaluation> last;
};

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

    // Verdict.
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
    layout->addWidget(d->verdictFrame);
    connect(d->overrideButton, &QPushButton::clicked, this, &StagePage::overrideStop);

    // Thresholds.
    d->thresholdSection = new CollapsibleSection(tr("Thresholds"), content);
    d->thresholds = new QTableWidget(content);
    d->thresholds->setObjectName(QStringLiteral("thresholdTable"));
    d->thresholds->setColumnCount(3);
    d->thresholds->setHorizontalHeaderLabels({tr("Threshold"), tr("Value"), tr("Source")});
    d->thresholds->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    d->thresholds->horizontalHeader()->setStretchLastSection(true);
    d->thresholds->verticalHeader()->setVisible(false);
    // Tab would wrap around the cells forever: the arrows move, F2 edits, Tab moves on.
    d->thresholds->setTabKeyNavigation(false);
    d->thresholds->setToolTip(tr("Double-click a value to set your team's threshold (saved with source \"team\")."));
    d->thresholdSection->body()->addWidget(d->thresholds);
    if (offersSuggestions()) {
        d->suggestButton = new QPushButton(tr("Suggest thresholds from this round…"), content);
        d->suggestButton->setObjectName(QStringLiteral("suggestButton"));
        d->suggestButton->setEnabled(false);
        d->suggestButton->setToolTip(tr("Evaluate first: suggestions are derived from the evaluated runs."));
        auto* row = new QHBoxLayout;
        row->addWidget(d->suggestButton);
        row->addStretch(1);
        d->thresholdSection->body()->addLayout(row);
        connect(d->suggestButton, &QPushButton::clicked, this, &StagePage::suggestThresholds);
    }
    layout->addWidget(d->thresholdSection);
    connect(d->thresholds, &QTableWidget::cellChanged, this, &StagePage::thresholdEdited);

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
    if (d->scroll && watched == d->scroll->viewport() && event->type() == QEvent::Resize)
        // After the scroll area has laid the page out for its new size.
        QMetaObject::invokeMethod(this, &StagePage::fitPlotHeights, Qt::QueuedConnection);
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
    for (plots::PlotView* v : views)
        if (std::abs(v->minimumHeight() - h) > 2) {
            v->setMinimumHeight(h);
            changed = true;
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
            used << tr("%1 = %2 (%3)").arg(t.key, QString::number(t.value), stages::thresholdSourceText(t.source));
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

void StagePage::fillThresholds() {
    d->fillingThresholds = true;
    const stages::ThresholdSet set = stages::loadThresholds(*d->project);
    const QString prefix = QStringLiteral("stage%1.").arg(d->stage);
    QList<stages::ThresholdUse> uses;
    for (const stages::ThresholdUse& t : stages::defaultThresholds())
        if (t.key.startsWith(prefix))
            uses << set.get(t.key);
    d->thresholds->setRowCount(int(uses.size()));
    for (int r = 0; r < uses.size(); ++r) {
        const stages::ThresholdUse& t = uses[r];
        auto* key = new QTableWidgetItem(t.key);
        key->setFlags(key->flags() & ~Qt::ItemIsEditable);
        auto* value = new QTableWidgetItem(QString::number(t.value));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setToolTip(tr("Double-click to set your team's value"));
        auto* source = new QTableWidgetItem(stages::thresholdSourceText(t.source));
        source->setFlags(source->flags() & ~Qt::ItemIsEditable);
        d->thresholds->setItem(r, 0, key);
        d->thresholds->setItem(r, 1, value);
        d->thresholds->setItem(r, 2, source);
    }
    const int rowH = d->thresholds->verticalHeader()->defaultSectionSize();
    d->thresholds->setFixedHeight(d->thresholds->horizontalHeader()->sizeHint().height() +
                                  int(uses.size()) * rowH + 2 * d->thresholds->frameWidth() + 2);
    d->fillingThresholds = false;
}

void StagePage::thresholdEdited(int row, int column) {
    if (d->fillingThresholds || column != 1 || !d->project)
        return;
    const QString key = d->thresholds->item(row, 0)->text();
    bool ok = false;
    const double value = d->thresholds->item(row, 1)->text().trimmed().toDouble(&ok);
    if (!ok || value < 0) {
        emit statusMessage(tr("%1: \"%2\" is not a number ≥ 0; the threshold is unchanged.")
                               .arg(key, d->thresholds->item(row, 1)->text()));
        fillThresholds();
        return;
    }
    store::ThresholdRow t;
    t.key = key;
    t.value = value;
    t.source = store::ThresholdSource::Team;
    t.note = tr("set in the stage %1 page").arg(d->stage);
    if (auto saved = d->project->setThreshold(t); !saved) {
        emit statusMessage(tr("Threshold not saved: %1").arg(saved.error().text()));
        fillThresholds();
        return;
    }
    fillThresholds();
    emit statusMessage(tr("%1 = %2 saved as your team's threshold. Evaluate again to apply it.")
                           .arg(key, QString::number(value)));
    emit projectModified();
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

void StagePage::suggestThresholds() {
    if (!d->project || !d->last || !d->last->stageOne())
        return;
    const auto& suggestions = d->last->stageOne()->suggestions;
    if (suggestions.isEmpty())
        return;
    const stages::ThresholdSet current = stages::loadThresholds(*d->project);
    QString text = tr("<p>From the runs just evaluated (a first round of measurements):</p><ul>");
    for (const stages::SuggestedThreshold& s : suggestions)
        text += tr("<li><b>%1 = %2</b> (now %3) — %4</li>")
                    .arg(s.key, QString::number(s.value), stages::thresholdText(current.get(s.key), 3),
                         escaped(s.basis));
    text += tr("</ul><p>Apply them as your thresholds (source “suggested from round 1”)? Nothing changes "
               "unless you confirm.</p>");
    QMessageBox box(QMessageBox::Question, tr("Suggested thresholds"), text, QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("suggestBox"));
    box.setTextFormat(Qt::RichText);
    QPushButton* apply = box.addButton(tr("Apply suggestions"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != apply)
        return;
    for (const stages::SuggestedThreshold& s : suggestions) {
        store::ThresholdRow t{s.key, s.value, store::ThresholdSource::Suggested, s.basis, {}};
        if (auto saved = d->project->setThreshold(t); !saved) {
            emit statusMessage(tr("Threshold not saved: %1").arg(saved.error().text()));
            return;
        }
    }
    fillThresholds();
    emit projectModified();
    emit statusMessage(tr("%n suggested threshold(s) applied. Evaluate again to use them.", "",
                          int(suggestions.size())));
}

} // namespace moewb::gui
