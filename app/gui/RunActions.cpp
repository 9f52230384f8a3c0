#include "RunActions.h"

#include "StageStatus.h"
#include "store/ProjectStore.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {

// The stages whose saved verdict read one of `runs` (by id, or by name in older bases).
QList<int> stagesUsing(const store::ProjectStore& project, const QList<store::RunRow>& runs) {
    QList<int> stages;
    for (const store::VerdictRow& v : project.verdicts()) {
        bool uses = false;
        for (const QJsonValue& value : v.basis.value(QLatin1String("runs")).toArray()) {
            const QJsonObject o = value.toObject();
            for (const store::RunRow& r : runs)
                uses = uses || o.value(QLatin1String("id")).toInteger(-1) == r.id ||
                       (!o.contains(QLatin1String("id")) && o.value(QLatin1String("name")).toString() == r.name);
        }
        if (uses)
            stages << v.stage;
    }
    return stages;
}

QString quotedList(const QStringList& names) {
    QStringList quoted;
    for (const QString& n : names)
        quoted << RunActions::tr("“%1”").arg(n);
    return quoted.join(QStringLiteral(", "));
}

} // namespace

RunActions::RunActions(QWidget* dialogParent) : QObject(dialogParent), m_parent(dialogParent) {}

bool RunActions::refuseReadOnly() {
    if (m_project && !m_project->readOnly())
        return false;
    emit message(m_project ? tr("The project is read-only: runs cannot be changed. Copy it to a writable folder to "
                                "change it.")
                           : tr("Open a project first."));
    return true;
}

void RunActions::populateMenu(QMenu* menu, const QStringList& runs) {
    if (runs.isEmpty())
        return;
    const bool writable = m_project && !m_project->readOnly();
    const QString one = runs.size() == 1 ? runs.first() : QString();
    QAction* rename = menu->addAction(tr("Rename…"), this, [this, one] { this->rename(one); });
    rename->setObjectName(QStringLiteral("runRenameAction"));
    rename->setEnabled(writable && !one.isEmpty());
    QAction* tag = menu->addAction(tr("Tag…"), this, [this, one] { this->tag(one); });
    tag->setObjectName(QStringLiteral("runTagAction"));
    tag->setEnabled(writable && !one.isEmpty());
    QAction* move = menu->addAction(tr("Move to record…"), this, [this, runs] { moveToRecord(runs); });
    move->setObjectName(QStringLiteral("runMoveAction"));
    move->setEnabled(writable);
    QAction* remove = menu->addAction(runs.size() == 1 ? tr("Delete…") : tr("Delete %n runs…", "", int(runs.size())),
                                      this, [this, runs] { this->remove(runs); });
    remove->setObjectName(QStringLiteral("runDeleteAction"));
    remove->setEnabled(writable);
    menu->addSeparator();
    QAction* compare = menu->addAction(runs.size() == 1 ? tr("Compare with…") : tr("Compare selected (%n)", "", int(runs.size())),
                                       this, [this, runs] { this->compare(runs); });
    compare->setObjectName(QStringLiteral("runCompareAction"));
    compare->setEnabled(m_project != nullptr);
}

bool RunActions::rename(const QString& run) {
    if (refuseReadOnly())
        return false;
    bool ok = false;
    const QString newName = QInputDialog::getText(m_parent, tr("Rename run"),
                                                  tr("New name for run “%1”:").arg(run), QLineEdit::Normal, run, &ok)
                                .trimmed();
    if (!ok || newName == run)
        return false;
    auto done = m_project->renameRun(run, newName);
    if (!done) {
        const QString why = done.error().message;
        emit message(tr("Run “%1” was not renamed: %2").arg(run, why));
        QMessageBox::warning(m_parent, tr("Rename run"), tr("Run “%1” was not renamed: %2").arg(run, why));
        return false;
    }
    emit message(tr("Run “%1” is now “%2”; the verdicts that used it follow it.").arg(run, newName));
    emit runsChanged(newName);
    return true;
}

