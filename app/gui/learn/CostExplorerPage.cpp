// The cost-structure explorer (docs/learn.md): every figure comes from core/costs; this
// page only collects the inputs and explains the outputs.
#include "LearnPages.h"
#include "LearnPlots.h"
#include "LearnWidgets.h"

#include "common/Units.h"
#include "costs/CostModel.h"
#include "costs/StepTimeEstimate.h"
#include "plots/PlotView.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

namespace moewb::gui {

namespace {

// A slider and a spin box for one integer input. Power-of-two knobs move the slider in
// log2 steps; the spin box takes any value in range.
struct Knob {
    QString key;
    QSlider* slider = nullptr;
    QSpinBox* spin = nullptr;
    bool powerOfTwo = false;
    int step = 1; // linear knobs: slider value = spin value / step
};

int sliderFor(const Knob& k, int value) {
    if (k.powerOfTwo)
        return int(std::lround(std::log2(double(std::max(1, value)))));
    return value / k.step;
}
int valueFor(const Knob& k, int sliderValue) {
    return k.powerOfTwo ? (1 << sliderValue) : sliderValue * k.step;
}

struct Precision {
    QString name;
    costs::ByteSizes bytes;
};
struct Optimizer {
    QString name;
    double stateBytes;
    bool distributed;
};

QString percent(double part, double whole) {
    return whole > 0 ? QString::number(100.0 * part / whole, 'f', 1) + QStringLiteral(" %")
                     : QStringLiteral("-");
}

} // namespace

struct CostExplorerPage::Impl {
    CostExplorerPage* q = nullptr;
    store::ProjectStore* project = nullptr;
    QList<Knob> knobs;
    QComboBox* precision = nullptr;
    QComboBox* optimizer = nullptr;
    QDoubleSpinBox* tflops = nullptr;
    QList<Precision> precisions;
    QList<Optimizer> optimizers;
    std::optional<costs::CommCurve> curve;
    QString curveNote;
    // The seeding record's node count: the stage 1 curve at that count is preferred.
    std::optional<std::int64_t> recordNodes;
    int curveEp = 0;

    QLabel* totalParams = nullptr;
    QLabel* activatedParams = nullptr;
    QLabel* paramBreakdown = nullptr;
    QLabel* memoryTotal = nullptr;
    QLabel* memoryBreakdown = nullptr;
    QLabel* a2aPerTokenLayer = nullptr;
    QLabel* a2aPerStep = nullptr;
    QLabel* a2aDetail = nullptr;
    QLabel* stepA2a = nullptr;
    QLabel* stepCompute = nullptr;
    QLabel* recordSource = nullptr;
    QLabel* stepDetail = nullptr;
    QLabel* curveSource = nullptr;
    QLabel* warnings = nullptr;
    QLabel* recomputeTime = nullptr;
    plots::PlotView* paramView = nullptr;
    plots::PlotView* memoryView = nullptr;
    double figuresMs = 0.0;
    double plotsMs = 0.0;
    QTimer plotTimer;
    plots::PlotSpec pendingParams, pendingMemory;
    static constexpr int kPlotIntervalMs = 80;

    int value(const QString& key) const {
        for (const Knob& k : knobs)
            if (k.key == key)
                return k.spin->value();
        return 0;
    }
    // The two columns: inputs beside the outputs (their scroll area) or, on a narrow
    // page, both stacked in that scroll area.
    QHBoxLayout* outer = nullptr;
    QVBoxLayout* bodyLayout = nullptr;
    QScrollArea* scroll = nullptr;
    QWidget* inputs = nullptr;
    QWidget* outputs = nullptr;
    bool stacked = false;
    static constexpr int kMinOutputWidth = 480; // below this the plots and text get cramped

