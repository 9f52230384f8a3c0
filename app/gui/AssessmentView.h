#pragma once
// The assessment sheet editor (seed 003): the ten review dimensions, each with its
// core question and verification method, a rating, notes and evidence picked from
// the project's runs and stages; and the cost estimate (resources, communication,
// people, migration). Save writes the whole sheet through ProjectStore in one
// transaction; the PDF report prints it.
#include "assessment/AssessmentSheet.h"

#include <QList>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class AssessmentView : public QWidget {
    Q_OBJECT
public:
    explicit AssessmentView(QWidget* parent = nullptr);

    // Loads the project's sheet and its runs (for evidence); nullptr clears.
    void showAssessment(store::ProjectStore* project);
    // The sheet as edited (not yet saved).
    assessment::Sheet currentSheet() const;
    bool isModified() const { return m_modified; }

    // Writes the sheet; on failure the status line says why and false is returned.
    bool save();
    void revert();

    // For tests and the shell.
    QComboBox* ratingCombo(int dimension) const { return m_dims.at(dimension).rating; }
    QPlainTextEdit* notesEdit(int dimension) const { return m_dims.at(dimension).notes; }
    // Checkable items: the project's runs, then stages 1-4 (data: "run:NAME"/"stage:N").
    QListWidget* evidenceList(int dimension) const { return m_dims.at(dimension).evidence; }
    // "From the project": what the project's records, runs and verdicts show for the
    // dimension (assessment::projectEvidence), or that it is the team's to fill.
    QLabel* projectEvidenceLabel(int dimension) const { return m_dims.at(dimension).fromProject; }
    QTableWidget* costTable() const { return m_costs; }
    QLineEdit* authorEdit() const { return m_author; }
    QPushButton* saveButton() const { return m_save; }
    QLabel* statusLabel() const { return m_status; }

signals:
    void saved();
    void modifiedChanged(bool modified);

protected:
    // "From the project" is read again each time the view is shown (verdicts and runs
    // change while it is hidden).
    void showEvent(QShowEvent* event) override;

private:
    struct DimensionWidgets {
        QComboBox* rating = nullptr;
        QPlainTextEdit* notes = nullptr;
        QListWidget* evidence = nullptr;
        QLabel* fromProject = nullptr;
    };
    void fill(const assessment::Sheet& sheet);
    void fillProjectEvidence();
    void setModified(bool modified);

    store::ProjectStore* m_project = nullptr;
    assessment::Sheet m_loaded;
    QList<DimensionWidgets> m_dims;
    QTableWidget* m_costs = nullptr;
    QLineEdit* m_author = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_revert = nullptr;
    QLabel* m_status = nullptr;
    bool m_modified = false;
    bool m_filling = false;
};

} // namespace moewb::gui
