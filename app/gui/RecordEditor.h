#pragma once
// The config record editor (SPEC §1): every field of record::recordFields(), grouped
// by section, with its explanation as tooltip. Missing and invalid fields are
// highlighted and listed first with the reason (record::validateJson); the page
// says whether comparisons are blocked and by what (record::planComparison). Save
// writes through ProjectStore::updateConfigRecord; New record and Duplicate add one;
// "Fill from node inventory" fills the hardware fields from a cluster's node facts.
#include "record/ConfigRecord.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class RecordEditor : public QWidget {
    Q_OBJECT
public:
    explicit RecordEditor(QWidget* parent = nullptr);
    void setProject(store::ProjectStore* project);
    store::ProjectStore* project() const { return m_project; }
    // Loads the record into the form; false when there is none of that name.
    bool showRecord(const QString& name);
    QString recordName() const { return m_name; }
    bool isModified() const { return m_modified; }

    // The record as the form holds it now (unsaved edits included).
    QJsonObject currentJson() const;
    QList<record::FieldIssue> issues() const { return m_issues; }
    // The editor of a field (QLineEdit or QComboBox), or null.
    QWidget* fieldEditor(const QString& path) const { return m_editors.value(path); }
    // Types into a field's editor as a user would (a choice by its JSON token).
    void setFieldText(const QString& path, const QString& text);
    QString fieldText(const QString& path) const;

    QString statusText() const;
    QString issuesText() const;
    QString comparisonText() const;

    // Writes the form through ProjectStore::updateConfigRecord.
    bool save(QString* error = nullptr);
    // Adds a record named `name`: empty, or a copy of the form when duplicate.
    bool createRecord(const QString& name, bool duplicate, QString* error = nullptr);
    // Fills the hardware fields from the named cluster's node inventory; the notes
    // say what was read (not saved until Save).
    bool fillFromCluster(const QString& clusterName, QString* notes = nullptr);

signals:
    void recordSaved(const QString& name);
    void recordCreated(const QString& name);
    void statusMessage(const QString& text);

private:
    QWidget* makeEditor(const QString& path);
    void loadForm(const QJsonObject& json);
    void revalidate();
    void updateComparison();
    void askNewRecord(bool duplicate);
    void setRecordOpen(bool open);

    store::ProjectStore* m_project = nullptr;
    QString m_name;
    QJsonObject m_original;
    bool m_modified = false;
    bool m_loading = false;
    QList<record::FieldIssue> m_issues;
    QHash<QString, QWidget*> m_editors;
    QHash<QString, QLabel*> m_labels;
    QLineEdit* m_notes = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_issuesLabel = nullptr;
    QWidget* m_issuesScroll = nullptr;
    QLabel* m_comparison = nullptr;
    QPushButton* m_save = nullptr;
    QPushButton* m_duplicate = nullptr;
    QWidget* m_form = nullptr;
    QComboBox* m_clusters = nullptr;
    QPushButton* m_fill = nullptr;
};

} // namespace moewb::gui
