// The Learn pages offscreen (app/gui/learn, docs/learn.md): the cost explorer's figures
// against core/costs, the routing lab's table against core/routing, Cancel, the plots'
// data, and screenshots of both pages in <build>/tests/artifacts/gui/.
#include "LearnPages.h"

#include "costs/CostModel.h"
#include "demo/DemoProject.h"
#include "plots/PlotView.h"
#include "routing/RoutingLab.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace moewb;

namespace {

QString artifactsDir() {
    const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui");
    QDir().mkpath(dir);
    return dir;
}

template <typename T> T* child(QWidget* page, const QString& name) {
    T* w = page->findChild<T*>(name);
    if (!w)
        qFatal("no child %s", qPrintable(name));
    return w;
}

double figure(QWidget* page, const QString& name) {
    return child<QLabel>(page, name)->property("value").toDouble();
}

// The page's inputs, read back from its spin boxes, as core/costs takes them.
costs::CostInputs inputsOf(QWidget* page) {
    auto v = [&](const char* key) {
        return std::int64_t(child<QSpinBox>(page, QStringLiteral("spin.") + QLatin1String(key))->value());
    };
    costs::CostInputs in;
    in.layers = in.moeLayers = v("layers");
    in.hidden = v("hidden");
    in.ffn = v("ffn");
    in.experts = v("experts");
    in.sharedExperts = v("shared");
    in.topK = std::min(v("topk"), in.experts);
    in.dp = v("dp");
    in.tp = v("tp");
    in.pp = v("pp");
    in.ep = v("ep");
    in.sequenceLength = v("sequence");
    in.globalBatchTokens = v("globalBatch") * v("sequence");
    return in;
}

bool specHasData(const plots::PlotSpec& spec) {
    for (const auto& s : spec.series)
        if (!s.y.isEmpty())
            return true;
    return false;
}

void saveShot(QWidget* page, const QString& file) {
    const QString path = artifactsDir() + QLatin1Char('/') + file;
    QVERIFY2(page->grab().save(path), qPrintable(path));
}

} // namespace