bool RunActions::tag(const QString& run) {
    if (refuseReadOnly())
        return false;
    const auto row = m_project->run(run);
    if (!row)
        return false;
    bool ok = false;
    const QString text = QInputDialog::getText(m_parent, tr("Tag run"),
                                               tr("Tags of run “%1”, separated by commas (empty removes them):").arg(run),
                                               QLineEdit::Normal,
                                               store::ProjectStore::runTags(*row).join(QStringLiteral(", ")), &ok);
    if (!ok)
        return false;
    QStringList tags;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            tags << part.trimmed();
    auto done = m_project->setRunTags(run, tags);
    if (!done) {
        const QString why = done.error().message;
        emit message(tr("The tags of run “%1” were not saved: %2").arg(run, why));
        QMessageBox::warning(m_parent, tr("Tag run"), tr("The tags of run “%1” were not saved: %2").arg(run, why));
        return false;
    }
    emit message(tags.isEmpty() ? tr("Run “%1” has no tags now.").arg(run)
                                : tr("Run “%1” tagged %2.").arg(run, tags.join(QStringLiteral(", "))));
    emit runsChanged(run);
    return true;
}

bool RunActions::moveToRecord(const QStringList& runs) {
    if (refuseReadOnly() || runs.isEmpty())
        return false;
    const auto first = m_project->run(runs.first());
    QStringList records;
    int current = 0;
    for (const store::ConfigRecordRow& r : m_project->configRecords()) {
        if (first && r.name == first->recordName)
            current = int(records.size());
        records << r.name;
    }
    if (records.isEmpty())
        return false;
    bool ok = false;
    const QString label = runs.size() == 1
                              ? tr("Config record for run “%1” (now “%2”):").arg(runs.first(), first ? first->recordName : QString())
                              : tr("Config record for %n runs (%1):", "", int(runs.size())).arg(quotedList(runs));
    const QString record = QInputDialog::getItem(m_parent, tr("Move to record"), label, records, current, false, &ok);
    if (!ok || record.isEmpty())
        return false;
    QStringList moved;
    for (const QString& run : runs) {
        const auto row = m_project->run(run);
        if (row && row->recordName == record)
            continue;
        auto done = m_project->moveRun(run, record);
        if (!done) {
            const QString why = done.error().message;
            emit message(tr("Run “%1” was not moved: %2").arg(run, why));
            QMessageBox::warning(m_parent, tr("Move to record"), tr("Run “%1” was not moved: %2").arg(run, why));
            if (!moved.isEmpty())
                emit runsChanged(runs.size() == 1 ? runs.first() : QString());
            return false;
        }
        moved << run;
    }
    if (moved.isEmpty())
        return false;
    emit message(tr("%n run(s) moved to record “%1”: %2. Re-evaluate the stages that used them.", "", int(moved.size()))
                     .arg(record, moved.join(QStringLiteral(", "))));
    emit runsChanged(runs.size() == 1 ? runs.first() : QString());
    return true;
}

