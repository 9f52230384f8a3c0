#include "RecordEditor.h"

#include "NodeInventoryFill.h"
#include "PageWidgets.h"

#include "record/Comparability.h"
#include "record/RecordFields.h"
#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

namespace {

const QString kProblemStyle = QStringLiteral("background:#FBE3B8;");

QString sectionTitle(const QString& section) {
    static const QHash<QString, const char*> titles{
        {QStringLiteral("cluster"), QT_TRANSLATE_NOOP("RecordEditor", "Cluster")},
        {QStringLiteral("moe"), QT_TRANSLATE_NOOP("RecordEditor", "MoE routing")},
        {QStringLiteral("model"), QT_TRANSLATE_NOOP("RecordEditor", "Model")},
        {QStringLiteral("parallelism"), QT_TRANSLATE_NOOP("RecordEditor", "Parallelism")},
        {QStringLiteral("batch"), QT_TRANSLATE_NOOP("RecordEditor", "Batch")},
        {QStringLiteral("throughput"), QT_TRANSLATE_NOOP("RecordEditor", "Throughput accounting")},
        {QStringLiteral("recipe"), QT_TRANSLATE_NOOP("RecordEditor", "Training recipe")},
    };
    const char* t = titles.value(section);
    return t ? QCoreApplication::translate("RecordEditor", t) : section;
}

// The field's label: the segments of its path after the section, in words, translated
// (a segment not listed shows its own words).
QString fieldLabel(const QString& path) {
    static const QHash<QString, const char*> kWords = {
        {QStringLiteral("accelerator_model"), QT_TRANSLATE_NOOP("RecordEditor", "accelerator model")},
        {QStringLiteral("accelerators_per_node"), QT_TRANSLATE_NOOP("RecordEditor", "accelerators per node")},
        {QStringLiteral("activated_params"), QT_TRANSLATE_NOOP("RecordEditor", "activated params")},
        {QStringLiteral("capacity_factor"), QT_TRANSLATE_NOOP("RecordEditor", "capacity factor")},
        {QStringLiteral("coefficient"), QT_TRANSLATE_NOOP("RecordEditor", "coefficient")},
        {QStringLiteral("cp"), QT_TRANSLATE_NOOP("RecordEditor", "cp")},
        {QStringLiteral("data_loading_included"), QT_TRANSLATE_NOOP("RecordEditor", "data loading included")},
        {QStringLiteral("description"), QT_TRANSLATE_NOOP("RecordEditor", "description")},
        {QStringLiteral("dp"), QT_TRANSLATE_NOOP("RecordEditor", "dp")},
        {QStringLiteral("drop_order"), QT_TRANSLATE_NOOP("RecordEditor", "drop order")},
        {QStringLiteral("ep"), QT_TRANSLATE_NOOP("RecordEditor", "ep")},
        {QStringLiteral("etp"), QT_TRANSLATE_NOOP("RecordEditor", "expert tp")},
        {QStringLiteral("order"), QT_TRANSLATE_NOOP("RecordEditor", "rank order")},
        {QStringLiteral("experts"), QT_TRANSLATE_NOOP("RecordEditor", "experts")},
        {QStringLiteral("ffn_hidden_size"), QT_TRANSLATE_NOOP("RecordEditor", "ffn hidden size")},
        {QStringLiteral("global_batch_tokens"), QT_TRANSLATE_NOOP("RecordEditor", "global batch tokens")},
        {QStringLiteral("hidden_size"), QT_TRANSLATE_NOOP("RecordEditor", "hidden size")},
        {QStringLiteral("inter_node_fabric"), QT_TRANSLATE_NOOP("RecordEditor", "inter node fabric")},
        {QStringLiteral("intra_node_link"), QT_TRANSLATE_NOOP("RecordEditor", "intra node link")},
        {QStringLiteral("kind"), QT_TRANSLATE_NOOP("RecordEditor", "kind")},
        {QStringLiteral("layers"), QT_TRANSLATE_NOOP("RecordEditor", "layers")},
        {QStringLiteral("load_balancing"), QT_TRANSLATE_NOOP("RecordEditor", "load balancing")},
        {QStringLiteral("lr_schedule"), QT_TRANSLATE_NOOP("RecordEditor", "lr schedule")},
        {QStringLiteral("method"), QT_TRANSLATE_NOOP("RecordEditor", "method")},
        {QStringLiteral("moe_layers"), QT_TRANSLATE_NOOP("RecordEditor", "moe layers")},
        {QStringLiteral("network_type"), QT_TRANSLATE_NOOP("RecordEditor", "network type")},
        {QStringLiteral("nodes"), QT_TRANSLATE_NOOP("RecordEditor", "nodes")},
        {QStringLiteral("optimizer"), QT_TRANSLATE_NOOP("RecordEditor", "optimizer")},
        {QStringLiteral("overflow_policy"), QT_TRANSLATE_NOOP("RecordEditor", "overflow policy")},
        {QStringLiteral("pp"), QT_TRANSLATE_NOOP("RecordEditor", "pp")},
        {QStringLiteral("rail_optimized"), QT_TRANSLATE_NOOP("RecordEditor", "rail optimized")},
        {QStringLiteral("router_score_function"), QT_TRANSLATE_NOOP("RecordEditor", "router score function")},
        {QStringLiteral("sequence_length"), QT_TRANSLATE_NOOP("RecordEditor", "sequence length")},
        {QStringLiteral("shared_experts"), QT_TRANSLATE_NOOP("RecordEditor", "shared experts")},
        {QStringLiteral("tokens_trained"), QT_TRANSLATE_NOOP("RecordEditor", "tokens trained")},
        {QStringLiteral("top_k"), QT_TRANSLATE_NOOP("RecordEditor", "top k")},
        {QStringLiteral("topology"), QT_TRANSLATE_NOOP("RecordEditor", "topology")},
        {QStringLiteral("total_params"), QT_TRANSLATE_NOOP("RecordEditor", "total params")},
        {QStringLiteral("tp"), QT_TRANSLATE_NOOP("RecordEditor", "tp")},
        {QStringLiteral("update_rate"), QT_TRANSLATE_NOOP("RecordEditor", "update rate")},
        {QStringLiteral("validation_set"), QT_TRANSLATE_NOOP("RecordEditor", "validation set")},
        {QStringLiteral("warmup_steps_excluded"), QT_TRANSLATE_NOOP("RecordEditor", "warmup steps excluded")},
    };
    QStringList parts;
    for (const QString& segment : path.section(QLatin1Char('.'), 1).split(QLatin1Char('.'))) {
        const char* words = kWords.value(segment, nullptr);
        parts << (words ? QCoreApplication::translate("RecordEditor", words)
                        : QString(segment).replace(QLatin1Char('_'), QLatin1Char(' ')));
    }
    return parts.join(QStringLiteral(" · "));
}

// Sets (or, for an undefined value, removes) the value at a dotted path; empty
// objects left behind are removed.
void setPath(QJsonObject& object, const QStringList& parts, int i, const QJsonValue& value) {
    const QString& key = parts[i];
    if (i + 1 == parts.size()) {
        if (value.isUndefined())
            object.remove(key);
        else
            object.insert(key, value);
        return;
    }
    QJsonObject child = object.value(key).toObject();
    setPath(child, parts, i + 1, value);
    if (child.isEmpty())
        object.remove(key);
    else
        object.insert(key, child);
}

// The text a user types becomes the JSON the field holds; what does not parse stays
// text, so validation names the field and what it must hold.
QJsonValue valueFromText(const record::RecordField& field, const QString& raw) {
    const QString text = raw.trimmed();
    if (text.isEmpty())
        return QJsonValue(QJsonValue::Undefined);
    using T = record::FieldType;
    switch (field.type) {
    case T::PositiveInteger:
    case T::NonNegativeInteger:
    case T::PositiveNumber:
    case T::CapacityFactor: {
        if (field.type == T::CapacityFactor && text.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
            return QStringLiteral("none");
        bool ok = false;
        const double v = QLocale::c().toDouble(QString(text).remove(QLatin1Char('_')).remove(QLatin1Char(',')), &ok);
        if (!ok || !std::isfinite(v))
            return text;
        return v;
    }
    case T::Boolean:
        if (text == QLatin1String("true"))
            return true;
        if (text == QLatin1String("false"))
            return false;
        return text;
    case T::Text:
    case T::Choice:
        return text;
    }
    return text;
}

QString textFromValue(const QJsonValue& v) {
    if (v.isUndefined())
        return {};
    if (v.isNull())
        return QStringLiteral("none");
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (std::fabs(d) < 9e15 && d == std::floor(d))
            return QString::number(qint64(d));
        return QString::number(d, 'g', 12);
    }
    if (v.isString())
        return v.toString();
    return QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                                 .toJson(QJsonDocument::Compact));
}

} // namespace