    void updateFlow();
    void recompute();
    void redrawPlots();
    void showTimes();
    void reloadCurve();
    void seedFromProject();
    void setKnob(const QString& key, std::int64_t v);
    costs::CostInputs inputsFromKnobs() const;
    costs::CostOptions optionsFromControls() const;
};

CostExplorerPage::CostExplorerPage(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
    d->q = this;
    setObjectName(QStringLiteral("costExplorerPage"));
    d->precisions = {
        {tr("bf16 mixed precision (bf16 weights and gradients, fp32 master weights)"), {2, 2, 4, 8, 2}},
        {tr("fp32 (weights, gradients, all-to-all in fp32; no master copy)"), {4, 4, 0, 8, 4}},
        {tr("fp8 all-to-all (bf16 mixed precision, tokens sent in fp8)"), {2, 2, 4, 8, 1}},
    };
    d->optimizers = {
        {tr("Adam (m and v in fp32: 8 bytes per parameter)"), 8, false},
        {tr("Adam, distributed optimizer (sharded over data parallel)"), 8, true},
        {tr("SGD with momentum (4 bytes per parameter)"), 4, false},
    };

    auto* outer = new QHBoxLayout(this);
    // ---- inputs
    auto* inputs = new QGroupBox(tr("The model and its layout"), this);
    auto* grid = new QGridLayout(inputs);
    int row = 0;
    auto addKnob = [&](const QString& key, const QString& label, int lo, int hi, int value,
                       const QString& info, bool powerOfTwo = false, int step = 1) {
        Knob k;
        k.key = key;
        k.powerOfTwo = powerOfTwo;
        k.step = step;
        k.slider = new QSlider(Qt::Horizontal, inputs);
        k.slider->setObjectName(QStringLiteral("slider.") + key);
        k.spin = new QSpinBox(inputs);
        k.spin->setObjectName(QStringLiteral("spin.") + key);
        k.spin->setRange(lo, hi);
        k.spin->setSingleStep(step);
        k.slider->setRange(sliderFor(k, lo), sliderFor(k, hi));
        k.slider->setPageStep(1);
        k.spin->setValue(value);
        k.slider->setValue(sliderFor(k, value));
        auto* l = new QLabel(label, inputs);
        l->setBuddy(k.spin);
        grid->addWidget(l, row, 0);
        grid->addWidget(k.slider, row, 1);
        grid->addWidget(k.spin, row, 2);
        grid->addWidget(learn::makeInfoButton(info, inputs), row, 3);
        ++row;
        const Knob copy = k;
        connect(k.slider, &QSlider::valueChanged, this, [copy](int v) {
            const int target = valueFor(copy, v);
            if (sliderFor(copy, copy.spin->value()) != v)
                copy.spin->setValue(target);
        });
        connect(k.spin, &QSpinBox::valueChanged, this, [this, copy](int v) {
            const QSignalBlocker block(copy.slider);
            copy.slider->setValue(sliderFor(copy, v));
            d->recompute();
        });
        d->knobs.append(k);
    };
    addKnob(QStringLiteral("layers"), tr("Layers L"), 1, 256, 28,
            tr("Transformer layers. Here every layer is an MoE layer: attention, then a router that "
               "sends each token to K of E expert FFNs."));
    addKnob(QStringLiteral("hidden"), tr("Hidden size h"), 128, 16384, 2048,
            tr("The width of the token vectors. Attention has about 4·h² parameters per layer, and every "
               "token sent to a remote expert carries h numbers."),
            false, 128);
    addKnob(QStringLiteral("ffn"), tr("Expert FFN size f"), 64, 65536, 1408,
            tr("The inner width of ONE expert's feed-forward network. An expert is a small dense FFN with "
               "3·h·f parameters (SwiGLU: gate, up, down). MoE models use many narrow experts."),
            false, 64);
    addKnob(QStringLiteral("experts"), tr("Routed experts E"), 1, 1024, 64,
            tr("Experts per MoE layer that tokens are routed to. All E are stored (memory), but each token "
               "only computes K of them: E grows the model without growing the compute per token."));
    addKnob(QStringLiteral("shared"), tr("Shared experts"), 0, 16, 2,
            tr("Experts every token always goes through (as in DeepSeek-MoE). They count fully in both total "
               "and activated parameters, and need no all-to-all."));
    addKnob(QStringLiteral("topk"), tr("Top-k K"), 1, 64, 6,
            tr("Routed experts each token is sent to. Compute per token and all-to-all bytes grow with K; "
               "memory does not."));
    addKnob(QStringLiteral("dp"), tr("Data parallel DP"), 1, 4096, 8,
            tr("Replicas of the model that each take a share of the batch. Without a distributed optimizer "
               "every replica holds full optimizer state."),
            true);
    addKnob(QStringLiteral("tp"), tr("Tensor parallel TP"), 1, 64, 1,
            tr("Each weight matrix is split across TP devices: parameters per device ÷ TP."), true);
    addKnob(QStringLiteral("pp"), tr("Pipeline parallel PP"), 1, 128, 1,
            tr("The layers are split into PP stages: each device holds L/PP layers."), true);
    addKnob(QStringLiteral("ep"), tr("Expert parallel EP"), 1, 1024, 8,
            tr("The E experts are spread over EP devices (E/EP each). A token whose expert lives on another "
               "device must be sent there and back: the all-to-all. (EP−1)/EP of the assignments leave the "
               "device."),
            true);
    addKnob(QStringLiteral("microBatch"), tr("Micro-batch (sequences)"), 1, 256, 1,
            tr("Sequences processed together in one forward/backward. One all-to-all call moves one "
               "micro-batch's tokens, so it sets the message size the stage 1 curve is read at."));
    addKnob(QStringLiteral("sequence"), tr("Sequence length"), 128, 262144, 4096, tr("Tokens per sequence."),
            true);
    addKnob(QStringLiteral("globalBatch"), tr("Global batch (sequences)"), 1, 1 << 20, 1024,
            tr("Sequences per optimizer step over all replicas: global batch ÷ (DP × micro-batch) "
               "micro-batches per step."),
            true);
    d->precision = new QComboBox(inputs);
    d->precision->setObjectName(QStringLiteral("precision"));
    for (const auto& p : d->precisions)
        d->precision->addItem(p.name);
    grid->addWidget(new QLabel(tr("Precision"), inputs), row, 0);
    grid->addWidget(d->precision, row, 1, 1, 2);
    grid->addWidget(
        learn::makeInfoButton(tr("Bytes per parameter, gradient and master weight, and per number sent "
                                 "by the all-to-all."),
                              inputs),
        row++, 3);
    d->optimizer = new QComboBox(inputs);
    d->optimizer->setObjectName(QStringLiteral("optimizer"));
    for (const auto& o : d->optimizers)
        d->optimizer->addItem(o.name);
    grid->addWidget(new QLabel(tr("Optimizer"), inputs), row, 0);
    grid->addWidget(d->optimizer, row, 1, 1, 2);
    grid->addWidget(
        learn::makeInfoButton(tr("Adam keeps two numbers per parameter (m and v), usually in fp32: "
                                 "with the fp32 master copy that is 12 of the 16 bytes per parameter. "
                                 "A distributed optimizer shards them over the data-parallel "
                                 "replicas."),
                              inputs),
        row++, 3);
    d->tflops = new QDoubleSpinBox(inputs);
    d->tflops->setObjectName(QStringLiteral("tflops"));
    d->tflops->setRange(0, 10000);
    d->tflops->setDecimals(0);
    d->tflops->setSuffix(tr(" TFLOP/s"));
    d->tflops->setSpecialValueText(tr("not set"));
    d->tflops->setValue(0);
    grid->addWidget(new QLabel(tr("Achieved compute per device"), inputs), row, 0);
    grid->addWidget(d->tflops, row, 1, 1, 2);
    grid->addWidget(
        learn::makeInfoButton(tr("What one device really reaches (not the datasheet peak); sets the "
                                 "compute part of the step estimate. Leave 'not set' for the "
                                 "all-to-all part only."),
                              inputs),
        row++, 3);
    d->warnings = new QLabel(inputs);
    d->warnings->setObjectName(QStringLiteral("warnings"));
    d->warnings->setWordWrap(true);
    d->warnings->setStyleSheet(QStringLiteral("color: #b35900;"));
    grid->addWidget(d->warnings, row++, 0, 1, 4);
    grid->setRowStretch(row, 1);
    grid->setColumnStretch(1, 1);
    connect(d->precision, &QComboBox::currentIndexChanged, this, [this] { d->recompute(); });
    connect(d->optimizer, &QComboBox::currentIndexChanged, this, [this] { d->recompute(); });
    connect(d->tflops, &QDoubleSpinBox::valueChanged, this, [this] { d->recompute(); });
    inputs->setMinimumWidth(420);
    inputs->setObjectName(QStringLiteral("costInputs"));
    d->inputs = inputs;
    d->outer = outer;
    outer->addWidget(inputs, 0);

    // ---- outputs, in a scroll area that also takes the inputs when the page is too
    // narrow for the two columns side by side (updateFlow).
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("costScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* body = new QWidget(scroll);
    body->setObjectName(QStringLiteral("costBody"));
    d->bodyLayout = new QVBoxLayout(body);
    d->bodyLayout->setContentsMargins(0, 0, 0, 0);
    d->scroll = scroll;
    auto* out = new QWidget(body);
    out->setObjectName(QStringLiteral("costOutputs"));
    d->outputs = out;
    d->bodyLayout->addWidget(out, 1);
    auto* col = new QVBoxLayout(out);
    auto* title = new QLabel(tr("Where an MoE's cost comes from"), out);
    QFont tf = title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.4);
    title->setFont(tf);
    col->addWidget(title);
    col->addWidget(learn::makeExplanation(
        tr("A dense model computes with every parameter it stores. An MoE stores E expert FFNs per layer but "
           "sends each token through only K of them, so <b>what you store</b> (memory, optimizer state) and "
           "<b>what you compute</b> (FLOPs per token) come apart — and a new cost appears: moving tokens to "
           "the devices that hold their experts (the all-to-all). Move a slider and watch which figures "
           "change."),
        out));

    auto group = [&](const QString& name, QGridLayout** layout) {
        auto* g = new QGroupBox(name, out);
        *layout = new QGridLayout(g);
        (*layout)->setColumnStretch(1, 1);
        col->addWidget(g);
        return g;
    };
    QGridLayout* gl = nullptr;
    // One figure of a block: its name, the figure, and an ⓘ that explains it.
    auto figureRow = [&](int row, const QString& label, QLabel* figure, const QString& info) {
        gl->addWidget(new QLabel(label, out), row, 0);
        gl->addWidget(figure, row, 1);
        gl->addWidget(learn::makeInfoButton(info, out), row, 2);
    };
    // The step time first: what a reader comes for (the all-to-all beside the compute),
    // in the first screen; the figures it is made of follow.
    group(tr("Step time estimate"), &gl);
    d->recordSource = learn::makeExplanation({}, out);
    d->recordSource->setObjectName(QStringLiteral("recordSource"));
    gl->addWidget(d->recordSource, 0, 0, 1, 3);
    d->stepA2a = learn::makeFigureLabel(QStringLiteral("figure.stepA2a"), out);
    d->stepCompute = learn::makeFigureLabel(QStringLiteral("figure.stepCompute"), out);
    d->stepDetail = learn::makeExplanation({}, out);
    d->curveSource = learn::makeExplanation({}, out);
    d->curveSource->setObjectName(QStringLiteral("curveSource"));
    figureRow(1, tr("All-to-all per step"), d->stepA2a,
              tr("Calls per step × the time of one call, read off this cluster's stage "
                                 "1 curve (measured all-to-all time vs message size) at one call's "
                                 "bytes per rank. Measured, not a datasheet bandwidth: small messages "
                                 "are latency-bound."));
    figureRow(2, tr("Compute per step"), d->stepCompute,
              tr("6 × activated parameters × the tokens one device computes per step, "
                                           "at the achieved compute per device set among the inputs (not "
                                           "estimated until it is set)."));
    gl->addWidget(d->stepDetail, 3, 0, 1, 3);
    gl->addWidget(d->curveSource, 4, 0, 1, 3);
    {
        auto* reference = new QPushButton(tr("Use the curve measured on this computer (reference project)…"), out);
        reference->setObjectName(QStringLiteral("openReferenceProject"));
        reference->setToolTip(tr("Opens the reference evaluation measured on this computer (moewb reference), whose "
                                 "stage 1 curve this page then reads; offers to measure it when there is none."));
        connect(reference, &QPushButton::clicked, this, &CostExplorerPage::referenceProjectRequested);
        gl->addWidget(reference, 5, 0, 1, 3, Qt::AlignLeft);
    }

    group(tr("Parameters: total vs activated"), &gl);
    d->totalParams = learn::makeFigureLabel(QStringLiteral("figure.totalParams"), out);
    d->activatedParams = learn::makeFigureLabel(QStringLiteral("figure.activatedParams"), out);
    d->paramBreakdown = learn::makeExplanation({}, out);
    figureRow(0, tr("Total (stored)"), d->totalParams,
              tr("Every parameter the model stores: attention, routers, shared experts and "
                                 "all E routed experts of every layer. This sets memory."));
    figureRow(1, tr("Activated (per token)"), d->activatedParams,
              tr("The parameters one token is computed with: the same, but only K routed "
                                 "experts. Compute per token ≈ 6 × activated FLOPs for training "
                                 "(forward + backward)."));
    gl->addWidget(d->paramBreakdown, 2, 0, 1, 3);
    d->paramView = new plots::PlotView(out);
    d->paramView->setObjectName(QStringLiteral("plot.parameters"));
    d->paramView->setMinimumHeight(240);
    gl->addWidget(d->paramView, 3, 0, 1, 3);

    group(tr("Memory per device: parameters, gradients, optimizer state"), &gl);
    d->memoryTotal = learn::makeFigureLabel(QStringLiteral("figure.memoryTotal"), out);
    d->memoryBreakdown = learn::makeExplanation({}, out);
    figureRow(0, tr("Model state per device"), d->memoryTotal,
              tr("What one device must hold besides activations: its share of the "
                                 "parameters (dense part ÷ TP·PP, experts ÷ EP·TP·PP), a gradient "
                                 "for each, and the optimizer's master weights and state. Experts are "
                                 "the big share of an MoE, so EP is what makes it fit."));
    gl->addWidget(d->memoryBreakdown, 1, 0, 1, 3);
    d->memoryView = new plots::PlotView(out);
    d->memoryView->setObjectName(QStringLiteral("plot.memory"));
    d->memoryView->setMinimumHeight(220);
    gl->addWidget(d->memoryView, 2, 0, 1, 3);

    group(tr("All-to-all: moving tokens to their experts"), &gl);
    d->a2aPerTokenLayer = learn::makeFigureLabel(QStringLiteral("figure.a2aPerTokenLayer"), out);
    d->a2aPerStep = learn::makeFigureLabel(QStringLiteral("figure.a2aPerStep"), out);
    d->a2aDetail = learn::makeExplanation({}, out);
    figureRow(0, tr("Per token per layer"), d->a2aPerTokenLayer,
              tr("Each token's hidden vector (h numbers) goes to its K experts "
                                 "(dispatch) and the results come back (combine), in the forward and "
                                 "again in the backward pass: 4 transfers of K·h numbers, of which "
                                 "(EP−1)/EP leave the device. A dense model has none of this."));
    figureRow(1, tr("Per device per step"), d->a2aPerStep,
              tr("Per token per layer × the tokens one device processes per step "
                                           "(global batch ÷ DP·TP) × the MoE layers on its pipeline stage "
                                           "(L ÷ PP)."));
    gl->addWidget(d->a2aDetail, 2, 0, 1, 3);

    d->recomputeTime = new QLabel(out);
    d->recomputeTime->setObjectName(QStringLiteral("recomputeTime"));
    // Timings are for the tests and the log, not for the reader: kept as properties, not shown.
    d->recomputeTime->hide();
    d->recomputeTime->setWordWrap(true);
    // The plots shrink with the column (their axes relabel) rather than force a sideways
    // scroll at large text scaling.
    d->paramView->setMinimumWidth(260);
    d->memoryView->setMinimumWidth(260);
    col->addWidget(d->recomputeTime);
    col->addStretch(1);
    scroll->setWidget(body);
    outer->addWidget(scroll, 1);

    d->plotTimer.setSingleShot(true);
    d->plotTimer.setInterval(Impl::kPlotIntervalMs);
    connect(&d->plotTimer, &QTimer::timeout, this, [this] { d->redrawPlots(); });
    d->seedFromProject();
    d->reloadCurve();
    d->recompute();
    d->plotTimer.stop();
    d->redrawPlots();
}

CostExplorerPage::~CostExplorerPage() = default;

bool CostExplorerPage::isStacked() const {
    return d->stacked;
}

void CostExplorerPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    d->updateFlow();
}

