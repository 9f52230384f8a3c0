// ImportDialog, part two: checking the files (the plan, its table, the errors) and
// storing the plan as a run (progress, cancel, the outcome).
#include "ImportDialog.h"

#include "ImportDialogParts.h"
#include "ImportJob.h"

#include "importers/Importer.h"
#include "runimport/FileNotes.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>

#include <utility>

namespace moewb::gui {

// --- checking -----------------------------------------------------------------------

void ImportDialog::invalidatePlan() {
    ++m_generation;
    disposeInBackground(std::exchange(m_plan, {}));
    m_errors.clear();
    if (m_job->isRunning() && !m_storing)
        m_job->cancel(); // its result is dropped: the generation moved on
    m_checkTimer->start();
    updateState();
}

void ImportDialog::check() {
    ++m_generation;
    disposeInBackground(std::exchange(m_plan, {}));
    m_errors.clear();
    startCheck();
}

bool ImportDialog::isChecking() const {
    return (m_job->isRunning() && !m_storing) || m_checkTimer->isActive();
}

void ImportDialog::startCheck() {
    m_checkTimer->stop();
    if (m_storing)
        return;
    if (m_job->isRunning()) {
        // The running check is cancelled; its result (of an older generation) starts this one.
        ++m_generation;
        m_job->cancel();
        return;
    }
    disposeInBackground(std::exchange(m_plan, {}));
    m_errors.clear();
    const QStringList list = paths();
    QString why;
    if (list.isEmpty())
        why = tr(
            "Add the files and folders of one training: Add files…, Add folder…, type a path, or drop them "
            "here.");
    else if (!m_project)
        why = tr("No project is open.");
    else if (record().isEmpty())
        why = tr(
            "Choose the config record first: its experts and parallelism check the files and merge the rank "
            "files.");
    if (!why.isEmpty()) {
        showPlan();
        m_planSummary->setText(why);
        if (m_importQueued) {
            m_importQueued = false;
            m_result->setText(why);
        }
        updateState();
        return;
    }
    PlanRequest request;
    request.paths = list;
    request.options.format = m_format->currentData().toString();
    request.options.allowPartialSteps = m_allowPartial->isChecked();
    request.options.strict = m_strict->isChecked();
    request.options.collective = m_collective->currentData().toString();
    for (const QString& p : m_exclude->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!p.trimmed().isEmpty())
            request.options.exclude << p.trimmed();
    if (const auto row = m_project->configRecord(record()))
        request.recordJson = row->json;
    request.generation = m_generation;
    if (!m_job->startPlan(request)) {
        m_checkTimer->start(); // the worker is only returning: again in a moment
        return;
    }
    m_planPaths = list;
    m_cancelling = false;
    m_planSummary->setText(tr("Reading and checking %n path(s)…", "", int(list.size())));
    m_progress->setRange(0, 0);
    updateState();
}

void ImportDialog::onPlanned(quint64 generation, ImportPlanPtr plan, const QStringList& errors,
                             bool cancelled) {
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_now->setFullText(QString());
    if (generation != m_generation) {
        // The inputs changed meanwhile: check them (now, unless a change is still being typed).
        if (!m_checkTimer->isActive())
            startCheck();
        updateState();
        return;
    }
    if (cancelled) {
        m_cancelling = false;
        showPlan();
        m_planSummary->setText(tr("Check cancelled; press Check again to read the files."));
        if (m_importQueued) {
            m_importQueued = false;
            m_result->setText(tr("Import cancelled; nothing was stored."));
        }
        updateState();
        return;
    }
    disposeInBackground(std::exchange(m_plan, std::move(plan)));
    m_errors = errors;
    if (m_plan)
        showPlan();
    else
        showErrors();
    if (m_importQueued) {
        m_importQueued = false;
        if (m_plan)
            storePlan();
        else
            m_result->setText(tr("✖ The files cannot be imported (%n problem(s), listed above); nothing was "
                                 "stored.",
                                 "", int(m_errors.size())));
    }
    updateState();
}

void ImportDialog::showPlan() {
    m_planTable->setRowCount(0);
    m_planTable->setVisible(true);
    m_planNotes->clear();
    if (!m_plan) {
        m_planSummary->clear();
        return;
    }
    const runimport::ImportPlan& plan = *m_plan;
    const QLocale locale;
    auto add = [&](const QString& file, const QString& tip, const QString& format, const QString& rows,
                   const QString& role, bool skipped) {
        const int row = m_planTable->rowCount();
        m_planTable->insertRow(row);
        const QStringList texts{file, format, rows, role};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            item->setToolTip(c == ColFile ? tip : texts[c]);
            if (c == ColRows)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (skipped) {
                QFont f = item->font();
                f.setItalic(true);
                item->setFont(f);
                item->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
            }
            m_planTable->setItem(row, c, item);
        }
    };
    // A file given by its full path is named by its file name (the list on the left and
    // the tooltip have the path); a walked one by its path inside the folder.
    auto shown = [](const QString& s) { return QFileInfo(s).isAbsolute() ? QFileInfo(s).fileName() : s; };
    for (const auto& f : plan.files)
        add(shown(f.shown), f.path, f.format, locale.toString(f.rows), f.role, false);
    for (const auto& s : plan.skipped)
        add(s.path, s.path, tr("skipped"), QStringLiteral("—"), s.reason, true);