RecordEditor::RecordEditor(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("recordEditor"));
    auto* layout = new QVBoxLayout(this);
    auto* head = new QHBoxLayout;
    m_title = makePageTitle(this);
    head->addWidget(m_title, 1);
    m_save = new QPushButton(tr("Save"), this);
    m_save->setObjectName(QStringLiteral("recordSave"));
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Write the record to the project file (Ctrl+S)"));
    auto* newButton = new QPushButton(tr("New record…"), this);
    newButton->setObjectName(QStringLiteral("recordNew"));
    auto* duplicate = new QPushButton(tr("Duplicate…"), this);
    m_duplicate = duplicate;
    duplicate->setObjectName(QStringLiteral("recordDuplicate"));
    duplicate->setToolTip(tr("A new record with every field of this one, e.g. for the dense control"));
    head->addWidget(m_save);
    head->addWidget(newButton);
    head->addWidget(duplicate);
    layout->addLayout(head);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("recordStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_issuesLabel = new QLabel(this);
    m_issuesLabel->setObjectName(QStringLiteral("recordIssues"));
    m_issuesLabel->setWordWrap(true);
    m_issuesLabel->setTextFormat(Qt::RichText);
    m_issuesLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_issuesLabel->setStyleSheet(kProblemStyle + QStringLiteral("padding:6px;"));
    // The list scrolls on its own, so a nearly empty record still leaves room for the form.
    auto* issuesScroll = new QScrollArea(this);
    issuesScroll->setWidgetResizable(true);
    issuesScroll->setFrameShape(QFrame::NoFrame);
    issuesScroll->setMaximumHeight(150);
    issuesScroll->setWidget(m_issuesLabel);
    layout->addWidget(issuesScroll);
    m_issuesScroll = issuesScroll;
    m_comparison = new QLabel(this);
    m_comparison->setObjectName(QStringLiteral("recordComparison"));
    m_comparison->setWordWrap(true);
    m_comparison->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_comparison);

    // The text above the form never takes the form's room.
    for (QWidget* w : {static_cast<QWidget*>(m_status), static_cast<QWidget*>(m_comparison), m_issuesScroll})
        w->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    auto* fill = new QHBoxLayout;
    auto* fillLabel = new QLabel(tr("Fill the hardware fields from the node inventory of cluster:"), this);
    m_clusters = new QComboBox(this);
    m_clusters->setObjectName(QStringLiteral("recordFillCluster"));
    m_clusters->setMinimumContentsLength(12);
    fillLabel->setBuddy(m_clusters);
    m_fill = new QPushButton(tr("Fill from node inventory"), this);
    m_fill->setObjectName(QStringLiteral("recordFill"));
    m_fill->setToolTip(tr("Reads the probe's --inventory facts stored with the cluster's nodes: node count, GPUs "
                          "per node, GPU model, network and fabric. Review, then Save."));
    fill->addWidget(fillLabel);
    fill->addWidget(m_clusters);
    fill->addWidget(m_fill);
    fill->addStretch(1);
    layout->addLayout(fill);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* form = new QWidget(scroll);
    auto* grid = new QGridLayout(form);
    grid->setContentsMargins(0, 0, 0, 0);
    QHash<QString, QFormLayout*> sections;
    QStringList order;
    for (const record::RecordField& f : record::recordFields()) {
        const QString section = f.path.section(QLatin1Char('.'), 0, 0);
        if (!sections.contains(section)) {
            auto* box = new QGroupBox(sectionTitle(section), form);
            auto* fl = new QFormLayout(box);
            fl->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
            sections.insert(section, fl);
            // Two columns: cluster and MoE on the left, the rest on the right.
            const int n = int(order.size());
            order << section;
            const bool left = n < 2;
            grid->addWidget(box, left ? n : n - 2, left ? 0 : 1);
        }
        auto* label = new QLabel(fieldLabel(f.path), form);
        label->setToolTip(QStringLiteral("%1\n%2").arg(f.path, record::fieldHint(f.path)));
        QWidget* editor = makeEditor(f.path);
        editor->setParent(form);
        editor->setToolTip(tr("%1 — %2 (%3)")
                               .arg(f.path, record::fieldHint(f.path), record::expectedValueText(f)));
        sections.value(section)->addRow(label, editor);
        label->setBuddy(editor);
        m_labels.insert(f.path, label);
    }
    auto* about = new QGroupBox(tr("Notes"), form);
    auto* aboutLayout = new QFormLayout(about);
    m_notes = new QLineEdit(about);
    m_notes->setObjectName(QStringLiteral("recordNotes"));
    m_notes->setPlaceholderText(tr("free text, e.g. what this configuration is for"));
    aboutLayout->addRow(tr("notes"), m_notes);
    connect(m_notes, &QLineEdit::textEdited, this, [this] {
        m_modified = true;
        revalidate();
    });
    grid->addWidget(about, 2, 0);
    grid->setRowStretch(grid->rowCount(), 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    scroll->setWidget(form);
    m_form = scroll;
    layout->addWidget(scroll, 1);

    connect(m_save, &QPushButton::clicked, this, [this] {
        QString error;
        if (!save(&error))
            QMessageBox::warning(this, tr("Save config record"), error);
    });
    connect(newButton, &QPushButton::clicked, this, [this] { askNewRecord(false); });
    connect(duplicate, &QPushButton::clicked, this, [this] { askNewRecord(true); });
    connect(m_fill, &QPushButton::clicked, this, [this] {
        QString notes;
        if (!fillFromCluster(m_clusters->currentText(), &notes))
            QMessageBox::warning(this, tr("Fill from node inventory"), notes);
        else
            emit statusMessage(notes);
    });
    setEnabled(false);
}