void CostExplorerPage::Impl::updateFlow() {
    // Side by side needs the inputs' width, a readable output column (its plots and
    // text) and the scroll bar; narrower than that, the inputs go on top of the
    // outputs in the one scroll area (a 1280 px window at 200 % scaling).
    const int spacing = std::max(0, outer->spacing());
    const QMargins m = outer->contentsMargins();
    const int needed = m.left() + m.right() + std::max(inputs->minimumWidth(), inputs->minimumSizeHint().width()) + spacing +
                       std::max(kMinOutputWidth, outputs->minimumSizeHint().width()) +
                       scroll->verticalScrollBar()->sizeHint().width();
    const bool stack = q->width() < needed;
    if (stack == stacked)
        return;
    stacked = stack;
    if (stack) {
        outer->removeWidget(inputs);
        bodyLayout->insertWidget(0, inputs, 0, Qt::AlignLeft); // its natural width, not the page's
    } else {
        bodyLayout->removeWidget(inputs);
        outer->insertWidget(0, inputs, 0);
    }
    inputs->show();
}

void CostExplorerPage::setProject(store::ProjectStore* project) {
    d->project = project;
    d->seedFromProject();
    d->reloadCurve();
    d->recompute();
}

void CostExplorerPage::Impl::setKnob(const QString& key, std::int64_t v) {
    for (const Knob& k : knobs) {
        if (k.key != key)
            continue;
        const QSignalBlocker blockSpin(k.spin), blockSlider(k.slider);
        const int clamped = int(std::clamp<std::int64_t>(v, k.spin->minimum(), k.spin->maximum()));
        k.spin->setValue(clamped);
        k.slider->setValue(sliderFor(k, clamped));
    }
}

