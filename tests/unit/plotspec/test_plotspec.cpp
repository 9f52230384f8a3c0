// Plot specs built from the real gates' results: series, units, values, CSV,
// smoothing, heatmap pooling.
#include "PlotFixtures.h"
#include "plotspec/Palette.h"
#include "plotspec/PlotCsv.h"
#include "plotspec/Smoothing.h"
#include "plotspec/StagePlots.h"

#include <QtTest>

#include <cmath>

using namespace moewb::plots;
using namespace moewb::plots::test;

namespace {

const Series* seriesNamed(const PlotSpec& spec, const QString& name)
{
    for (const Series& s : spec.series)
        if (s.name == name)
            return &s;
    return nullptr;
}

QStringList csvLines(const QString& csv)
{
    QStringList lines = csv.split(QStringLiteral("\r\n"));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

double luminance(quint32 rgb)
{
    return 0.2126 * ((rgb >> 16) & 0xFF) + 0.7152 * ((rgb >> 8) & 0xFF) + 0.0722 * (rgb & 0xFF);
}

} // namespace

class TestPlotSpec : public QObject {
    Q_OBJECT
private slots:
    void palette()
    {
        QCOMPARE(paletteColour(0), quint32(0x0072B2));
        QCOMPARE(paletteColour(1), quint32(0xE69F00));
        QCOMPARE(paletteColour(7), paletteColour(0)); // cycles, black reserved
        QCOMPARE(paletteColour(-1), quint32(0x000000));
        QSet<quint32> distinct;
        for (int i = 0; i < 7; ++i)
            distinct.insert(paletteColour(i));
        QCOMPARE(distinct.size(), 7);
        const QVector<quint32> stops = sequentialStops();
        QVERIFY(stops.size() >= 5);
        for (int i = 1; i < stops.size(); ++i)
            QVERIFY2(luminance(stops[i]) > luminance(stops[i - 1]), "lightness must rise monotonically");
        QCOMPARE(sequentialColour(0.0), stops.first());
        QCOMPARE(sequentialColour(1.0), stops.last());
        QCOMPARE(sequentialColour(2.0), stops.last());
    }

    void debiasedEmaByHand()
    {
        // s = 0.5 over 1, 2, 3:
        //   ema 0.5 / (1−0.5) = 1;  ema 1.25 / 0.75 = 1.6667;  ema 2.125 / 0.875 = 2.428571
        const QVector<double> out = debiasedEma({1, 2, 3}, 0.5);
        QCOMPARE(out.size(), 3);
        QVERIFY(std::fabs(out[0] - 1.0) < 1e-12);
        QVERIFY(std::fabs(out[1] - 1.25 / 0.75) < 1e-12);
        QVERIFY(std::fabs(out[2] - 2.125 / 0.875) < 1e-12);
        // 0 = raw.
        QCOMPARE(debiasedEma({5, 1, 7}, 0.0), (QVector<double>{5, 1, 7}));
        // NaN passes through and does not enter the average: 1, NaN, (0.25 + 1.5) / 0.75.
        const QVector<double> withNan = debiasedEma({1, std::nan(""), 3}, 0.5);
        QVERIFY(std::isnan(withNan[1]));
        QVERIFY(std::fabs(withNan[2] - 1.75 / 0.75) < 1e-12);
        // A constant stays constant (debiasing removes the pull towards 0).
        for (double v : debiasedEma(QVector<double>(50, 2.5), 0.9))
            QVERIFY(std::fabs(v - 2.5) < 1e-12);
    }