QWidget* RecordEditor::makeEditor(const QString& path) {
    const record::RecordField* f = record::findRecordField(path);
    QWidget* editor = nullptr;
    if (f->type == record::FieldType::Choice || f->type == record::FieldType::Boolean) {
        auto* combo = new QComboBox;
        combo->addItem(tr("— not set —"), QString());
        const QStringList tokens = f->type == record::FieldType::Boolean
                                       ? QStringList{QStringLiteral("true"), QStringLiteral("false")}
                                       : f->choices;
        for (const QString& t : tokens)
            combo->addItem(t, t);
        connect(combo, &QComboBox::activated, this, [this] {
            m_modified = true;
            revalidate();
        });
        editor = combo;
    } else {
        auto* line = new QLineEdit;
        if (f->type == record::FieldType::CapacityFactor)
            line->setPlaceholderText(tr("e.g. 1.25, or none"));
        else if (f->type != record::FieldType::Text)
            line->setPlaceholderText(record::expectedValueText(*f));
        connect(line, &QLineEdit::textEdited, this, [this] {
            m_modified = true;
            revalidate();
        });
        editor = line;
    }
    editor->setObjectName(QStringLiteral("field:") + path);
    m_editors.insert(path, editor);
    return editor;
}

void RecordEditor::setProject(store::ProjectStore* project) {
    m_project = project;
    m_name.clear();
    m_modified = false;
    m_clusters->clear();
    if (project)
        for (const auto& c : project->clusters())
            m_clusters->addItem(c.name);
    if (m_clusters->count() == 0)
        m_fill->setToolTip(tr("The project has no clusters yet (moewb cluster add)."));
    m_title->setText(tr("Config records"));
    m_status->setText(project ? tr("Choose a record in the browser, or start one with New record…")
                              : QString());
    m_issuesScroll->hide();
    m_comparison->clear();
    setRecordOpen(false);
    setEnabled(project != nullptr);
}