// The inputs start from the open project's own model: its newest complete MoE config
// record (a draft may lack the parallel sizes), so the first figures are this project's.
void CostExplorerPage::Impl::seedFromProject() {
    recordNodes.reset();
    if (!project) {
        recordSource->setText(CostExplorerPage::tr(
            "No project is open: the inputs are an example (a DeepSeek-MoE-16B-like model). Open a project to "
            "start from its config record."));
        return;
    }
    QString name;
    std::optional<costs::CostInputs> found;
    const QList<store::ConfigRecordRow> records = project->configRecords();
    for (auto it = records.crbegin(); it != records.crend() && !found; ++it) {
        const record::ConfigRecord rec = record::ConfigRecord::fromJson(it->json, nullptr);
        if (!it->complete || rec.isDense())
            continue;
        if (auto in = costs::costInputsFromRecord(rec, nullptr)) {
            found = in;
            name = it->name;
        }
    }
    if (!found) {
        recordSource->setText(CostExplorerPage::tr(
            "This project has no complete MoE config record with the model and parallel sizes the formulas "
            "need: the inputs are an example."));
        return;
    }
    const costs::CostInputs& in = *found;
    if (const auto row = project->configRecord(name)) {
        const record::ConfigRecord rec = record::ConfigRecord::fromJson(row->json, nullptr);
        if (rec.cluster.nodes)
            recordNodes = std::int64_t(*rec.cluster.nodes);
    }
    setKnob(QStringLiteral("layers"), in.layers);
    setKnob(QStringLiteral("hidden"), in.hidden);
    setKnob(QStringLiteral("ffn"), in.ffn);
    setKnob(QStringLiteral("experts"), in.experts);
    setKnob(QStringLiteral("shared"), in.sharedExperts);
    setKnob(QStringLiteral("topk"), in.topK);
    setKnob(QStringLiteral("dp"), in.dp);
    setKnob(QStringLiteral("tp"), in.tp);
    setKnob(QStringLiteral("pp"), in.pp);
    setKnob(QStringLiteral("ep"), in.ep);
    if (in.sequenceLength && *in.sequenceLength > 0) {
        setKnob(QStringLiteral("sequence"), *in.sequenceLength);
        if (in.globalBatchTokens)
            setKnob(QStringLiteral("globalBatch"), *in.globalBatchTokens / *in.sequenceLength);
    }
    // The achieved compute per device, so that the compute time stands beside the
    // all-to-all time: the median TFLOP/s/GPU a training run of this record logged, else
    // its median tokens/s/GPU × 6 × the activated parameters (training FLOPs per token).
    QString measured;
    // The activated parameters as the page counts them from the inputs just set.
    const double activated = costs::countParameters(inputsFromKnobs(), optionsFromControls()).activatedUsed;
    for (const store::RunRow& r : project->runs()) {
        if (r.recordName != name || r.stepCount == 0)
            continue;
        auto median = [&](const char* metric) -> std::optional<double> {
            const QVector<store::StepMetric> logged = project->stepMetrics(r.id, QLatin1String(metric));
            std::vector<double> values;
            values.reserve(std::size_t(logged.size()));
            for (const store::StepMetric& m : logged)
                if (std::isfinite(m.value) && m.value > 0)
                    values.push_back(m.value);
            if (values.empty())
                return std::nullopt;
            std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(values.size() / 2), values.end());
            return values[values.size() / 2];
        };
        double achieved = 0;
        if (const auto tf = median("tflops_per_gpu")) {
            achieved = *tf;
            measured = CostExplorerPage::tr(" The achieved compute is the median TFLOP/s per device its run \"%1\" "
                                            "logged.")
                           .arg(r.name.toHtmlEscaped());
        } else if (const auto tokens = median("tokens_per_s_per_gpu"); tokens && activated > 0) {
            achieved = 6.0 * activated * *tokens / 1e12;
            measured = CostExplorerPage::tr(" The achieved compute is 6 × the activated parameters × the median "
                                            "tokens/s per device its run \"%1\" logged.")
                           .arg(r.name.toHtmlEscaped());
        }
        if (achieved > 0) {
            const QSignalBlocker block(tflops);
            tflops->setValue(achieved);
            break;
        }
    }
    recordSource->setText(CostExplorerPage::tr("Starts from the config record \"%1\" of this project; change any "
                                               "input to see what it costs.")
                              .arg(name.toHtmlEscaped()) +
                          measured);
}