    void stageOneBandwidth()
    {
        const StageOneResult result = stageOneResult();
        QCOMPARE(result.tables.size(), 2);
        const QList<PlotSpec> plots = stageOnePlots(result);
        QCOMPARE(plots.size(), 2);
        const PlotSpec& bw = plots[0];
        QCOMPARE(bw.id, QStringLiteral("stage1-bandwidth"));
        QCOMPARE(bw.x.scale, AxisScale::Log2Bytes);
        QCOMPARE(bw.x.unit, AxisUnit::Bytes);
        QCOMPARE(bw.y.unit, AxisUnit::BytesPerSec);
        QCOMPARE(bw.series.size(), 2);
        const Series* a = seriesNamed(bw, QStringLiteral("2 nodes · a2"));
        const Series* b = seriesNamed(bw, QStringLiteral("4 nodes · b4 (algbw)"));
        QVERIFY(a && b);
        QVERIFY(a->colour != b->colour); // one colour per run
        QCOMPARE(a->run, QStringLiteral("a2"));
        // Values are the table's: effective for a2, algbw for b4 (world unknown).
        const StageOneTable& ta = result.tables[0].runName == QLatin1String("a2") ? result.tables[0] : result.tables[1];
        const StageOneTable& tb = result.tables[0].runName == QLatin1String("a2") ? result.tables[1] : result.tables[0];
        QCOMPARE(a->x.size(), ta.rows.size());
        for (int i = 0; i < ta.rows.size(); ++i) {
            QCOMPARE(a->x[i], double(ta.rows[i].bytesPerRank));
            QCOMPARE(a->y[i], *ta.rows[i].effectiveBandwidth);
            QCOMPARE(b->y[i], tb.rows[i].algBandwidth);
        }
        QVERIFY(bw.note.contains(QStringLiteral("b4")));
        QVERIFY(bw.note.contains(QStringLiteral("algbw")));
        QCOMPARE(axisTitle(bw.y), QStringLiteral("Effective bandwidth (GB/s)"));
    }

    void stageOneLatency()
    {
        const PlotSpec lat = stageOnePlots(stageOneResult())[1];
        QCOMPARE(lat.id, QStringLiteral("stage1-latency"));
        QCOMPARE(lat.y.unit, AxisUnit::Microseconds);
        QCOMPARE(lat.series.size(), 4);
        const Series* med = seriesNamed(lat, QStringLiteral("2 nodes · a2 · median"));
        const Series* p99 = seriesNamed(lat, QStringLiteral("2 nodes · a2 · P99"));
        QVERIFY(med && p99);
        QCOMPARE(med->style, SeriesStyle::Line);
        QCOMPARE(p99->style, SeriesStyle::DashedLine);
        QCOMPARE(med->colour, p99->colour);
        for (int i = 0; i < med->y.size(); ++i)
            QVERIFY(p99->y[i] >= med->y[i]);
    }

    void csvColumnNamesIndependentOfLanguage()
    {
        // A translated label keeps its English key: exported CSV headers do not change with
        // the UI language. An axis without a key keeps its (translated) words.
        const Axis zh{QStringLiteral("有效带宽"), AxisScale::Linear, AxisUnit::BytesPerSec,
                      QStringLiteral("Effective bandwidth")};
        QCOMPARE(csvColumnName(zh), QStringLiteral("effective_bandwidth_bytes_per_s"));
        const Axis noKey{QStringLiteral("参数量"), AxisScale::Linear, AxisUnit::None, {}};
        QCOMPARE(csvColumnName(noKey), QStringLiteral("参数量"));
        for (const PlotSpec& spec : stageOnePlots(stageOneResult())) {
            QVERIFY2(!spec.x.key.isEmpty() && !spec.y.key.isEmpty(), qPrintable(spec.title));
            QCOMPARE(spec.x.key, spec.x.label); // untranslated here: the key is the English label
        }
    }

    void csvLongFormat()
    {
        const PlotSpec bw = stageOnePlots(stageOneResult())[0];
        const QStringList lines = csvLines(toCsv(bw));
        QCOMPARE(lines.first(), QStringLiteral("series,run,message_size_per_rank_bytes,effective_bandwidth_bytes_per_s"));
        QCOMPARE(lines.size(), 1 + bw.series[0].x.size() + bw.series[1].x.size());
        const QStringList first = lines[1].split(QLatin1Char(','));
        QCOMPARE(first.size(), 4);
        QCOMPARE(first[1], bw.series[0].run);
        QCOMPARE(first[2], QStringLiteral("1024"));
        QCOMPARE(first[3].toDouble(), bw.series[0].y[0]); // full precision: round-trips exactly
        QVERIFY(toCsv(bw).endsWith(QStringLiteral("\r\n")));
    }