void RecordEditor::setRecordOpen(bool open) {
    m_form->setEnabled(open);
    m_save->setEnabled(open);
    m_duplicate->setEnabled(open);
    m_fill->setEnabled(open && m_clusters->count() > 0);
    m_clusters->setEnabled(open && m_clusters->count() > 0);
}

bool RecordEditor::showRecord(const QString& name) {
    if (!m_project)
        return false;
    const auto row = m_project->configRecord(name);
    if (!row)
        return false;
    m_name = row->name;
    m_original = row->json;
    m_title->setText(tr("Config record · %1").arg(m_name));
    loadForm(row->json);
    m_modified = false;
    setEnabled(true);
    setRecordOpen(true);
    revalidate();
    return true;
}

void RecordEditor::loadForm(const QJsonObject& json) {
    m_loading = true;
    for (auto it = m_editors.cbegin(); it != m_editors.cend(); ++it)
        setFieldText(it.key(), textFromValue(record::recordFieldValue(json, it.key())));
    m_notes->setText(json.value(QStringLiteral("notes")).toString());
    m_loading = false;
}

void RecordEditor::setFieldText(const QString& path, const QString& text) {
    QWidget* editor = m_editors.value(path);
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        int i = combo->findData(text);
        if (i < 0 && !text.isEmpty()) {
            // A stored value the catalogue does not know: keep it visible (validation names it).
            combo->addItem(text, text);
            i = combo->count() - 1;
        }
        combo->setCurrentIndex(std::max(i, 0));
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(text);
    }
    if (!m_loading) {
        m_modified = true;
        revalidate();
    }
}