class TestLearnPages : public QObject {
    Q_OBJECT

private slots:
    void topKSliderMovesActivatedByOneExpertPerLayer() {
        gui::CostExplorerPage page;
        page.resize(1500, 1000);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const costs::CostOptions options; // the page's defaults: bf16 mixed, Adam, SwiGLU
        const double total0 = figure(&page, QStringLiteral("figure.totalParams"));
        const double activated0 = figure(&page, QStringLiteral("figure.activatedParams"));
        costs::CostInputs in = inputsOf(&page);
        QCOMPARE(activated0, costs::countParameters(in, options).activated);

        // K → K+1 with the slider (a real key press): one more expert FFN per MoE layer.
        auto* slider = child<QSlider>(&page, QStringLiteral("slider.topk"));
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(child<QSpinBox>(&page, QStringLiteral("spin.topk"))->value(), int(in.topK) + 1);
        const double activated1 = figure(&page, QStringLiteral("figure.activatedParams"));
        const double oneExpert = 3.0 * double(in.hidden) * double(in.ffn);
        QCOMPARE(activated1 - activated0, double(in.layers) * oneExpert);
        QCOMPARE(figure(&page, QStringLiteral("figure.totalParams")), total0); // storage unchanged
        in = inputsOf(&page);
        QCOMPARE(activated1, costs::countParameters(in, options).activated);

        // E → E+1: total grows by one expert and one router column per layer; activated only
        // by the router column.
        auto* experts = child<QSlider>(&page, QStringLiteral("slider.experts"));
        experts->setValue(experts->value() + 1);
        const costs::ParameterCounts p = costs::countParameters(inputsOf(&page), options);
        QCOMPARE(figure(&page, QStringLiteral("figure.totalParams")) - total0,
                 double(in.layers) * (oneExpert + double(in.hidden)));
        QCOMPARE(figure(&page, QStringLiteral("figure.totalParams")), p.total);
        QCOMPARE(figure(&page, QStringLiteral("figure.activatedParams")) - activated1,
                 double(in.layers * in.hidden));

        // Memory and all-to-all follow core/costs too.
        in = inputsOf(&page);
        const auto mem = costs::memoryPerDevice(in, p, options);
        QCOMPARE(figure(&page, QStringLiteral("figure.memoryTotal")), mem.totalBytes);
        const auto vol = costs::allToAllVolume(in, options);
        QCOMPARE(figure(&page, QStringLiteral("figure.a2aPerTokenLayer")), vol.bytesPerTokenPerLayer);
        QCOMPARE(figure(&page, QStringLiteral("figure.a2aPerStep")), *vol.bytesPerDevicePerStep);
        // K·h·2 bytes × (EP−1)/EP × 4 at the defaults.
        QCOMPARE(vol.bytesPerTokenPerLayer,
                 4.0 * double(in.topK * in.hidden) * 2.0 * double(in.ep - 1) / double(in.ep));

        // EP → 1 (slider at its left end): no all-to-all at all.
        child<QSlider>(&page, QStringLiteral("slider.ep"))->setValue(0);
        QCOMPARE(figure(&page, QStringLiteral("figure.a2aPerTokenLayer")), 0.0);

        // The plots have data; recomputing is cheap enough to stay on the GUI thread.
        // The plots follow (throttled) and show core/costs' numbers.
        auto* params = child<plots::PlotView>(&page, QStringLiteral("plot.parameters"));
        const double totalNow = costs::countParameters(inputsOf(&page), options).total;
        QTRY_COMPARE(params->spec().series.value(0).y.value(0), totalNow / 1e9);
        QVERIFY(specHasData(child<plots::PlotView>(&page, QStringLiteral("plot.memory"))->spec()));
        auto* timing = child<QLabel>(&page, QStringLiteral("recomputeTime"));
        qInfo("recompute: figures %.3f ms, plots %.1f ms", timing->property("figuresMs").toDouble(),
              timing->property("plotsMs").toDouble());
        QVERIFY(timing->property("figuresMs").toDouble() < 5.0);
        // Without a project the page says that it uses no measured curve.
        QVERIFY(child<QLabel>(&page, QStringLiteral("curveSource"))
                    ->text()
                    .contains(QStringLiteral("no measured curve")));
        QCOMPARE(figure(&page, QStringLiteral("figure.stepA2a")), 0.0);
    }