    void csvQuotingAndNumbers()
    {
        PlotSpec spec;
        spec.x = {QStringLiteral("Step"), AxisScale::Linear, AxisUnit::Steps, {}};
        spec.y = {QStringLiteral("Loss"), AxisScale::Linear, AxisUnit::Loss, {}};
        Series s;
        s.name = QStringLiteral("run \"a\", smoothed");
        s.run = QStringLiteral("a\nb");
        s.x = {1, 2};
        s.y = {0.1, 1e-300};
        spec.series << s;
        const QString csv = toCsv(spec);
        QVERIFY2(csv.startsWith(QStringLiteral("series,run,step,loss\r\n")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("\"run \"\"a\"\", smoothed\",\"a\nb\",1,0.1\r\n")), qPrintable(csv));
        QVERIFY(csv.contains(QStringLiteral(",2,1e-300\r\n")));
        QCOMPARE(csvNumber(0.1), QStringLiteral("0.1"));
        QCOMPARE(csvNumber(1.0 / 3.0).toDouble(), 1.0 / 3.0);
        QCOMPARE(csvNumber(std::nan("")), QStringLiteral("nan"));
    }

    void stageTwoLoss()
    {
        const QList<TrainingRunInput> runs = trainingRuns();
        const PlotSpec spec = stageTwoLossPlot(runs, TrainingX::Steps, 0.6);
        QCOMPARE(spec.id, QStringLiteral("stage2-loss"));
        QCOMPARE(spec.x.unit, AxisUnit::Steps);
        QCOMPARE(spec.series.size(), 6); // per run: raw, smoothed, val
        const Series* raw = seriesNamed(spec, QStringLiteral("moe · lm_loss (raw)"));
        const Series* smooth = seriesNamed(spec, QStringLiteral("moe · lm_loss"));
        const Series* val = seriesNamed(spec, QStringLiteral("moe · val_loss"));
        QVERIFY(raw && smooth && val);
        QCOMPARE(raw->style, SeriesStyle::FaintLine);
        QCOMPARE(smooth->style, SeriesStyle::Line);
        QCOMPARE(val->style, SeriesStyle::DashedLine);
        QCOMPARE(raw->colour, smooth->colour);
        QCOMPARE(val->colour, smooth->colour);
        QCOMPARE(raw->x.size(), 200);
        QCOMPARE(val->x, (QVector<double>{50, 100, 150, 200}));
        QCOMPARE(smooth->y, debiasedEma(raw->y, 0.6));
        QVERIFY(smooth->y != raw->y);
        QVERIFY(spec.note.contains(QStringLiteral("0.6")));

        // Over tokens: x is tokensAtStep.
        const PlotSpec byTokens = stageTwoLossPlot(runs, TrainingX::Tokens, 0.0);
        QCOMPARE(byTokens.x.unit, AxisUnit::Tokens);
        QCOMPARE(byTokens.series.size(), 4); // smoothing 0: no separate raw curve
        const Series* t = seriesNamed(byTokens, QStringLiteral("moe · lm_loss"));
        QVERIFY(t);
        QCOMPARE(t->x[9], tokensAtStep(runs[0], 10));
        QVERIFY(t->x[9] > 10.0);
    }

    void stageTwoThroughput()
    {
        const QList<TrainingRunInput> runs = trainingRuns();
        const PlotSpec spec = stageTwoThroughputPlot(runs);
        QCOMPARE(spec.categoryLabels, (QStringList{QStringLiteral("moe"), QStringLiteral("dense")}));
        QCOMPARE(spec.series.size(), 2);
        QCOMPARE(spec.series[0].style, SeriesStyle::Bars);
        QCOMPARE(spec.series[1].x, (QVector<double>{1}));
        QCOMPARE(spec.series[1].y[0], *steadyThroughput(runs[1]).tokensPerSecondPerGpu);
        QCOMPARE(spec.y.unit, AxisUnit::TokensPerSec);
        QVERIFY(spec.note.contains(QStringLiteral("warm-up")));
        const QStringList lines = csvLines(toCsv(spec));
        QCOMPARE(lines.first(), QStringLiteral("series,run,category,throughput_per_gpu_tokens_per_s"));
        QVERIFY(lines[2].startsWith(QStringLiteral("dense,dense,dense,")));
    }