QString RecordEditor::fieldText(const QString& path) const {
    QWidget* editor = m_editors.value(path);
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        return combo->currentData().toString();
    if (auto* line = qobject_cast<QLineEdit*>(editor))
        return line->text();
    return {};
}

QJsonObject RecordEditor::currentJson() const {
    QJsonObject json = m_original;
    for (const record::RecordField& f : record::recordFields())
        setPath(json, f.path.split(QLatin1Char('.')), 0, valueFromText(f, fieldText(f.path)));
    const QString notes = m_notes->text().trimmed();
    if (notes.isEmpty())
        json.remove(QStringLiteral("notes"));
    else
        json.insert(QStringLiteral("notes"), notes);
    if (!m_name.isEmpty())
        json.insert(QStringLiteral("name"), m_name);
    if (!json.contains(QStringLiteral("format_version")))
        json.insert(QStringLiteral("format_version"), record::kRecordFormatVersion);
    return json;
}

void RecordEditor::revalidate() {
    m_issues = record::validateJson(currentJson());
    QHash<QString, QStringList> byField;
    QStringList crossField;
    for (const auto& issue : m_issues) {
        // A section-level issue ("moe") marks every field under it.
        bool known = false;
        for (auto it = m_editors.cbegin(); it != m_editors.cend(); ++it)
            if (it.key() == issue.field || it.key().startsWith(issue.field + QLatin1Char('.'))) {
                if (!issue.field.isEmpty()) {
                    byField[it.key()] << issue.message;
                    known = true;
                }
            }
        if (!known)
            crossField << issue.message;
    }
    for (auto it = m_editors.cbegin(); it != m_editors.cend(); ++it) {
        const bool problem = byField.contains(it.key());
        it.value()->setStyleSheet(problem ? kProblemStyle : QString());
        QLabel* label = m_labels.value(it.key());
        label->setText(problem ? QStringLiteral("! ") + fieldLabel(it.key()) : fieldLabel(it.key()));
        label->setStyleSheet(problem ? QStringLiteral("font-weight:bold;") : QString());
    }
    if (m_issues.isEmpty()) {
        m_status->setText(tr("✔ Complete: every field is present and valid; runs using this record can be compared."));
        m_issuesScroll->hide();
    } else {
        m_status->setText(tr("! Incomplete: %n field(s) missing or invalid. Any comparison that includes a run "
                             "with this record is refused until they are fixed.",
                             "", int(m_issues.size())));
        QString html = tr("<b>Missing or invalid — fix these first:</b><ul style='margin:0'>");
        for (const auto& issue : m_issues)
            html += QStringLiteral("<li><b>%1</b> — %2</li>")
                        .arg((issue.field.isEmpty() ? tr("(record)") : issue.field).toHtmlEscaped(),
                             issue.message.toHtmlEscaped());
        html += QStringLiteral("</ul>");
        m_issuesLabel->setText(html);
        m_issuesScroll->show();
    }
    m_save->setText(m_modified ? tr("Save *") : tr("Save"));
    updateComparison();
}

void RecordEditor::updateComparison() {
    if (!m_project || m_name.isEmpty()) {
        m_comparison->clear();
        return;
    }
    QList<record::ComparisonRun> runs;
    QStringList mine;
    for (const auto& run : m_project->runs()) {
        if (run.recordName != m_name)
            continue;
        mine << run.name;
        // The form as it is now, so a fix shows its effect before Save.
        runs.append({run.name, record::ConfigRecord::fromJson(currentJson(), nullptr)});
    }
    if (mine.isEmpty()) {
        m_comparison->setText(m_issues.isEmpty()
                                  ? tr("No runs use this record yet.")
                                  : tr("No runs use this record yet; once they do, comparisons including them are "
                                       "blocked until the fields above are filled."));
        return;
    }
    const record::ComparisonPlan plan = record::planComparison(runs);
    if (plan.refused) {
        // The runs here all share this record, so what blocks them is the list above.
        QStringList fields;
        for (const auto& run : plan.blocking)
            for (const auto& issue : run.issues)
                if (!fields.contains(issue.field) && !issue.field.isEmpty())
                    fields << issue.field;
        m_comparison->setText(tr("✖ Comparisons blocked for %n run(s) using this record (%1) until these are "
                                 "filled: %2.",
                                 "", int(mine.size()))
                                  .arg(mine.join(QStringLiteral(", ")), fields.join(QStringLiteral(", "))));
        m_comparison->setToolTip(plan.refusalText());
    }
    else
        m_comparison->setText(tr("Runs using this record (%1): %2. They can be compared.")
                                  .arg(mine.size())
                                  .arg(mine.join(QStringLiteral(", "))));
}