QString RunActions::deleteConfirmationText(const QStringList& runs) const {
    QList<store::RunRow> rows;
    qint64 samples = 0, steps = 0, blocks = 0;
    for (const QString& name : runs) {
        if (const auto r = m_project ? m_project->run(name) : std::nullopt) {
            rows << *r;
            samples += r->commSampleCount;
            steps += r->stepCount;
            blocks += r->expertLoadBlocks;
        }
    }
    QStringList goes;
    if (samples > 0)
        goes << tr("%n communication sample(s)", "", int(qMin<qint64>(samples, INT_MAX)));
    if (steps > 0)
        goes << tr("metrics of %n step(s)", "", int(qMin<qint64>(steps, INT_MAX)));
    if (blocks > 0)
        goes << tr("%n expert-load block(s)", "", int(qMin<qint64>(blocks, INT_MAX)));
    QString text = runs.size() == 1 ? tr("Delete run “%1” from the project?").arg(runs.first())
                                    : tr("Delete these %n runs from the project? %1", "", int(runs.size())).arg(quotedList(runs));
    text += QStringLiteral("\n\n");
    text += goes.isEmpty() ? tr("It holds no measurements.")
                           : tr("Deleted with it: %1, and any assessment evidence that links to it.")
                                 .arg(goes.join(QStringLiteral(", ")));
    if (m_project) {
        QStringList used;
        for (int stage : stagesUsing(*m_project, rows))
            used << tr("stage %1 (%2)").arg(stage).arg(stageName(stage));
        if (!used.isEmpty())
            text += QStringLiteral("\n\n") +
                    tr("The saved verdicts of %1 used it; they stay, and say “no longer there” until re-evaluated.")
                        .arg(used.join(QStringLiteral(", ")));
    }
    text += QStringLiteral("\n\n") + tr("The files it was imported from are not touched. This cannot be undone.");
    return text;
}

bool RunActions::remove(const QStringList& runs) {
    if (refuseReadOnly() || runs.isEmpty())
        return false;
    QMessageBox box(QMessageBox::Warning, runs.size() == 1 ? tr("Delete run") : tr("Delete runs"),
                    deleteConfirmationText(runs), QMessageBox::NoButton, m_parent);
    box.setObjectName(QStringLiteral("deleteRunsConfirmation"));
    QPushButton* yes = box.addButton(runs.size() == 1 ? tr("Delete run") : tr("Delete %n runs", "", int(runs.size())),
                                     QMessageBox::DestructiveRole);
    yes->setObjectName(QStringLiteral("confirmDeleteButton"));
    QPushButton* no = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(no);
    box.setEscapeButton(no);
    box.exec();
    if (box.clickedButton() != yes)
        return false;
    auto done = m_project->removeRuns(runs);
    if (!done) {
        const QString why = done.error().message;
        emit message(tr("Nothing was deleted: %1").arg(why));
        QMessageBox::warning(m_parent, box.windowTitle(), tr("Nothing was deleted: %1").arg(why));
        return false;
    }
    emit message(tr("Deleted %n run(s): %1.", "", int(runs.size())).arg(runs.join(QStringLiteral(", "))));
    emit runsChanged(QString());
    return true;
}

void RunActions::compare(const QStringList& runs) {
    if (!m_project)
        return;
    if (runs.size() >= 2) {
        emit compareRequested(runs);
        return;
    }
    QDialog dialog(m_parent);
    dialog.setObjectName(QStringLiteral("compareRunsDialog"));
    dialog.setWindowTitle(tr("Compare runs"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* label = new QLabel(tr("Tick the runs to compare (two or more):"), &dialog);
    auto* list = new QListWidget(&dialog);
    list->setObjectName(QStringLiteral("compareRunsList"));
    label->setBuddy(list);
    for (const store::RunRow& r : m_project->runs()) {
        auto* item = new QListWidgetItem(tr("%1 — %2, record %3").arg(r.name, store::runKindTitle(r.kind), r.recordName), list);
        item->setData(Qt::UserRole, r.name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(runs.contains(r.name) ? Qt::Checked : Qt::Unchecked);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    auto checked = [list] {
        QStringList names;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->checkState() == Qt::Checked)
                names << list->item(i)->data(Qt::UserRole).toString();
        return names;
    };
    auto update = [buttons, checked] { buttons->button(QDialogButtonBox::Ok)->setEnabled(checked().size() >= 2); };
    connect(list, &QListWidget::itemChanged, &dialog, update);
    update();
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(label);
    layout->addWidget(list, 1);
    layout->addWidget(buttons);
    dialog.resize(520, 420);
    if (dialog.exec() == QDialog::Accepted && checked().size() >= 2)
        emit compareRequested(checked());
}

} // namespace moewb::gui