    void layerExpertHeatmapValues()
    {
        const ExpertLoadRunInput run = expertRun(QStringLiteral("moe"), 10, 5);
        const PlotSpec tokens = layerExpertHeatmap(run, 5, false);
        QVERIFY(tokens.heatmap);
        const Heatmap& h = *tokens.heatmap;
        QCOMPARE(h.rows, 2);
        QCOMPARE(h.columns, 4);
        QCOMPARE(h.values[1 * 4 + 3], 250.0); // layer 1, expert 3
        QCOMPARE(h.colourLabel, QStringLiteral("tokens"));
        const PlotSpec rel = layerExpertHeatmap(run, 5, true);
        QCOMPARE(rel.heatmap->values[1 * 4 + 3], 2.5); // 250 / mean 100
        QCOMPARE(rel.heatmap->values[0], 1.0);
        QCOMPARE(rel.heatmap->colourLabel, QStringLiteral("× mean"));
        const QStringList lines = csvLines(toCsv(rel));
        QCOMPARE(lines.first(), QStringLiteral("row,column,layer,expert,x_mean"));
        QCOMPARE(lines.size(), 1 + 8);
        QCOMPARE(lines[8], QStringLiteral("1,3,1,3,2.5"));
        QVERIFY(!layerExpertHeatmap(run, 999, false).heatmap);
        QVERIFY(isEmpty(layerExpertHeatmap(run, 999, false)));
    }

    void expertStepHeatmapPools()
    {
        // 5,000 steps > 2,000 columns: max-pooled, the spike at step 2,501 survives.
        const ExpertLoadRunInput run = expertRun(QStringLiteral("moe"), 5000, 2501);
        const PlotSpec spec = expertStepHeatmap(run, 1, false);
        QVERIFY(spec.heatmap);
        const Heatmap& h = *spec.heatmap;
        QCOMPARE(h.columns, maxHeatmapColumns);
        QCOMPARE(h.rows, 4);
        QCOMPARE(h.xFirst, 1.0);
        QCOMPARE(h.xLast, 5000.0);
        // Step index 2500 lies in column 2500 * 2000 / 5000 = 1000.
        QCOMPARE(h.values[3 * h.columns + 1000], 250.0);
        QCOMPARE(h.values[3 * h.columns + 999], 100.0);
        QCOMPARE(h.values[0 * h.columns + 1000], 90.0); // max of 90 and 50
        QVERIFY(spec.note.contains(QStringLiteral("max-pooled")));
        QVERIFY(spec.note.contains(QStringLiteral("5000")));
        // Few steps: one column per step, no pooling note.
        const PlotSpec few = expertStepHeatmap(expertRun(QStringLiteral("moe"), 30, 3), 1, true);
        QCOMPARE(few.heatmap->columns, 30);
        QCOMPARE(few.heatmap->values[3 * 30 + 2], 2.5);
        QVERIFY(!few.note.contains(QStringLiteral("max-pooled")));
    }

