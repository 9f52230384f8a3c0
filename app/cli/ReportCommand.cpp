// moewb report -o FILE.pdf: the whole evaluation as a PDF, headless. main.cpp
// creates a QApplication on the offscreen platform for this command (the plots are
// drawn through QCustomPlot); no display is needed.
#include "CliContext.h"
#include "CliTr.h"
#include "Command.h"
#include "report/ReportWriter.h"

#include <QApplication>
#include <QFileInfo>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <cstring>
#include <memory>

namespace moewb::cli {

namespace {

int runReport(CliContext& ctx, const Command& self, const QStringList& args) {
    QCommandLineParser parser;
    const QCommandLineOption outOption(QStringList{QStringLiteral("o"), QStringLiteral("output")},
                                       Cli::tr("the PDF to write (replaced only when the report is complete)"),
                                       QStringLiteral("FILE.pdf"));
    const QCommandLineOption noPlots(QStringLiteral("no-plots"),
                                     Cli::tr("leave a framed placeholder where each plot goes (faster)"));
    parser.addOption(outOption);
    parser.addOption(noPlots);
    int code = Success;
    if (!ctx.parse(parser, self, args, &code))
        return code;
    if (!parser.positionalArguments().isEmpty())
        return ctx.usageError(Cli::tr("takes no arguments besides -o FILE.pdf"), QStringLiteral("report"));
    const QString out = parser.value(outOption);
    if (out.trimmed().isEmpty())
        return ctx.usageError(Cli::tr("needs the PDF to write: -o FILE.pdf"), QStringLiteral("report"));
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return ctx.runtimeError(Cli::tr("report: no QApplication (internal error)"));
    store::ProjectStore* project = ctx.project();
    if (!project)
        return RuntimeFailure;

    report::ReportOptions options;
    options.includePlots = !parser.isSet(noPlots);
    QString lastStep, lastWhat;
    int lastTenth = -1;
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    const auto written = report::writeReport(project->path(), out, options, [&](double fraction, const QString& what) {
        // Progress on stderr, one line per step; a step that only counts on ("Page 3 of 23") is
        // printed once per tenth. Told apart by the text without its numbers, in any language.
        const QString step = QString(what).remove(digits);
        const int tenth = int(std::floor(fraction * 10));
        const bool newStep = step != lastStep;
        const bool countedOn = !newStep && what != lastWhat && tenth != lastTenth;
        lastStep = step;
        lastWhat = what;
        if (newStep || countedOn) {
            lastTenth = tenth;
            ctx.err() << Cli::tr("report: %1 % %2").arg(int(std::round(fraction * 100)), 3).arg(what) << Qt::endl;
        }
        return true;
    });
    if (!written)
        return ctx.runtimeError(written.error().text());
    const QString path = QFileInfo(out).absoluteFilePath();
    if (ctx.json)
        ctx.printJson({{QStringLiteral("report"), path}, {QStringLiteral("project"), project->path()}});
    else
        ctx.out() << Cli::tr("Wrote %1").arg(path) << Qt::endl;
    return Success;
}

} // namespace

bool wantsReportApplication(int argc, char** argv) {
    // The first word that is not a global option (or --project's value).
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--project") == 0) {
            ++i;
            continue;
        }
        if (argv[i][0] == '-')
            continue;
        // `reference --report FILE.pdf` writes the report too.
        return std::strcmp(argv[i], "report") == 0 || std::strcmp(argv[i], "reference") == 0;
    }
    return false;
}

std::unique_ptr<QCoreApplication> makeReportApplication(int& argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QApplication>(argc, argv);
}

QList<Command> reportCommands() {
    Command report;
    report.words = {QStringLiteral("report")};
    report.synopsis = QStringLiteral("-o FILE.pdf [--no-plots]");
    report.summary = Cli::tr("the evaluation report as a PDF (needs no display)");
    report.run = [report](CliContext& ctx, const QStringList& a) { return runReport(ctx, report, a); };
    return {report};
}

} // namespace moewb::cli
