#include "runimport/RunImport.h"

#include "runimport/RunImportTr.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace moewb::runimport {

namespace {

using importers::ImportError;

constexpr int kMaxDepth = 16;
constexpr qsizetype kMaxFiles = 100000;

bool excluded(const QString& name, const QString& shown, const QStringList& patterns) {
    for (const QString& p : patterns) {
        const auto re = QRegularExpression::fromWildcard(p, Qt::CaseSensitive, QRegularExpression::UnanchoredWildcardConversion);
        const auto anchored = QRegularExpression(QRegularExpression::anchoredPattern(re.pattern()));
        if (anchored.match(name).hasMatch() || anchored.match(shown).hasMatch())
            return true;
    }
    return false;
}

// Why a walked file is not read, or empty when it is.
QString skipReason(const QString& name) {
    static const QSet<QString> markers{QStringLiteral("latest_checkpointed_iteration.txt"),
                                       QStringLiteral("latest_train_state.pt"), QStringLiteral("progress.txt")};
    if (markers.contains(name))
        return RunImportTr::tr("a checkpoint or progress marker, not a log");
    if (name.startsWith(QLatin1String("events.out.tfevents.")))
        return {};
    const QString suffix = QFileInfo(name).suffix().toLower();
    static const QSet<QString> logs{QStringLiteral("log"),  QStringLiteral("out"),   QStringLiteral("txt"),
                                    QStringLiteral("csv"),  QStringLiteral("jsonl"), QStringLiteral("json")};
    if (logs.contains(suffix))
        return {};
    if (name.endsWith(QLatin1String(".json.gz"), Qt::CaseInsensitive))
        return {}; // a profiler trace, compressed (torch_profile/rank-0.json.gz)
    return RunImportTr::tr("not a log by its name (.log, .out, .txt, .csv, .jsonl, .json, .json.gz, "
                           "events.out.tfevents.*)");
}

struct Walk {
    const ImportOptions& options;
    CollectedFiles& out;
    QString error;

    void folder(const QString& root, const QString& dir, int depth) {
        if (!error.isEmpty())
            return;
        QDir d(dir);
        const QFileInfoList entries =
            d.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
        for (const QFileInfo& e : entries) {
            const QString shown = QDir(root).relativeFilePath(e.absoluteFilePath());
            const QString name = e.fileName();
            if (name.startsWith(QLatin1Char('.')))
                continue; // hidden: not listed
            if (e.isSymLink()) {
                out.skipped << SkippedFile{shown, RunImportTr::tr("a symbolic link (not followed)")};
                continue;
            }
            if (excluded(name, shown, options.exclude)) {
                out.skipped << SkippedFile{shown, RunImportTr::tr("excluded with --exclude")};
                continue;
            }
            if (e.isDir()) {
                if (name.startsWith(QLatin1String("iter_")) || name == QLatin1String("__pycache__") ||
                    name == QLatin1String("wandb")) {
                    out.skipped << SkippedFile{shown + QLatin1Char('/'),
                                               name == QLatin1String("wandb")
                                                   ? RunImportTr::tr("a W&B local folder (export charts as CSV instead)")
                                                   : RunImportTr::tr("a checkpoint or cache folder")};
                    continue;
                }
                if (depth >= kMaxDepth) {
                    out.skipped << SkippedFile{shown + QLatin1Char('/'),
                                               RunImportTr::tr("deeper than %1 folders").arg(kMaxDepth)};
                    continue;
                }
                folder(root, e.absoluteFilePath(), depth + 1);
                continue;
            }
            if (!e.isFile())
                continue;
            if (const QString why = skipReason(name); !why.isEmpty()) {
                out.skipped << SkippedFile{shown, why};
                continue;
            }
            if (out.files.size() >= kMaxFiles) {
                error = RunImportTr::tr("holds more than %1 files to read; give its subfolders instead").arg(kMaxFiles);
                return;
            }
            out.files << ImportCandidate{e.absoluteFilePath(), QDir(root).dirName() + QLatin1Char('/') + shown, true};
        }
    }
};

} // namespace

Expected<CollectedFiles, ImportError> collectImportFiles(const QStringList& paths, const ImportOptions& options) {
    CollectedFiles out;
    QSet<QString> seen;
    for (const QString& given : paths) {
        const QFileInfo info(given);
        if (!info.exists())
            return unexpected(ImportError{given, 0, {}, RunImportTr::tr("cannot read: no such file or folder"), true});
        if (info.isDir()) {
            if (!info.isReadable())
                return unexpected(ImportError{given, 0, {}, RunImportTr::tr("cannot list the folder"), true});
            Walk walk{options, out, {}};
            walk.folder(info.absoluteFilePath(), info.absoluteFilePath(), 0);
            if (!walk.error.isEmpty())
                return unexpected(ImportError{given, 0, {}, walk.error, true});
            continue;
        }
        out.files << ImportCandidate{info.absoluteFilePath(), given, false};
    }
    QList<ImportCandidate> unique;
    for (const ImportCandidate& c : out.files)
        if (!seen.contains(c.path)) {
            seen.insert(c.path);
            unique << c;
        }
    out.files = unique;
    return out;
}

} // namespace moewb::runimport