    void stageThreeSummaries()
    {
        ExpertLoadRunInput drop = expertRun(QStringLiteral("drop"), 50, 10);
        moewb::record::ConfigRecord dropless = moeRecord();
        dropless.moe.overflowPolicy = moewb::record::OverflowPolicy::Dropless;
        dropless.moe.capacityFactor = moewb::record::CapacityFactor::none();
        ExpertLoadRunInput free = expertRun(QStringLiteral("free"), 50, 10, dropless);
        const ThresholdSet thresholds = teamThresholds({{QStringLiteral("stage3.window_steps"), 20}});
        const QList<StageThreeRunSummary> runs{summarizeStageThreeRun(drop, thresholds),
                                               summarizeStageThreeRun(free, thresholds)};

        const PlotSpec ratio = loadRatioPlot(runs, 1.5);
        QCOMPARE(ratio.series.size(), 3);
        QCOMPARE(ratio.series[0].x.size(), 50);
        QCOMPARE(ratio.series[0].y[9], runs[0].ratioOverSteps[9].maxRatio);
        QCOMPARE(ratio.series[0].y[9], 2.5);
        QCOMPARE(ratio.series[2].y, (QVector<double>{1.5, 1.5}));
        QCOMPARE(ratio.series[2].x, (QVector<double>{1, 50}));
        QCOMPARE(ratio.y.unit, AxisUnit::Ratio);

        const PlotSpec scatter = dropVsLossPlot(runs, {drop, free});
        QCOMPARE(scatter.series.size(), 1);
        const Series& s = scatter.series[0];
        QCOMPARE(s.style, SeriesStyle::Scatter);
        QCOMPARE(s.pointLabels, (QStringList{QStringLiteral("drop"), QStringLiteral("free")}));
        QVERIFY(std::fabs(s.x[0] - 0.02) < 1e-12);
        QCOMPARE(s.x[1], 0.0);
        QCOMPARE(s.y[0], *runs[0].windowLoss);
        QCOMPARE(s.colourValues, (QVector<double>{1.25, 0.0}));
        QCOMPARE(scatter.x.unit, AxisUnit::Fraction);
        QVERIFY(scatter.note.contains(QStringLiteral("Dropless")));
        QVERIFY(scatter.note.contains(QStringLiteral("free")));
        QVERIFY(toCsv(scatter).startsWith(QStringLiteral("series,run,drop_rate_fraction,window_loss,label,colour_value\r\n")));

        const PlotSpec busy = busiestDevicePlot(runs);
        QCOMPARE(busy.series.size(), 2);
        QVERIFY(std::fabs(busy.series[0].y[0] - 0.2) < 1e-12);
        QVERIFY(!runs[0].busiestDeviceEstimated);
        QVERIFY2(busy.note.contains(QStringLiteral("1/8 = 12.5 %")), qPrintable(busy.note));
        QCOMPARE(busy.y.unit, AxisUnit::Fraction);
    }

    void stageFour()
    {
        const StageFourResult r = evaluateStageFour(baseline(QStringLiteral("src"), 1.0),
                                                    baseline(QStringLiteral("dst"), 1.25),
                                                    teamThresholds({{QStringLiteral("stage4.baseline_diff_max"), 0.3}}));
        const QList<PlotSpec> plots = stageFourPlots(r);
        QCOMPARE(plots.size(), 2);
        const PlotSpec& base = plots[0];
        QCOMPARE(base.id, QStringLiteral("stage4-baselines"));
        QCOMPARE(base.series.size(), 2);
        QCOMPARE(base.series[0].x.size(), r.rows.size());
        QCOMPARE(base.series[1].y[0], r.rows[0].targetBandwidth);
        const PlotSpec& ratio = plots[1];
        QCOMPARE(ratio.y.unit, AxisUnit::Ratio);
        QVERIFY(std::fabs(ratio.series[0].y[0] - 0.8) < 1e-12); // 1 / 1.25
        QCOMPARE(ratio.series.size(), 3); // ratio and the two band edges
        QCOMPARE(ratio.series[1].y[0], 0.7);
        QCOMPARE(ratio.series[2].y[0], 1.3);
        QVERIFY2(ratio.note.contains(QStringLiteral("0.7 to 1.3")), qPrintable(ratio.note));
    }

    void formatting()
    {
        QCOMPARE(formatBytes(1024), QStringLiteral("1 KiB"));
        QCOMPARE(formatBytes(3 << 20), QStringLiteral("3 MiB"));
        QCOMPARE(formatBytes(512), QStringLiteral("512 B"));
        const Axis bw{QString(), AxisScale::Linear, AxisUnit::BytesPerSec, {}};
        QCOMPARE(formatValue(12.3456e9, bw), QStringLiteral("12.35 GB/s"));
        const Axis us{QString(), AxisScale::Linear, AxisUnit::Microseconds, {}};
        QCOMPARE(formatValue(850, us), QStringLiteral("850 µs"));
        QCOMPARE(formatValue(3200, us), QStringLiteral("3.2 ms"));
        QCOMPARE(formatCount(1500), QStringLiteral("1.5K"));
        QCOMPARE(formatCount(2.5e9), QStringLiteral("2.5B"));
        const Axis frac{QString(), AxisScale::Linear, AxisUnit::Fraction, {}};
        QCOMPARE(formatValue(0.125, frac), QStringLiteral("12.5 %"));
        QVERIFY(isEmpty(PlotSpec{}));
    }
};

QTEST_GUILESS_MAIN(TestPlotSpec)
#include "test_plotspec.moc"