QString RecordEditor::statusText() const { return m_status->text(); }
QString RecordEditor::issuesText() const { return m_issuesScroll->isVisibleTo(this) ? m_issuesLabel->text() : QString(); }
QString RecordEditor::comparisonText() const { return m_comparison->text(); }

bool RecordEditor::save(QString* error) {
    if (!m_project || m_name.isEmpty()) {
        if (error)
            *error = tr("No record is open.");
        return false;
    }
    const QJsonObject json = currentJson();
    const bool complete = record::validateJson(json).isEmpty();
    auto saved = m_project->updateConfigRecord(m_name, json, complete);
    if (!saved) {
        if (error)
            *error = saved.error().text();
        return false;
    }
    m_original = json;
    m_modified = false;
    revalidate();
    emit statusMessage(complete ? tr("Saved %1: complete.").arg(m_name)
                                : tr("Saved %1: still %n field(s) missing or invalid.", "", int(m_issues.size()))
                                      .arg(m_name));
    emit recordSaved(m_name);
    return true;
}

bool RecordEditor::createRecord(const QString& rawName, bool duplicate, QString* error) {
    const QString name = rawName.trimmed();
    if (!m_project || name.isEmpty()) {
        if (error)
            *error = m_project ? tr("A record needs a name.") : tr("No project is open.");
        return false;
    }
    QJsonObject json;
    if (duplicate && !m_name.isEmpty())
        json = currentJson();
    json.insert(QStringLiteral("format_version"), record::kRecordFormatVersion);
    json.insert(QStringLiteral("name"), name);
    auto added = m_project->addConfigRecord(name, json, record::validateJson(json).isEmpty());
    if (!added) {
        if (error)
            *error = added.error().text();
        return false;
    }
    emit recordCreated(name);
    return showRecord(name);
}

void RecordEditor::askNewRecord(bool duplicate) {
    bool ok = false;
    const QString suggestion = duplicate && !m_name.isEmpty() ? m_name + QStringLiteral("-copy") : QString();
    const QString name = QInputDialog::getText(this, duplicate ? tr("Duplicate config record") : tr("New config record"),
                                               tr("Name of the new record:"), QLineEdit::Normal, suggestion, &ok);
    if (!ok)
        return;
    QString error;
    if (!createRecord(name, duplicate, &error))
        QMessageBox::warning(this, tr("New config record"), error);
}

bool RecordEditor::fillFromCluster(const QString& clusterName, QString* notes) {
    if (!m_project || m_name.isEmpty()) {
        if (notes)
            *notes = tr("No record is open.");
        return false;
    }
    std::optional<store::ClusterRow> cluster;
    for (const auto& c : m_project->clusters())
        if (c.name == clusterName)
            cluster = c;
    if (!cluster) {
        if (notes)
            *notes = tr("No cluster named \"%1\" in this project.").arg(clusterName);
        return false;
    }
    const InventoryFill fill = fillFromInventory(m_project->nodes(cluster->id));
    if (fill.values.isEmpty()) {
        if (notes)
            *notes = fill.notes.join(QLatin1Char(' '));
        return false;
    }
    QStringList filled;
    m_loading = true;
    for (auto it = fill.values.cbegin(); it != fill.values.cend(); ++it) {
        setFieldText(it.key(), textFromValue(it.value()));
        filled << it.key();
    }
    m_loading = false;
    m_modified = true;
    revalidate();
    if (notes)
        *notes = tr("Filled from cluster %1: %2. %3 Review, then Save.")
                     .arg(clusterName, filled.join(QStringLiteral(", ")), fill.notes.join(QLatin1Char(' ')));
    return true;
}

} // namespace moewb::gui