    QStringList formats;
    for (const auto& f : plan.files)
        if (!formats.contains(f.format))
            formats << f.format;
    const QString target = intoMode() ? tr("added to run %1").arg(m_intoRunName->currentData().toString())
                                      : tr("one new run of record %1").arg(record());
    QStringList gives;
    if (!plan.stepMetrics.isEmpty())
        gives << tr("%1 step metrics").arg(locale.toString(qsizetype(plan.stepMetrics.size())));
    if (plan.expertLoadRows() > 0)
        gives << tr("%1 expert-load blocks").arg(locale.toString(plan.expertLoadRows()));
    if (!plan.commSamples.isEmpty())
        gives << tr("%1 communication samples").arg(locale.toString(qsizetype(plan.commSamples.size())));
    if (gives.isEmpty())
        gives << tr("no data");
    m_planSummary->setText(tr("✔ %n file(s) read, %1 skipped → %2: %3.", "", int(plan.files.size()))
                               .arg(plan.skipped.size())
                               .arg(target, gives.join(QStringLiteral(", "))));
    QStringList notes;
    for (const QString& n : plan.notes)
        notes << QStringLiteral("• ") + n;
    if (notes.isEmpty())
        notes << tr("• The files fit together; nothing had to be merged.");
    m_planNotes->setPlainText(notes.join(QLatin1Char('\n')));
    fitPlanColumns();
    showCollectiveChoice();
}

void ImportDialog::showCollectiveChoice() {
    // Offered when the plan found two all-to-all tests, and kept while one is chosen.
    const bool several = m_plan && runimport::allToAllTests(m_plan->environment).size() > 1;
    for (QFormLayout* form : findChildren<QFormLayout*>())
        if (form->indexOf(m_collective) >= 0)
            form->setRowVisible(m_collective, several || m_collective->currentIndex() > 0);
}

void ImportDialog::showErrors() {
    // The errors take the table's room: every one of them, naming file and line.
    m_planTable->setRowCount(0);
    m_planTable->setVisible(false);
    m_planSummary->setText(
        tr("✖ The files cannot be imported as one run: %n problem(s). Fix them (or leave the file "
           "out) and the files are checked again; nothing is stored.",
           "", int(m_errors.size())));
    QStringList lines;
    for (const QString& e : m_errors)
        lines << QStringLiteral("✖ ") + e;
    m_planNotes->setPlainText(lines.join(QLatin1Char('\n')));
    showCollectiveChoice();
}

QString ImportDialog::detectedFormat() const {
    if (!m_plan)
        return {};
    QStringList formats;
    for (const auto& f : m_plan->files)
        if (!formats.contains(f.format))
            formats << f.format;
    return formats.join(QLatin1Char('+'));
}

// --- storing ------------------------------------------------------------------------

bool ImportDialog::startImport() {
    if (m_storing) {
        m_result->setText(tr("An import is still finishing; try again in a moment."));
        return false;
    }
    if (const QString why = blocker(); !why.isEmpty()) {
        m_result->setText(why);
        return false;
    }
    if (m_plan)
        return storePlan();
    if (isChecking()) {
        // Stored once the check finds no problem (the button waits for the plan; a
        // caller may ask at once).
        m_importQueued = true;
        m_result->setText(tr("Checking the files first…"));
        updateState();
        return true;
    }
    if (!m_errors.isEmpty()) {
        m_result->setText(tr("✖ The files cannot be imported (%n problem(s), listed above); nothing was "
                             "stored.",
                             "", int(m_errors.size())));
        return false;
    }
    if (paths().isEmpty()) {
        m_result->setText(tr("Add the files or folders to import first."));
        return false;
    }
    m_importQueued = true;
    m_result->setText(tr("Checking the files first…"));
    check();
    return true;
}