void CostExplorerPage::Impl::reloadCurve() {
    curveNote.clear();
    curveEp = value(QStringLiteral("ep"));
    curve.reset();
    if (!project)
        return;
    // The same choice as `moewb costs`: the run whose world matches EP, else the first.
    costs::ProjectCurve found = costs::commCurveFromProject(*project, curveEp, {}, recordNodes);
    curve = std::move(found.curve);
    curveNote = found.error;
}

costs::CostInputs CostExplorerPage::Impl::inputsFromKnobs() const {
    costs::CostInputs in;
    in.layers = value(QStringLiteral("layers"));
    in.moeLayers = in.layers;
    in.hidden = value(QStringLiteral("hidden"));
    in.ffn = value(QStringLiteral("ffn"));
    in.experts = value(QStringLiteral("experts"));
    in.sharedExperts = value(QStringLiteral("shared"));
    in.topK = std::min(value(QStringLiteral("topk")), int(in.experts));
    in.dp = value(QStringLiteral("dp"));
    in.tp = value(QStringLiteral("tp"));
    in.pp = value(QStringLiteral("pp"));
    in.ep = value(QStringLiteral("ep"));
    in.sequenceLength = value(QStringLiteral("sequence"));
    in.globalBatchTokens = std::int64_t(value(QStringLiteral("globalBatch"))) * *in.sequenceLength;
    return in;
}

