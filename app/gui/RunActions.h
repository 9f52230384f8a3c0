#pragma once
// What can be done to runs after import (docs/gui.md, "Runs"): rename, tag, move to
// another config record, delete (after a confirmation naming what goes), compare. The
// same menu in the browser, the runs list and a run's page; each edit is one store
// transaction (ProjectStore::renameRun, setRunTags, moveRun, removeRuns).
#include <QObject>
#include <QStringList>

class QMenu;
class QWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class RunActions : public QObject {
    Q_OBJECT
public:
    // Dialogs open over `dialogParent`.
    explicit RunActions(QWidget* dialogParent);
    void setProject(store::ProjectStore* project) { m_project = project; }
    store::ProjectStore* project() const { return m_project; }

    // Adds Rename…, Tag…, Move to record…, Delete… and Compare to `menu` for `runs`
    // (Rename and Tag with exactly one run; Compare selected with two or more,
    // Compare with… with one).
    void populateMenu(QMenu* menu, const QStringList& runs);

    // Each asks (a dialog), writes, and emits runsChanged; false when cancelled or
    // refused (the reason went to message()).
    bool rename(const QString& run);
    bool tag(const QString& run);
    bool moveToRecord(const QStringList& runs);
    bool remove(const QStringList& runs);
    // Two or more: compareRequested at once. One: asks which runs to compare it with.
    void compare(const QStringList& runs);

    // The confirmation's text for deleting `runs`: what goes, and which verdicts used them.
    QString deleteConfirmationText(const QStringList& runs) const;

signals:
    // The project changed; `showRun` is the run to show now (renamed), empty when none.
    void runsChanged(const QString& showRun);
    void compareRequested(const QStringList& runs);
    // For the status bar: what was done, or why not.
    void message(const QString& text);

private:
    bool refuseReadOnly();

    QWidget* m_parent;
    store::ProjectStore* m_project = nullptr;
};

} // namespace moewb::gui