    void costExplorerUsesTheProjectsStageOneCurve() {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("demo.moewb"));
        QVERIFY(demo::writeDemoProject(path).hasValue());
        auto opened = store::ProjectStore::open(path, store::OpenMode::MustExist);
        QVERIFY(opened.hasValue());
        gui::CostExplorerPage page;
        page.resize(1500, 1800);
        page.setProject(opened->get());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QString source = child<QLabel>(&page, QStringLiteral("curveSource"))->text();
        QVERIFY2(source.contains(QStringLiteral("stage 1 run")), qPrintable(source));
        QVERIFY2(figure(&page, QStringLiteral("figure.stepA2a")) > 0.0,
                 qPrintable(child<QLabel>(&page, QStringLiteral("figure.stepA2a"))->text() + QLatin1Char(' ') +
                            source + QLatin1Char(' ') +
                            child<QLabel>(&page, QStringLiteral("recordSource"))->text()));
        // The inputs start from the project's own model: its newest complete MoE record, read
        // here straight from the record's JSON.
        QJsonObject moe;
        QString recordName;
        for (const store::ConfigRecordRow& r : (*opened)->configRecords())
            if (r.complete && r.json.value(QStringLiteral("moe")).toObject().value(QStringLiteral("experts")).toInt() > 1) {
                moe = r.json;
                recordName = r.name;
            }
        QVERIFY(!recordName.isEmpty());
        auto spin = [&](const char* key) { return child<QSpinBox>(&page, QStringLiteral("spin.") + QLatin1String(key))->value(); };
        QCOMPARE(spin("experts"), moe.value(QStringLiteral("moe")).toObject().value(QStringLiteral("experts")).toInt());
        QCOMPARE(spin("topk"), moe.value(QStringLiteral("moe")).toObject().value(QStringLiteral("top_k")).toInt());
        QCOMPARE(spin("layers"), moe.value(QStringLiteral("model")).toObject().value(QStringLiteral("layers")).toInt());
        QCOMPARE(spin("ep"), moe.value(QStringLiteral("parallelism")).toObject().value(QStringLiteral("ep")).toInt());
        QVERIFY2(child<QLabel>(&page, QStringLiteral("recordSource"))->text().contains(recordName),
                 qPrintable(child<QLabel>(&page, QStringLiteral("recordSource"))->text()));
        // The achieved compute: from the median tokens/s/GPU the demo's run of that record
        // logged (an upper median, by sorting here) × 6 × the activated parameters shown.
        QList<double> logged;
        for (const store::RunRow& r : (*opened)->runs())
            if (r.recordName == recordName && logged.isEmpty())
                for (const store::StepMetric& m : (*opened)->stepMetrics(r.id, QStringLiteral("tokens_per_s_per_gpu")))
                    logged << m.value;
        QVERIFY(!logged.isEmpty());
        std::sort(logged.begin(), logged.end());
        const double expected = 6.0 * figure(&page, QStringLiteral("figure.activatedParams")) * logged[logged.size() / 2] / 1e12;
        QCOMPARE(child<QDoubleSpinBox>(&page, QStringLiteral("tflops"))->value(), std::round(expected));
        QVERIFY(figure(&page, QStringLiteral("figure.stepCompute")) > 0.0);
        saveShot(&page, QStringLiteral("learn_costs.png"));
        // At 1366 × 768 the step time — all-to-all beside compute — is in the first screen.
        page.resize(1366, 768);
        QCoreApplication::processEvents();
        for (const char* name : {"figure.stepA2a", "figure.stepCompute"}) {
            auto* label = child<QLabel>(&page, QString::fromLatin1(name));
            const QPoint at = label->mapTo(&page, QPoint(0, label->height()));
            QVERIFY2(label->isVisible() && at.y() <= page.height(), qPrintable(QStringLiteral("%1 ends at y = %2").arg(QLatin1String(name)).arg(at.y())));
        }
        saveShot(&page, QStringLiteral("learn_costs_1366.png"));
        page.setProject(nullptr);
        QVERIFY(child<QLabel>(&page, QStringLiteral("curveSource"))
                    ->text()
                    .contains(QStringLiteral("no measured curve")));
    }

    void firstViewShowsTheMethodsSettingAndTheSweepCaption() {
        // The reference study's setting, as its text states it: "8 个 expert,262144 个 token,
        // Top-2 路由", capacity factor 1.12.
        const int docExperts = 8, docTopK = 2;
        gui::RoutingLabPage page;
        page.resize(1366, 768);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCoreApplication::processEvents();
        auto* scroll = page.findChild<QScrollArea*>();
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->value(), 0);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        auto inView = [&](QWidget* w) {
            const QRect r(w->mapTo(scroll->viewport(), QPoint(0, 0)), w->size());
            return w->isVisible() && scroll->viewport()->rect().contains(r);
        };
        // First screen: the setting spelled out, the controls on it, and why skew matters.
        auto* method = child<QLabel>(&page, QStringLiteral("methodSetting"));
        QVERIFY2(inView(method), "the method's setting is not in the first screen at 1366x768");
        const QString text = method->text();
        QVERIFY2(text.contains(QStringLiteral("<b>%1 experts, top-%2</b>").arg(docExperts).arg(docTopK)),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("262,144 tokens")));
        QVERIFY(text.contains(QStringLiteral("capacity factor 1.12")));
        QVERIFY(text.contains(QStringLiteral("skewed")));
        QVERIFY(text.contains(QStringLiteral("MaxVio")));
        auto* experts = child<QSpinBox>(&page, QStringLiteral("experts"));
        auto* topK = child<QSpinBox>(&page, QStringLiteral("topK"));
        QCOMPARE(experts->value(), docExperts);
        QCOMPARE(topK->value(), docTopK);
        QVERIFY(inView(experts) && inView(topK));
        QCOMPARE(child<QComboBox>(&page, QStringLiteral("scoreMode"))->currentData().toString(),
                 QStringLiteral("uniform"));
        saveShot(&page, QStringLiteral("learn_routing_1366.png"));

        // The sweep's caption: below the plot, whole, and shown with the plot in one screen.
        auto* caption = child<QLabel>(&page, QStringLiteral("sweepCaption"));
        auto* plot = child<plots::PlotView>(&page, QStringLiteral("plot.sweepMaxVio"));
        QVERIFY(caption->text().contains(QStringLiteral("What it shows")));
        QVERIFY(caption->text().contains(QStringLiteral("about 1.1 at E = 256")));
        // One bias step u = 0.001 against the top-K band of sigmoid(uniform [0,1)) affinities:
        // the band holds K/E of the probability with density 1/sigmoid'(1) at its edge.
        const double sig1 = 1.0 / (1.0 + std::exp(-1.0));
        const long share = std::lround(100.0 * 0.001 * 256.0 / (docTopK * sig1 * (1.0 - sig1)));
        QCOMPARE(share, 65L);
        QVERIFY2(caption->text().contains(QStringLiteral("by about %1 %").arg(share)),
                 qPrintable(caption->text()));
        QVERIFY(caption->mapTo(&page, QPoint(0, 0)).y() >= plot->mapTo(&page, QPoint(0, plot->height())).y());
        scroll->ensureWidgetVisible(caption, 0, 0);
        QCoreApplication::processEvents();
        QVERIFY2(inView(caption), "the caption is cut off at 1366x768");
        QVERIFY2(inView(plot), "the sweep plot and its caption do not fit one screen at 1366x768");
        saveShot(&page, QStringLiteral("learn_routing_1366_sweep.png"));
        page.resize(1920, 1080);
        QCoreApplication::processEvents();
        scroll->verticalScrollBar()->setValue(0);
        QCoreApplication::processEvents();
        QVERIFY(inView(method));
        saveShot(&page, QStringLiteral("learn_routing_1920.png"));
    }

    void seedSettingRunsTheThreeRouters() {
        gui::RoutingLabPage page;
        page.resize(1500, 1900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        // Somewhere else first, so that the button must set the seed's values.
        child<QSpinBox>(&page, QStringLiteral("experts"))->setValue(16);
        child<QSpinBox>(&page, QStringLiteral("tokens"))->setValue(1000);
        QTest::mouseClick(child<QPushButton>(&page, QStringLiteral("seedSettingButton")), Qt::LeftButton);
        QVERIFY(
            !child<QPushButton>(&page, QStringLiteral("runButton"))->isEnabled()); // runs off the GUI thread
        auto* status = child<QLabel>(&page, QStringLiteral("status"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text() == QStringLiteral("Done."), 120000);

        const routing::RoutingRun core = routing::runRouting(routing::RoutingSetup{});
        auto* table = child<QTableWidget>(&page, QStringLiteral("resultsTable"));
        QCOMPARE(table->rowCount(), 3);
        const QStringList tokens{QStringLiteral("topk"), QStringLiteral("expert-choice"),
                                 QStringLiteral("sigmoid-bias")};
        for (int r = 0; r < 3; ++r) {
            const auto& want = core.results[r];
            QCOMPARE(table->item(r, 0)->data(Qt::UserRole).toString(), tokens[r]);
            QCOMPARE(table->item(r, 1)->data(Qt::UserRole).toDouble(), want.maxVio);
            QCOMPARE(table->item(r, 1)->text(), QString::number(want.maxVio, 'f', 4));
            QCOMPARE(table->item(r, 2)->text(), QString::number(want.droppedAssignments));
            QCOMPARE(table->item(r, 3)->text(), QString::number(want.tokensWithoutExpert));
            QCOMPARE(table->item(r, 4)->data(Qt::UserRole).toDouble(), want.entropyBits);
        }
        // Expert-Choice leaves tokens with no expert at the seed's setting (docs/routing.md).
        QVERIFY(core.results[1].tokensWithoutExpert > 0);
        QCOMPARE(child<QTableWidget>(&page, QStringLiteral("seedTable"))->rowCount(), 6);
        QVERIFY(child<QLabel>(&page, QStringLiteral("explanation"))
                    ->text()
                    .contains(QStringLiteral("fractional")));

        const plots::PlotSpec loads = child<plots::PlotView>(&page, QStringLiteral("plot.loads"))->spec();
        QVERIFY(loads.series.size() >= 3);
        for (int r = 0; r < 3; ++r) {
            QCOMPARE(loads.series[r].name,
                     QStringList({QStringLiteral("Top-K"), QStringLiteral("Expert-Choice"),
                                  QStringLiteral("Sigmoid + bias")})[r]);
            QCOMPARE(loads.series[r].y.size(), 8);
            for (int e = 0; e < 8; ++e) {
                QCOMPARE(loads.series[r].y[e], double(core.results[r].loads[std::size_t(e)]));
                QCOMPARE(loads.series[r].x[e], double(e * 4 + r)); // grouped per expert
            }
        }
        const plots::PlotSpec bias = child<plots::PlotView>(&page, QStringLiteral("plot.biasMaxVio"))->spec();
        QCOMPARE(bias.series.size(), 2);
        QCOMPARE(bias.series[0].y.size(), 512);
        QCOMPARE(bias.series[0].y.first(), core.results[2].maxVioPerIteration.front());
        QCOMPARE(bias.series[1].y.size(), 512 / 16); // the mean over each pass

        // The sweep, at a small T to keep the test short.
        child<QSpinBox>(&page, QStringLiteral("tokens"))->setValue(4096);
        QTest::mouseClick(child<QPushButton>(&page, QStringLiteral("sweepButton")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(QStringLiteral("Sweep done")), 120000);
        const plots::PlotSpec sweep =
            child<plots::PlotView>(&page, QStringLiteral("plot.sweepMaxVio"))->spec();
        QCOMPARE(sweep.series.size(), 3);
        QCOMPARE(sweep.series[0].x, (QVector<double>{4, 8, 16, 32, 64, 128, 256}));
        routing::RoutingSetup small;
        small.tokens = 4096;
        const auto coreSweep = routing::sweepExperts(small);
        for (int i = 0; i < 7; ++i)
            QCOMPARE(sweep.series[0].y[i], coreSweep[i].results[0].maxVio);
        QVERIFY(specHasData(child<plots::PlotView>(&page, QStringLiteral("plot.sweepDropped"))->spec()));
        // The caption names this sweep's MaxVio at its largest E.
        QVERIFY(child<QLabel>(&page, QStringLiteral("sweepCaption"))
                    ->text()
                    .contains(QStringLiteral("This sweep at E = 256: MaxVio Top-K %1, Expert-Choice %2, "
                                             "Sigmoid + bias %3.")
                                  .arg(QString::number(coreSweep[6].results[0].maxVio, 'f', 3),
                                       QString::number(coreSweep[6].results[1].maxVio, 'f', 3),
                                       QString::number(coreSweep[6].results[2].maxVio, 'f', 3))));
        // The table still shows the seed-setting run.
        QCOMPARE(table->item(0, 1)->data(Qt::UserRole).toDouble(), core.results[0].maxVio);
        saveShot(&page, QStringLiteral("learn_routing.png"));
    }

    void cancelStopsARun() {
        gui::RoutingLabPage page;
        page.resize(1200, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* run = child<QPushButton>(&page, QStringLiteral("runButton"));
        auto* cancel = child<QPushButton>(&page, QStringLiteral("cancelButton"));
        QVERIFY(!cancel->isEnabled());
        child<QSpinBox>(&page, QStringLiteral("biasIterations"))->setValue(100000); // long enough to cancel
        QTest::mouseClick(run, Qt::LeftButton);
        QVERIFY(cancel->isEnabled());
        QTest::qWait(50);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(run->isEnabled(), 20000);
        QVERIFY(
            child<QLabel>(&page, QStringLiteral("status"))->text().startsWith(QStringLiteral("Cancelled")));
        QCOMPARE(child<QTableWidget>(&page, QStringLiteral("resultsTable"))->rowCount(), 0);
        QVERIFY(!cancel->isEnabled());
    }

    void closingWhileRunningWaitsForTheWorker() {
        auto* page = new gui::RoutingLabPage;
        child<QSpinBox>(page, QStringLiteral("biasIterations"))->setValue(100000);
        QTest::mouseClick(child<QPushButton>(page, QStringLiteral("runButton")), Qt::LeftButton);
        QTest::qWait(20);
        delete page; // cancels and joins; a crash or a hang fails the test
    }
};

QTEST_MAIN(TestLearnPages)
#include "test_learn_pages.moc"