costs::CostOptions CostExplorerPage::Impl::optionsFromControls() const {
    costs::CostOptions options;
    options.bytes = precisions.value(precision->currentIndex()).bytes;
    const Optimizer opt = optimizers.value(optimizer->currentIndex());
    options.bytes.optimizerState = opt.stateBytes;
    options.distributedOptimizer = opt.distributed;
    options.microBatchSequences = value(QStringLiteral("microBatch"));
    return options;
}

void CostExplorerPage::Impl::recompute() {
    QElapsedTimer timer;
    timer.start();
    // The curve choice depends on EP (the run whose world matches): re-pick when it changed.
    if (project && curveEp != value(QStringLiteral("ep")))
        reloadCurve();
    const costs::CostInputs in = inputsFromKnobs();
    const costs::CostOptions options = optionsFromControls();

    const costs::ParameterCounts p = costs::countParameters(in, options);
    const costs::MemoryPerDevice m = costs::memoryPerDevice(in, p, options);
    const costs::AllToAllVolume v = costs::allToAllVolume(in, options);
    const std::optional<double> achieved =
        tflops->value() > 0 ? std::optional<double>(tflops->value()) : std::nullopt;
    const costs::StepTimeEstimate st = costs::estimateStepTime(in, p, v, curve, achieved);

    QStringList warn;
    if (value(QStringLiteral("topk")) > in.experts)
        warn << CostExplorerPage::tr("Top-k is larger than the number of experts: computed with K = E.");
    if (in.experts % in.ep != 0)
        warn << CostExplorerPage::tr("E = %1 experts do not split evenly over EP = %2 devices.")
                    .arg(in.experts)
                    .arg(in.ep);
    if (in.ep > in.dp)
        warn << CostExplorerPage::tr(
                    "EP = %1 is larger than DP = %2: expert parallelism is usually carved out of "
                    "the data-parallel ranks (EP divides DP).")
                    .arg(in.ep)
                    .arg(in.dp);
    if (in.layers % in.pp != 0)
        warn << CostExplorerPage::tr("%1 layers do not split evenly into PP = %2 stages.")
                    .arg(in.layers)
                    .arg(in.pp);
    const double microBatches =
        double(value(QStringLiteral("globalBatch"))) / (double(in.dp) * double(options.microBatchSequences));
    if (microBatches < 1.0)
        warn << CostExplorerPage::tr("The global batch is smaller than DP × micro-batch.");
    warnings->setText(warn.join(QLatin1Char('\n')));
    warnings->setVisible(!warn.isEmpty());

    learn::setFigure(totalParams, units::formatCount(p.total), p.total);
    learn::setFigure(activatedParams,
                     CostExplorerPage::tr("%1  (%2 of the total)")
                         .arg(units::formatCount(p.activated), percent(p.activated, p.total)),
                     p.activated);
    paramBreakdown->setText(
        CostExplorerPage::tr("Attention %1 per layer · one expert %2 · routed experts %3 of the total (%4) · "
                             "router %5 per layer. Doubling E doubles the routed experts' memory; doubling K "
                             "doubles their compute.")
            .arg(units::formatCount(p.attentionPerLayer), units::formatCount(p.oneExpert),
                 units::formatCount(p.routedExperts), percent(p.routedExperts, p.total),
                 units::formatCount(p.routerPerMoeLayer)));
    learn::setFigure(memoryTotal, units::formatBytes(m.totalBytes), m.totalBytes);
    memoryBreakdown->setText(
        CostExplorerPage::tr(
            "Held per device: %1 dense + %2 expert parameters. Parameters %3 · gradients %4 · "
            "master weights %5 · optimizer state %6. Each expert has %7 (DP ÷ EP)%8. "
            "Activations come on top and depend on the micro-batch and recomputation.")
            .arg(units::formatCount(m.denseParams), units::formatCount(m.expertParams),
                 units::formatBytes(m.parameterBytes), units::formatBytes(m.gradientBytes),
                 units::formatBytes(m.masterWeightBytes), units::formatBytes(m.optimizerStateBytes))
            .arg(m.expertDataParallel == std::floor(m.expertDataParallel) && m.expertDataParallel < 1e9
                     ? CostExplorerPage::tr("%n replica(s)", "", int(m.expertDataParallel))
                     : CostExplorerPage::tr("%1 replicas").arg(m.expertDataParallel, 0, 'g', 4))
            .arg(options.distributedOptimizer
                     ? CostExplorerPage::tr(", over which the optimizer state is sharded")
                     : QString()));
    learn::setFigure(a2aPerTokenLayer, units::formatBytes(v.bytesPerTokenPerLayer), v.bytesPerTokenPerLayer);
    learn::setFigure(a2aPerStep,
                     v.bytesPerDevicePerStep ? units::formatBytes(*v.bytesPerDevicePerStep)
                                             : QStringLiteral("-"),
                     v.bytesPerDevicePerStep.value_or(0.0));
    a2aDetail->setText(
        CostExplorerPage::tr(
            "One dispatch moves %1 per token per layer (K·h·%2 bytes × (EP−1)/EP = %3 remote); "
            "dispatch + combine, forward + backward make it ×4. %4 tokens per device per step, "
            "%5 MoE layers per stage.%6")
            .arg(units::formatBytes(v.bytesPerTokenPerLayerOneWay))
            .arg(options.bytes.activation)
            .arg(v.remoteFraction, 0, 'f', 3)
            .arg(v.tokensPerDevicePerStep ? units::formatCount(*v.tokensPerDevicePerStep)
                                          : QStringLiteral("-"))
            .arg(v.moeLayersPerStage, 0, 'g', 4)
            .arg(in.ep <= 1 ? CostExplorerPage::tr(" With EP = 1 every expert is local: no all-to-all.")
                            : QString()));

    auto dur = [](const std::optional<double>& us) {
        return us ? units::formatDuration(*us) : QStringLiteral("-");
    };
    learn::setFigure(stepA2a, dur(st.allToAllUs), st.allToAllUs.value_or(0.0));
    learn::setFigure(stepCompute,
                     st.computeUs ? dur(st.computeUs) : CostExplorerPage::tr("set the achieved compute"),
                     st.computeUs.value_or(0.0));
    QString detail =
        CostExplorerPage::tr("One call moves %1 per rank; %2 calls per step; one call takes %3%4. "
                             "Compute per step %5; total without overlap %6.")
            .arg(v.bytesPerRankPerCall ? units::formatBytes(*v.bytesPerRankPerCall) : QStringLiteral("-"))
            .arg(v.callsPerStep ? QString::number(*v.callsPerStep, 'f', 0) : QStringLiteral("-"))
            .arg(dur(st.callTimeUs))
            .arg(st.extrapolated ? CostExplorerPage::tr(" (outside the measured sizes: extrapolated)")
                                 : QString())
            .arg(st.computeUs ? dur(st.computeUs)
                              : CostExplorerPage::tr("not estimated (set the achieved compute)"))
            .arg(st.totalUs ? dur(st.totalUs) : CostExplorerPage::tr("not estimated"));
    stepDetail->setText(detail);
    if (curve && !curve->routingOrigin.isEmpty())
        curveSource->setText(
            CostExplorerPage::tr("Uses the all-to-all curve of this project's stage 1 run \"%1\" (%2 message "
                                 "sizes), measured with the training's own routing (%3).")
                .arg(curve->runName)
                .arg(curve->points.size())
                .arg(curve->routingOrigin));
    else if (curve)
        curveSource->setText(
            CostExplorerPage::tr("Uses the measured all-to-all curve of this project's stage 1 run "
                                 "\"%1\" (%2 message sizes).")
                .arg(curve->runName)
                .arg(curve->points.size()));
    else
        curveSource->setText(
            (project ? CostExplorerPage::tr(
                           "This project has no stage 1 run with all-to-all samples: the estimate "
                           "uses no measured curve, so the all-to-all time is unknown. Run stage 1 "
                           "(or import its results) to fill it in.")
                     : CostExplorerPage::tr("No project is open: the estimate uses no measured curve, so the "
                                            "all-to-all time is unknown.")) +
            (curveNote.isEmpty() ? QString() : QStringLiteral(" (") + curveNote + QLatin1Char(')')));

    figuresMs = double(timer.nsecsElapsed()) / 1e6;
    pendingParams = learn::parameterPlot(in, p);
    pendingMemory = learn::memoryPlot(m);
    // Redrawing a plot takes tens of ms: while a slider is dragged the figures follow every
    // step and the plots at most every kPlotIntervalMs.
    if (!plotTimer.isActive())
        plotTimer.start();
    showTimes();
}

void CostExplorerPage::Impl::redrawPlots() {
    QElapsedTimer timer;
    timer.start();
    paramView->setSpec(pendingParams);
    memoryView->setSpec(pendingMemory);
    plotsMs = double(timer.nsecsElapsed()) / 1e6;
    showTimes();
}

void CostExplorerPage::Impl::showTimes() {
    recomputeTime->setText(
        CostExplorerPage::tr("Figures recomputed in %1 ms on the GUI thread; the plots redraw in "
                             "%2 ms, at most every %3 ms while a slider moves.")
            .arg(figuresMs, 0, 'f', 3)
            .arg(plotsMs, 0, 'f', 1)
            .arg(kPlotIntervalMs));
    recomputeTime->setProperty("figuresMs", figuresMs);
    recomputeTime->setProperty("plotsMs", plotsMs);
}

} // namespace moewb::gui
