// The routing lab (docs/learn.md): core/routing's experiment on a worker thread, with
// progress and Cancel; the results beside seed 001's own table.
#include "LearnPages.h"
#include "LearnPlots.h"
#include "LearnWidgets.h"

#include "common/Units.h"
#include "plots/PlotView.h"
#include "routing/RoutingLab.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPromise>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace moewb::gui {

namespace {

using routing::RouterKind;
using routing::RoutingRun;
using routing::RoutingSetup;

struct LabOutcome {
    RoutingSetup setup;
    bool sweep = false;
    std::optional<RoutingRun> run;
    std::optional<QList<RoutingRun>> sweepRuns;
};

// Seed 001's table, as printed there (its script, its machine): router, scores, MaxVio,
// dropped, ms per token.
struct SeedRow {
    const char* router;
    const char* scores;
    const char* maxVio;
    const char* dropped;
    const char* msPerToken;
};
// Shown through RoutingLabPage::tr; the scores words are also ScoreSpec::text()'s tokens.
constexpr const char* kUniform = QT_TRANSLATE_NOOP("moewb::gui::RoutingLabPage", "uniform");
constexpr const char* kPreferential = QT_TRANSLATE_NOOP("moewb::gui::RoutingLabPage", "preferential");
constexpr const char* kSigmoid = QT_TRANSLATE_NOOP("moewb::gui::RoutingLabPage", "Sigmoid");
constexpr SeedRow kSeedTable[] = {
    {"Top-K", kUniform, "0.0083", "0", "0.00068"},
    {"Expert-Choice", kUniform, "0.0083", "0", "0.00064"},
    {kSigmoid, kUniform, "0.0001", "0", "0.00341"},
    {"Top-K", kPreferential, "0.0048", "0", "0.00068"},
    {"Expert-Choice", kPreferential, "0.0048", "0", "0.00064"},
    {kSigmoid, kPreferential, "0.0003", "0", "0.00341"},
};

// The scores as the page names them (English: ScoreSpec::text(), e.g. "zipf:1.2").
QString scoresTitle(const routing::ScoreSpec& s) {
    switch (s.mode) {
    case routing::ScoreMode::Uniform:
        return RoutingLabPage::tr("uniform");
    case routing::ScoreMode::Preferential:
        return RoutingLabPage::tr("preferential");
    case routing::ScoreMode::Zipf:
        return RoutingLabPage::tr("zipf:%1").arg(QString::number(s.zipfExponent));
    }
    return s.text();
}

QTableWidget* makeTable(QWidget* parent, const QStringList& headers, const QString& name) {
    auto* t = new QTableWidget(0, int(headers.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return t;
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
    auto* i = new QTableWidgetItem(text);
    i->setTextAlignment(align);
    return i;
}

void fitHeight(QTableWidget* t) {
    int h = t->horizontalHeader()->height() + 2 * t->frameWidth();
    for (int r = 0; r < t->rowCount(); ++r)
        h += t->rowHeight(r);
    t->setFixedHeight(h);
}

// The caption under the MaxVio-vs-E plot. Why Sigmoid + bias climbs with E (uniform scores):
// a token's K experts are those whose affinity sigmoid(s) + b_e lies in the top K/E of the
// distribution; with s uniform on [0, 1) the affinity density there is 1/sigmoid'(1), so one
// bias step u moves an expert's chance of being picked by u/sigmoid'(1), i.e. its expected
// load by u·E/(K·sigmoid'(1)) of the mean — about 65 % at E = 256, K = 2, u = 0.001.
QString sweepCaptionText(const RoutingSetup& s, const QList<RoutingRun>& runs) {
    const int largest = runs.isEmpty() ? 256 : runs.last().experts;
    const double sig = 1.0 / (1.0 + std::exp(-1.0));
    const double stepShare = s.bias.updateRate * double(largest) / (double(s.topK) * sig * (1.0 - sig));
    QString text =
        RoutingLabPage::tr(
            "<b>What it shows:</b> each router's MaxVio as the number of experts grows from 4 to "
            "256, with T, K, the capacity factor and the scores kept. Top-K never exceeds its "
            "capacity (%1 × the fair share K×T/E, the rest is dropped); with balanced scores only "
            "the chance spread of a finite batch lifts its busiest expert as each expert's share "
            "shrinks. Expert-Choice is 0 by construction.")
            .arg(QLocale().toString(s.capacityFactor, 'f', 2)) +
        QLatin1Char(' ') +
        RoutingLabPage::tr(
            "<b>Why Sigmoid + bias climbs</b> (to about 1.1 at E = 256 in the method's setting): a "
            "token's K experts come from a band of affinities at the top that narrows like K/E, "
            "while every bias update moves an expert by the same step u = %1. At E = %2 one step "
            "changes an expert's expected load by about %3 % (uniform scores), so the bias cannot "
            "settle and the busiest expert ends near twice the mean.")
            .arg(s.bias.updateRate)
            .arg(largest)
            .arg(std::lround(stepShare * 100.0));
    if (!runs.isEmpty()) {
        QStringList parts;
        for (const auto& r : runs.last().results)
            parts << QStringLiteral("%1 %2").arg(learn::routerTitle(r.router),
                                                 QString::number(r.maxVio, 'f', 3));
        text += QLatin1Char(' ') + RoutingLabPage::tr("This sweep at E = %1: MaxVio %2.")
                                       .arg(largest)
                                       .arg(parts.join(QStringLiteral(", ")));
    }
    return text;
}

} // namespace

struct RoutingLabPage::Impl {
    RoutingLabPage* q = nullptr;
    QSpinBox* experts = nullptr;
    QSpinBox* tokens = nullptr;
    QSpinBox* topK = nullptr;
    QDoubleSpinBox* factor = nullptr;
    QComboBox* scores = nullptr;
    QDoubleSpinBox* zipf = nullptr;
    QSpinBox* seed = nullptr;
    QSpinBox* iterations = nullptr;
    QPushButton* seedButton = nullptr;
    QPushButton* runButton = nullptr;
    QPushButton* sweepButton = nullptr;
    QPushButton* cancelButton = nullptr;
    QProgressBar* progress = nullptr;
    QLabel* status = nullptr;
    QTableWidget* results = nullptr;
    QTableWidget* seedTable = nullptr;
    QLabel* setupLine = nullptr;
    QLabel* methodSetting = nullptr;
    QLabel* sweepCaption = nullptr;
    plots::PlotView* loadsView = nullptr;
    plots::PlotView* biasView = nullptr;
    plots::PlotView* sweepMaxVioView = nullptr;
    plots::PlotView* sweepDroppedView = nullptr;
    QFutureWatcher<LabOutcome> watcher;

    RoutingSetup setupFromControls() const;
    void start(bool sweep);
    void finished();
    void setRunning(bool running);
    void showRun(const RoutingSetup& setup, const RoutingRun& run);
    void highlightSeedRows(const QString& mode);
};

RoutingLabPage::RoutingLabPage(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
    d->q = this;
    setObjectName(QStringLiteral("routingLabPage"));
    auto* outerLayout = new QVBoxLayout(this);
    outerLayout->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outerLayout->addWidget(scroll);
    auto* page = new QWidget(scroll);
    auto* col = new QVBoxLayout(page);

    auto* title = new QLabel(tr("Routing lab: how routers really balance load"), page);
    QFont tf = title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.4);
    title->setFont(tf);
    col->addWidget(title);
    col->addWidget(learn::makeExplanation(
        tr("In an MoE layer a router scores every token against every expert and sends it to a few of them. "
           "The busiest expert sets the step time (everyone waits for it), so routers are judged by their "
           "<b>balance</b> (MaxVio: how far the busiest expert is above the mean) and by what they give up "
           "to "
           "get it: assignments <b>dropped</b> by full experts, or tokens that end up with <b>no expert</b>. "
           "This lab runs three routers on the same synthetic scores."),
        page));

    // ---- the method's setting and why skewed scores change the outcome (first screen)
    const RoutingSetup method;
    auto* methodBox = new QGroupBox(tr("The method's setting"), page);
    auto* methodLayout = new QVBoxLayout(methodBox);
    d->methodSetting = new QLabel(methodBox);
    d->methodSetting->setObjectName(QStringLiteral("methodSetting"));
    d->methodSetting->setWordWrap(true);
    d->methodSetting->setTextFormat(Qt::RichText);
    d->methodSetting->setText(
        tr("The page opens on the reference study's own setting: <b>%1 experts, top-%2</b> (each token goes "
           "to %2 experts), %3 tokens, capacity factor %4, with uniform router scores and preferential ones "
           "(+3 on two random experts per token, so still balanced on average).")
            .arg(method.experts)
            .arg(method.topK)
            .arg(QLocale().toString(qlonglong(method.tokens)))
            .arg(QLocale().toString(method.capacityFactor, 'f', 2)) +
        QLatin1Char(' ') +
        tr("<b>Why skewed scores change the outcome:</b> when the scores favour a few experts (Zipf), most "
           "tokens ask for the same experts, so the busiest expert's load and MaxVio rise; Top-K then drops "
           "what exceeds the capacity, while the bias of Sigmoid + bias has to learn to push tokens away "
           "from the popular experts."));
    methodLayout->addWidget(d->methodSetting);
    col->addWidget(methodBox);

    // ---- controls
    auto* controls = new QGroupBox(tr("Setting"), page);
    auto* g = new QGridLayout(controls);
    auto addSpin = [&](int row, int column, const QString& label, QWidget* w, const QString& info) {
        auto* l = new QLabel(label, controls);
        l->setBuddy(w);
        g->addWidget(l, row, column);
        g->addWidget(w, row, column + 1);
        g->addWidget(learn::makeInfoButton(info, controls), row, column + 2);
    };
    d->experts = new QSpinBox(controls);
    d->experts->setObjectName(QStringLiteral("experts"));
    d->experts->setRange(1, 4096);
    d->tokens = new QSpinBox(controls);
    d->tokens->setObjectName(QStringLiteral("tokens"));
    d->tokens->setRange(1, 1 << 24);
    d->tokens->setGroupSeparatorShown(true);
    d->topK = new QSpinBox(controls);
    d->topK->setObjectName(QStringLiteral("topK"));
    d->topK->setRange(1, 64);
    d->factor = new QDoubleSpinBox(controls);
    d->factor->setObjectName(QStringLiteral("capacityFactor"));
    d->factor->setRange(0.05, 16.0);
    d->factor->setDecimals(2);
    d->factor->setSingleStep(0.05);
    d->scores = new QComboBox(controls);
    d->scores->setObjectName(QStringLiteral("scoreMode"));
    d->scores->addItem(tr("uniform"), QStringLiteral("uniform"));
    d->scores->addItem(tr("preferential (+3 on two random experts)"), QStringLiteral("preferential"));
    d->scores->addItem(tr("Zipf (+3 on two popular experts)"), QStringLiteral("zipf"));
    d->zipf = new QDoubleSpinBox(controls);
    d->zipf->setObjectName(QStringLiteral("zipfExponent"));
    d->zipf->setRange(0.1, 4.0);
    d->zipf->setSingleStep(0.1);
    d->zipf->setValue(1.0);
    d->zipf->setPrefix(tr("S = "));
    d->seed = new QSpinBox(controls);
    d->seed->setObjectName(QStringLiteral("seed"));
    d->seed->setRange(0, 1 << 30);
    d->iterations = new QSpinBox(controls);
    d->iterations->setObjectName(QStringLiteral("biasIterations"));
    d->iterations->setRange(1, 100000);
    addSpin(0, 0, tr("Experts E"), d->experts, tr("Routed experts per layer."));
    addSpin(1, 0, tr("Tokens T"), d->tokens, tr("Tokens in the batch being routed."));
    addSpin(
        2, 0, tr("Top-k K"), d->topK,
        tr("Experts each token asks for. The batch makes K×T assignments, so the fair share (target load) "
           "of an expert is K×T/E."));
    addSpin(3, 0, tr("Capacity factor"), d->factor,
            tr("Capacity C = factor × K×T/E: the most assignments one expert accepts. Top-K drops what does "
               "not fit; Expert-Choice takes exactly C tokens per expert."));
    addSpin(
        0, 3, tr("Scores"), d->scores,
        tr("uniform: no expert is preferred. preferential: +3 on two random experts per token (the reference "
           "study's) — "
           "still balanced on average. Zipf: +3 on two experts drawn with P(e) ∝ (e+1)^−S, so low-numbered "
           "experts are popular: real imbalance."));
    addSpin(1, 3, tr("Zipf exponent"), d->zipf, tr("Larger S: more skew toward expert 0."));
    addSpin(2, 3, tr("Random seed"), d->seed,
            tr("Same seed, same scores: every figure but the timings repeats."));
    addSpin(
        3, 3, tr("Bias updates"), d->iterations,
        tr("Sigmoid + bias learns one bias per expert over this many batches (b_e += u·sign(mean − load_e) "
           "after each)."));
    d->seedButton = new QPushButton(tr("The reference study's setting (E=8, T=262144, K=2, factor 1.12)"), controls);
    d->seedButton->setObjectName(QStringLiteral("seedSettingButton"));
    d->seedButton->setToolTip(
        tr("Sets the setting of the routing study this method follows (uniform scores, random seed 1) and runs "
           "the three routers."));
    d->seedButton->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    d->runButton = new QPushButton(tr("Run"), controls);
    d->runButton->setObjectName(QStringLiteral("runButton"));
    d->sweepButton = new QPushButton(tr("Sweep E = 4…256"), controls);
    d->sweepButton->setObjectName(QStringLiteral("sweepButton"));
    d->sweepButton->setToolTip(
        tr("Runs the three routers at E = 4, 8, …, 256 with the same T, K, factor and scores "
           "(larger E takes longer)."));
    d->cancelButton = new QPushButton(tr("Cancel"), controls);
    d->cancelButton->setObjectName(QStringLiteral("cancelButton"));
    d->progress = new QProgressBar(controls);
    d->progress->setObjectName(QStringLiteral("progress"));
    d->progress->setRange(0, 1000);
    d->progress->setTextVisible(false);
    d->status = new QLabel(tr("Not run yet. Start with the reference study's setting."), controls);
    d->status->setObjectName(QStringLiteral("status"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(d->seedButton);
    buttons->addWidget(d->runButton);
    buttons->addWidget(d->sweepButton);
    buttons->addWidget(d->cancelButton);
    buttons->addWidget(d->progress, 1);
    g->addLayout(buttons, 4, 0, 1, 6);
    g->addWidget(d->status, 5, 0, 1, 6);
    g->setColumnStretch(1, 1);
    g->setColumnStretch(4, 1);
    col->addWidget(controls);

    // ---- tables
    auto* tables = new QHBoxLayout;
    auto* mine = new QGroupBox(tr("This lab"), page);
    auto* mineLayout = new QVBoxLayout(mine);
    d->setupLine = new QLabel(mine);
    d->setupLine->setObjectName(QStringLiteral("setupLine"));
    d->setupLine->setWordWrap(true);
    d->results =
        makeTable(mine,
                  {tr("router"), tr("MaxVio"), tr("dropped assignments"), tr("tokens without expert"),
                   tr("entropy (bits)"), tr("routing time"), tr("ns/token")},
                  QStringLiteral("resultsTable"));
    mineLayout->addWidget(d->setupLine);
    mineLayout->addWidget(d->results);
    mineLayout->addWidget(learn::makeExplanation(
        tr("<b>MaxVio</b> = (max load − mean) / mean on the assignments each expert processes. "
           "<b>Dropped</b>: Top-K assignments refused by a full expert (late tokens lose). <b>Without "
           "expert</b>: "
           "tokens that got no expert at all and only pass the residual. <b>Entropy</b> of the load over "
           "experts, "
           "log2 E when perfectly even. <b>Routing time</b>: one whole pass, single thread."),
        mine));
    mineLayout->addStretch(1);
    auto* theirs = new QGroupBox(tr("The reference study's published table"), page);
    auto* theirsLayout = new QVBoxLayout(theirs);
    d->seedTable = makeTable(theirs, {tr("router"), tr("scores"), tr("MaxVio"), tr("drops"), tr("ms/token")},
                             QStringLiteral("seedTable"));
    for (const SeedRow& r : kSeedTable) {
        const int row = d->seedTable->rowCount();
        d->seedTable->insertRow(row);
        d->seedTable->setItem(row, 0, cell(tr(r.router), Qt::AlignLeft | Qt::AlignVCenter));
        d->seedTable->setItem(row, 1, cell(tr(r.scores), Qt::AlignLeft | Qt::AlignVCenter));
        d->seedTable->item(row, 1)->setData(Qt::UserRole, QString::fromLatin1(r.scores));
        d->seedTable->setItem(row, 2, cell(QString::fromLatin1(r.maxVio)));
        d->seedTable->setItem(row, 3, cell(QString::fromLatin1(r.dropped)));
        d->seedTable->setItem(row, 4, cell(QString::fromLatin1(r.msPerToken)));
    }
    fitHeight(d->seedTable);
    theirsLayout->addWidget(d->seedTable);
    theirsLayout->addStretch(1);
    tables->addWidget(mine, 3);
    tables->addWidget(theirs, 2);
    col->addLayout(tables);

    auto* why = new QGroupBox(tr("Where and why the two tables differ"), page);
    auto* whyLayout = new QVBoxLayout(why);
    auto* explanation = learn::makeExplanation(
        tr("<ol>"
           "<li><b>Sigmoid 0.0001 there, ~0.03 here.</b> The study never assigns a token: it adds fractional "
           "probabilities K·p<sub>e</sub>/Σp to every expert, so its “load” is an average whose noise has "
           "vanished. With real (discrete) top-K assignments the load has Top-K's sampling noise plus the ±u "
           "jitter of the bias update. On balanced scores the bias does not beat plain Top-K; with a real "
           "skew "
           "(Zipf) it removes the imbalance without dropping anything, where Top-K drops.</li>"
           "<li><b>Expert-Choice equal to Top-K there.</b> The study's script has no Expert-Choice; it prints "
           "Top-K's numbers. Implemented, Expert-Choice always has MaxVio 0 and instead leaves tokens with "
           "no "
           "expert (about 7 % with uniform scores even at factor 1.12).</li>"
           "<li><b>Top-K 0.0083 vs 0.004.</b> Different random scores (the study fixes no random seed) and the study's "
           "MaxVio also counts the most under-loaded expert. Both say: with a 12 % margin nothing is "
           "dropped.</li>"
           "<li><b>Timing.</b> The study timed a Python loop per token; here one whole pass is timed in C++, "
           "and "
           "only the Top-K path is optimized, so the timing ratios say nothing about the algorithms.</li>"
           "</ol>"),
        why);
    explanation->setObjectName(QStringLiteral("explanation"));
    whyLayout->addWidget(explanation);
    col->addWidget(why);

    // ---- plots
    auto* plotsBox = new QGroupBox(tr("Plots"), page);
    auto* pg = new QGridLayout(plotsBox);
    auto makeView = [&](const QString& name) {
        auto* v = new plots::PlotView(plotsBox);
        v->setObjectName(name);
        v->setMinimumSize(420, 300);
        return v;
    };
    d->loadsView = makeView(QStringLiteral("plot.loads"));
    d->biasView = makeView(QStringLiteral("plot.biasMaxVio"));
    d->sweepMaxVioView = makeView(QStringLiteral("plot.sweepMaxVio"));
    d->sweepDroppedView = makeView(QStringLiteral("plot.sweepDropped"));
    pg->addWidget(d->loadsView, 0, 0);
    pg->addWidget(d->biasView, 0, 1);
    pg->addWidget(d->sweepMaxVioView, 1, 0);
    pg->addWidget(d->sweepDroppedView, 1, 1);
    d->sweepCaption = learn::makeExplanation(sweepCaptionText(RoutingSetup{}, {}), plotsBox);
    d->sweepCaption->setObjectName(QStringLiteral("sweepCaption"));
    pg->addWidget(d->sweepCaption, 2, 0, Qt::AlignTop);
    col->addWidget(plotsBox);
    col->addStretch(1);
    scroll->setWidget(page);

    // Defaults: the seed's setting.
    const RoutingSetup defaults;
    d->experts->setValue(defaults.experts);
    d->tokens->setValue(int(defaults.tokens));
    d->topK->setValue(defaults.topK);
    d->factor->setValue(defaults.capacityFactor);
    d->seed->setValue(int(defaults.seed));
    d->iterations->setValue(defaults.bias.iterations);
    d->zipf->setEnabled(false);
    connect(d->scores, &QComboBox::currentIndexChanged, this,
            [this] { d->zipf->setEnabled(d->scores->currentData().toString() == QLatin1String("zipf")); });
    connect(d->seedButton, &QPushButton::clicked, this, [this] {
        const RoutingSetup seedSetting;
        d->experts->setValue(seedSetting.experts);
        d->tokens->setValue(int(seedSetting.tokens));
        d->topK->setValue(seedSetting.topK);
        d->factor->setValue(seedSetting.capacityFactor);
        d->scores->setCurrentIndex(0);
        d->seed->setValue(int(seedSetting.seed));
        d->iterations->setValue(seedSetting.bias.iterations);
        d->start(false);
    });
    connect(d->runButton, &QPushButton::clicked, this, [this] { d->start(false); });
    connect(d->sweepButton, &QPushButton::clicked, this, [this] { d->start(true); });
    connect(d->cancelButton, &QPushButton::clicked, this, [this] {
        d->watcher.cancel();
        d->status->setText(tr("Cancelling…"));
    });
    connect(&d->watcher, &QFutureWatcher<LabOutcome>::progressValueChanged, d->progress,
            &QProgressBar::setValue);
    connect(&d->watcher, &QFutureWatcher<LabOutcome>::finished, this, [this] { d->finished(); });
    d->setRunning(false);
    d->highlightSeedRows(QStringLiteral("uniform"));
    d->loadsView->setSpec(learn::loadsPlot(RoutingRun{}, 2, 0));
    d->biasView->setSpec(learn::biasPlot(RoutingRun{}, 1));
    d->sweepMaxVioView->setSpec(learn::sweepMaxVioPlot({}));
    d->sweepDroppedView->setSpec(learn::sweepDroppedPlot({}, 2, 0));
}

RoutingLabPage::~RoutingLabPage() {
    d->watcher.disconnect();
    if (d->watcher.isRunning()) {
        d->watcher.cancel();
        d->watcher.waitForFinished();
    }
}

void RoutingLabPage::setProject(store::ProjectStore*) {}

RoutingSetup RoutingLabPage::Impl::setupFromControls() const {
    RoutingSetup s;
    s.experts = experts->value();
    s.tokens = tokens->value();
    s.topK = topK->value();
    s.capacityFactor = factor->value();
    const QString mode = scores->currentData().toString();
    s.scores.mode = mode == QLatin1String("zipf")           ? routing::ScoreMode::Zipf
                    : mode == QLatin1String("preferential") ? routing::ScoreMode::Preferential
                                                            : routing::ScoreMode::Uniform;
    s.scores.zipfExponent = zipf->value();
    s.seed = std::uint64_t(seed->value());
    s.bias.iterations = iterations->value();
    return s;
}

void RoutingLabPage::Impl::setRunning(bool running) {
    for (QWidget* w :
         {static_cast<QWidget*>(seedButton), static_cast<QWidget*>(runButton),
          static_cast<QWidget*>(sweepButton), static_cast<QWidget*>(experts), static_cast<QWidget*>(tokens),
          static_cast<QWidget*>(topK), static_cast<QWidget*>(factor), static_cast<QWidget*>(scores),
          static_cast<QWidget*>(seed), static_cast<QWidget*>(iterations)})
        w->setEnabled(!running);
    zipf->setEnabled(!running && scores->currentData().toString() == QLatin1String("zipf"));
    cancelButton->setEnabled(running);
    if (!running)
        progress->setValue(0);
}

void RoutingLabPage::Impl::start(bool sweep) {
    if (watcher.isRunning())
        return;
    const RoutingSetup setup = setupFromControls();
    const QStringList problems = routing::validateSetup(setup);
    if (!problems.isEmpty()) {
        status->setText(RoutingLabPage::tr("Cannot run: %1.").arg(problems.join(QStringLiteral("; "))));
        return;
    }
    setRunning(true);
    status->setText(
        sweep ? RoutingLabPage::tr("Sweeping E = 4…256 (T = %1)…").arg(setup.tokens)
              : RoutingLabPage::tr("Routing %1 tokens to %2 experts…").arg(setup.tokens).arg(setup.experts));
    watcher.setFuture(QtConcurrent::run([setup, sweep](QPromise<LabOutcome>& promise) {
        promise.setProgressRange(0, 1000);
        routing::RunControl control;
        control.progress = [&promise](double f) { promise.setProgressValue(int(f * 1000.0)); };
        control.cancelled = [&promise] { return promise.isCanceled(); };
        LabOutcome out;
        out.setup = setup;
        out.sweep = sweep;
        if (sweep)
            out.sweepRuns = routing::sweepExperts(setup, control);
        else
            out.run = routing::runRouting(setup, control);
        if (!promise.isCanceled())
            promise.addResult(std::move(out));
    }));
}

void RoutingLabPage::Impl::finished() {
    setRunning(false);
    if (watcher.isCanceled() || watcher.future().resultCount() == 0) {
        status->setText(
            RoutingLabPage::tr("Cancelled. The tables and plots still show the last finished run."));
        return;
    }
    const LabOutcome out = watcher.result();
    if (out.sweep && out.sweepRuns) {
        sweepMaxVioView->setSpec(learn::sweepMaxVioPlot(*out.sweepRuns));
        sweepDroppedView->setSpec(learn::sweepDroppedPlot(*out.sweepRuns, out.setup.topK, out.setup.tokens));
        sweepCaption->setText(sweepCaptionText(out.setup, *out.sweepRuns));
        status->setText(RoutingLabPage::tr("Sweep done: E = 4…256, T = %1, K = %2, factor %3, %4 scores.")
                            .arg(out.setup.tokens)
                            .arg(out.setup.topK)
                            .arg(out.setup.capacityFactor)
                            .arg(scoresTitle(out.setup.scores)));
        return;
    }
    if (out.run) {
        showRun(out.setup, *out.run);
        status->setText(RoutingLabPage::tr("Done."));
    }
}

void RoutingLabPage::Impl::showRun(const RoutingSetup& s, const RoutingRun& run) {
    setupLine->setText(
        RoutingLabPage::tr("E = %1, T = %2, K = %3, factor %4 → target load K×T/E = %5, capacity %6; "
                           "%7 scores, seed %8.")
            .arg(s.experts)
            .arg(s.tokens)
            .arg(s.topK)
            .arg(s.capacityFactor)
            .arg(double(s.topK) * double(s.tokens) / s.experts, 0, 'f', 1)
            .arg(run.capacity)
            .arg(scoresTitle(s.scores))
            .arg(s.seed));
    results->setRowCount(0);
    for (const auto& r : run.results) {
        const int row = results->rowCount();
        results->insertRow(row);
        results->setItem(row, 0, cell(learn::routerTitle(r.router), Qt::AlignLeft | Qt::AlignVCenter));
        results->item(row, 0)->setData(Qt::UserRole, routing::routerToken(r.router));
        results->setItem(row, 1, cell(QString::number(r.maxVio, 'f', 4)));
        results->setItem(row, 2, cell(QString::number(r.droppedAssignments)));
        results->setItem(row, 3, cell(QString::number(r.tokensWithoutExpert)));
        results->setItem(row, 4, cell(QString::number(r.entropyBits, 'f', 3)));
        results->setItem(row, 5, cell(units::formatDuration(r.routingMs * 1e3)));
        results->setItem(row, 6, cell(QString::number(r.routingMs * 1e6 / double(s.tokens), 'f', 2)));
        // Exact values for tests and copying.
        results->item(row, 1)->setData(Qt::UserRole, r.maxVio);
        results->item(row, 4)->setData(Qt::UserRole, r.entropyBits);
    }
    fitHeight(results);
    highlightSeedRows(s.scores.text());
    loadsView->setSpec(learn::loadsPlot(run, s.topK, s.tokens));
    biasView->setSpec(learn::biasPlot(run, s.bias.batches));
}

void RoutingLabPage::Impl::highlightSeedRows(const QString& mode) {
    for (int r = 0; r < seedTable->rowCount(); ++r) {
        const bool match = seedTable->item(r, 1)->data(Qt::UserRole).toString() == mode;
        for (int c = 0; c < seedTable->columnCount(); ++c) {
            QFont f = seedTable->item(r, c)->font();
            f.setBold(match);
            seedTable->item(r, c)->setFont(f);
        }
    }
}

} // namespace moewb::gui