bool ImportDialog::storePlan() {
    if (const QString why = blocker(); !why.isEmpty()) {
        m_result->setText(why);
        return false;
    }
    StoreRequest request;
    request.projectPath = m_project->path();
    request.plan = m_plan;
    request.into = intoMode();
    request.record = record();
    const QString typed = m_runName->text().trimmed();
    request.runName =
        request.into ? m_intoRunName->currentData().toString() : (typed.isEmpty() ? defaultRunName() : typed);
    if (!request.into && typed.isEmpty() && !paths().isEmpty())
        request.automaticNameBase = runNameForPath(paths().first());
    if (!m_job->startStore(request)) {
        m_result->setText(tr("An import is still finishing; try again in a moment."));
        return false;
    }
    m_storing = true;
    m_cancelling = false;
    m_result->setText(request.into ? tr("Adding to run %1…").arg(request.runName)
                                   : tr("Storing run %1…").arg(request.runName));
    setBusy(true);
    updateState();
    return true;
}

void ImportDialog::onStored(bool ok, const QString& message, bool cancelled) {
    m_storing = false;
    m_cancelling = false;
    setBusy(false);
    m_progress->setRange(0, 100);
    m_progress->setValue(ok ? 100 : 0);
    m_progress->setTextVisible(ok);
    m_now->setFullText(QString());
    const int files = m_plan ? int(m_plan->files.size()) : 0;
    if (ok) {
        m_result->setText(intoMode() ? tr("✔ Added %n file(s) to run “%1”.", "", files).arg(message)
                                     : tr("✔ Imported %n file(s) as run “%1”.", "", files).arg(message));
        // Stored: the same plan is not offered twice; a change of the list checks again.
        disposeInBackground(std::exchange(m_plan, {}));
        m_planSummary->setText(
            tr("Stored as run “%1”. Change the list, or press Check again, to import more.").arg(message));
        if (!intoMode())
            m_runName->clear();
        reloadRuns();
        emit imported(message);
    } else {
        m_result->setText(cancelled ? message : tr("✖ %1").arg(message));
    }
    updateState();
}

void ImportDialog::cancelImport() {
    if (m_importQueued) {
        m_importQueued = false;
        m_result->setText(tr("Import cancelled; nothing was stored."));
    }
    if (!m_job->isRunning())
        return;
    m_cancelling = true;
    m_job->cancel();
    m_cancel->setEnabled(false);
    m_now->setFullText(tr("Cancelling…"));
}

bool ImportDialog::isRunning() const {
    return m_storing || m_importQueued;
}

QString ImportDialog::resultText() const {
    QString text = m_result->text();
    if (!m_errors.isEmpty())
        text += QLatin1Char('\n') + m_errors.join(QLatin1Char('\n'));
    return text;
}

void ImportDialog::setBusy(bool busy) {
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_pathEdit, m_paths, m_mode, m_runName, m_intoRunName, m_format,
                                         m_collective, m_exclude, m_allowPartial, m_strict, m_checkButton})
        w->setEnabled(!busy);
    for (auto* b : findChildren<QPushButton*>(QStringLiteral("importAddPath")))
        b->setEnabled(!busy);
    for (const char* name : {"importAddFiles", "importAddFolder"})
        if (auto* b = findChild<QPushButton*>(QLatin1String(name)))
            b->setEnabled(!busy);
    m_record->setEnabled(!busy && !intoMode());
    setAcceptDrops(!busy);
}

void ImportDialog::updateState() {
    const QString why = blocker();
    m_import->setEnabled(!m_storing && m_plan && why.isEmpty());
    m_import->setToolTip(m_plan ? why
                                : tr("Import is possible once the files are checked without a problem."));
    m_cancel->setEnabled(m_job->isRunning() && !m_cancelling);
    m_removeButton->setEnabled(!m_storing && !m_paths->selectedItems().isEmpty());
    if (m_plan && !m_storing) {
        // The plan's first line says what happens next.
        QString summary = m_planSummary->text().section(QLatin1Char('\n'), 0, 0);
        summary += QLatin1Char('\n') + (why.isEmpty() ? tr("Nothing is stored until you press Import.")
                                                      : QStringLiteral("⚠ ") + why);
        m_planSummary->setText(summary);
    }
}

void ImportDialog::reject() {
    // Closing the dialog during an import or a check cancels it (nothing is stored).
    m_importQueued = false;
    m_checkTimer->stop();
    if (m_job->isRunning()) {
        m_cancelling = true;
        m_job->cancel();
        m_job->wait();
    }
    QDialog::reject();
}

} // namespace moewb::gui
