// How long the demo project's report takes to export, against the named baseline
// "text-only": the same pages (same layout, same tables and text, a frame where
// each plot goes) without drawing the plots, measured in the same run. The target:
// the full report in under 3 s. With --project FILE, that project's report instead
// of the demo's (a run at DeepSeek-V3 size from tests/bench/importers/
// bench_import_e2e.sh --keep): target under 5 s.
//
//   bench_report [--repeat N] [--keep DIR] [--project FILE]
#include "demo/DemoProject.h"
#include "report/ReportWriter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

using namespace moewb;

namespace {

struct Timing {
    double collectS = 0; // reading the project and evaluating the stages
    double paintS = 0;   // two layout passes and painting
    qint64 bytes = 0;
    int pages = 0;
};

Timing exportOnce(const QString& project, const QString& pdf, bool plots) {
    Timing t;
    QElapsedTimer clock;
    clock.start();
    auto data = report::collectReportData(project);
    t.collectS = clock.nsecsElapsed() / 1e9;
    if (!data) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(data.error().text()));
        std::exit(3);
    }
    clock.restart();
    report::ReportOptions options;
    options.includePlots = plots;
    auto painted = report::paintReport(*data, pdf, options);
    t.paintS = clock.nsecsElapsed() / 1e9;
    if (!painted) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(painted.error().text()));
        std::exit(3);
    }
    t.pages = *painted;
    t.bytes = QFileInfo(pdf).size();
    return t;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int repeat = 5;
    QString keep, given;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--repeat") && i + 1 < args.size())
            repeat = std::max(1, args[++i].toInt());
        else if (args[i] == QLatin1String("--keep") && i + 1 < args.size())
            keep = args[++i];
        else if (args[i] == QLatin1String("--project") && i + 1 < args.size())
            given = args[++i];
    }
    QTemporaryDir dir;
    const QString folder = keep.isEmpty() ? dir.path() : keep;
    const QString project = given.isEmpty() ? folder + QStringLiteral("/demo.moewb") : given;
    demo::DemoOptions demoOptions;
    demoOptions.overwrite = true;
    if (!given.isEmpty()) {
    } else if (auto w = demo::writeDemoProject(project, demoOptions); !w) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(w.error().text()));
        return 3;
    }

    // One warm-up of each (fonts, QCustomPlot), then the best and the median of N.
    exportOnce(project, folder + QStringLiteral("/full.pdf"), true);
    exportOnce(project, folder + QStringLiteral("/text.pdf"), false);
    QList<double> full, text;
    Timing lastFull, lastText;
    for (int i = 0; i < repeat; ++i) {
        lastFull = exportOnce(project, folder + QStringLiteral("/full.pdf"), true);
        full << lastFull.collectS + lastFull.paintS;
        lastText = exportOnce(project, folder + QStringLiteral("/text.pdf"), false);
        text << lastText.collectS + lastText.paintS;
    }
    std::sort(full.begin(), full.end());
    std::sort(text.begin(), text.end());
    const double fullMedian = full[full.size() / 2], textMedian = text[text.size() / 2];

    QTextStream out(stdout);
    const double target = given.isEmpty() ? 3.0 : 5.0;
    out << (given.isEmpty() ? QStringLiteral("demo project") : given) << " report, " << repeat << " runs each (median, best):\n";
    out << QStringLiteral("full report (vector plots):  %1 s, best %2 s; %3 pages, %4 KiB "
                          "(read+evaluate %5 s, layout+paint %6 s)\n")
               .arg(fullMedian, 0, 'f', 3)
               .arg(full.first(), 0, 'f', 3)
               .arg(lastFull.pages)
               .arg(lastFull.bytes / 1024)
               .arg(lastFull.collectS, 0, 'f', 3)
               .arg(lastFull.paintS, 0, 'f', 3);
    out << QStringLiteral("baseline text-only:          %1 s, best %2 s; %3 pages, %4 KiB\n")
               .arg(textMedian, 0, 'f', 3)
               .arg(text.first(), 0, 'f', 3)
               .arg(lastText.pages)
               .arg(lastText.bytes / 1024);
    out << QStringLiteral("full vs text-only: %1x the time; target < %2 s: %3\n")
               .arg(fullMedian / textMedian, 0, 'f', 2)
               .arg(target)
               .arg(fullMedian < target ? QStringLiteral("met") : QStringLiteral("MISSED"));
    return fullMedian < target ? 0 : 1;
}
