#include "AssessmentView.h"

#include "assessment/ProjectEvidence.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSet>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>

namespace moewb::gui {

namespace {

QLabel* wrappedLabel(const QString& text, QWidget* parent, bool muted = false) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (muted)
        l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

QString runKey(const QString& name) {
    return QStringLiteral("run:") + name;
}
QString stageKey(int stage) {
    return QStringLiteral("stage:%1").arg(stage);
}
QString linkKey(const store::EvidenceLink& e) {
    return e.kind == store::EvidenceKind::Run ? runKey(e.run) : stageKey(e.stage);
}

} // namespace

AssessmentView::AssessmentView(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    auto* title = new QLabel(tr("Assessment sheet"), this);
    QFont f = title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    title->setFont(f);
    outer->addWidget(title);
    outer->addWidget(wrappedLabel(tr("The ten review dimensions, applied to the team's MoE training plan and this "
                                     "evaluation. Under each, \"From the project\" is what the project's records, "
                                     "runs and verdicts show; rate each dimension, write what you found and link "
                                     "the runs and stages that show it. The sheet and the cost estimate are printed "
                                     "in the PDF report."),
                                  this, true));

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* page = new QWidget(scroll);
    auto* column = new QVBoxLayout(page);

    const QList<assessment::Dimension> dims = assessment::dimensions();
    for (int i = 0; i < dims.size(); ++i) {
        const assessment::Dimension& d = dims[i];
        auto* box = new QGroupBox(QStringLiteral("%1. %2").arg(i + 1).arg(d.title), page);
        box->setObjectName(QStringLiteral("dimension-") + d.key);
        auto* grid = new QHBoxLayout(box);
        auto* left = new QVBoxLayout;
        left->addWidget(wrappedLabel(tr("Core question: %1").arg(d.question), box));
        left->addWidget(wrappedLabel(tr("Verification: %1").arg(d.method), box, true));
        DimensionWidgets w;
        w.fromProject = new QLabel(box);
        w.fromProject->setObjectName(QStringLiteral("projectEvidence-") + d.key);
        w.fromProject->setWordWrap(true);
        w.fromProject->setTextFormat(Qt::RichText);
        w.fromProject->setTextInteractionFlags(Qt::TextSelectableByMouse);
        left->addWidget(w.fromProject);
        auto* form = new QFormLayout;
        w.rating = new QComboBox(box);
        for (assessment::Rating r : assessment::allRatings())
            w.rating->addItem(assessment::ratingTitle(r), assessment::ratingToken(r));
        form->addRow(tr("Rating"), w.rating);
        w.notes = new QPlainTextEdit(box);
        w.notes->setPlaceholderText(tr("What the evidence shows, and its limits"));
        w.notes->setTabChangesFocus(true); // Tab moves on, never types a tab
        w.notes->setMaximumHeight(w.notes->fontMetrics().lineSpacing() * 4 + 12);
        form->addRow(tr("Notes"), w.notes);
        left->addLayout(form);
        grid->addLayout(left, 3);
        auto* right = new QVBoxLayout;
        right->addWidget(new QLabel(tr("Evidence"), box));
        w.evidence = new QListWidget(box);
        w.evidence->setMaximumHeight(w.notes->maximumHeight() + 60);
        w.evidence->setToolTip(tr("Tick the runs and stages that support this rating"));
        right->addWidget(w.evidence);
        grid->addLayout(right, 2);
        column->addWidget(box);

        connect(w.rating, &QComboBox::currentIndexChanged, this, [this]() { setModified(true); });
        connect(w.notes, &QPlainTextEdit::textChanged, this, [this]() { setModified(true); });
        connect(w.evidence, &QListWidget::itemChanged, this, [this]() { setModified(true); });
        m_dims.append(w);
    }

    auto* costBox = new QGroupBox(tr("Cost estimate"), page);
    auto* costLayout = new QVBoxLayout(costBox);
    costLayout->addWidget(wrappedLabel(
        tr("Not a single number: name what drives each cost."), costBox, true));
    const QList<assessment::CostCategory> cats = assessment::costCategories();
    m_costs = new QTableWidget(int(cats.size()), 3, costBox);
    m_costs->setHorizontalHeaderLabels({tr("Estimate"), tr("Cost drivers"), tr("Notes")});
    m_costs->setTabKeyNavigation(false); // Tab would wrap round the cells: arrows move, F2 edits
    QStringList rows;
    for (int i = 0; i < cats.size(); ++i) {
        rows << cats[i].title;
        auto* header = new QTableWidgetItem(cats[i].title);
        header->setToolTip(cats[i].guidance);
        m_costs->setVerticalHeaderItem(i, header);
    }
    m_costs->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_costs->setWordWrap(true);
    m_costs->setMinimumHeight(m_costs->verticalHeader()->defaultSectionSize() * int(cats.size() + 1) + 8);
    costLayout->addWidget(m_costs);
    column->addWidget(costBox);
    connect(m_costs, &QTableWidget::itemChanged, this, [this]() { setModified(true); });
    column->addStretch(1);
    scroll->setWidget(page);
    outer->addWidget(scroll, 1);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Assessed by"), this));
    m_author = new QLineEdit(this);
    m_author->setPlaceholderText(tr("name"));
    m_author->setMaximumWidth(240);
    connect(m_author, &QLineEdit::textEdited, this, [this]() { setModified(true); });
    bar->addWidget(m_author);
    m_status = new QLabel(this);
    bar->addWidget(m_status, 1);
    m_revert = new QPushButton(tr("Revert"), this);
    m_save = new QPushButton(tr("Save"), this);
    m_save->setDefault(true);
    connect(m_revert, &QPushButton::clicked, this, &AssessmentView::revert);
    connect(m_save, &QPushButton::clicked, this, [this]() { save(); });
    bar->addWidget(m_revert);
    bar->addWidget(m_save);
    outer->addLayout(bar);
    showAssessment(nullptr);
}

void AssessmentView::showAssessment(store::ProjectStore* project) {
    m_project = project;
    m_loaded = project ? assessment::loadSheet(*project) : assessment::emptySheet();
    fill(m_loaded);
    fillProjectEvidence();
    setEnabled(project != nullptr);
    m_status->setText(!project ? tr("No project open")
                      : m_loaded.updated.isValid()
                          ? tr("Last saved %1").arg(QLocale().toString(m_loaded.updated.toLocalTime(),
                                                                       QLocale::ShortFormat))
                          : tr("Not saved yet"));
}

void AssessmentView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    fillProjectEvidence();
}

void AssessmentView::fillProjectEvidence() {
    const QList<assessment::ProjectEvidence> evidence =
        m_project ? assessment::projectEvidence(*m_project) : QList<assessment::ProjectEvidence>{};
    for (int i = 0; i < m_dims.size(); ++i) {
        const QStringList lines = i < evidence.size() ? evidence[i].lines : QStringList();
        QLabel* label = m_dims[i].fromProject;
        if (lines.isEmpty()) {
            label->setText(tr("<i>From the project: nothing the workbench measures speaks to this — it is for the "
                              "team to fill.</i>"));
            continue;
        }
        QString html = tr("<b>From the project:</b>") + QStringLiteral("<ul style=\"margin-top:0px; margin-bottom:0px;\">");
        for (const QString& l : lines)
            html += QStringLiteral("<li>%1</li>").arg(l.toHtmlEscaped());
        label->setText(html + QStringLiteral("</ul>"));
    }
}

void AssessmentView::fill(const assessment::Sheet& sheet) {
    m_filling = true;
    // The runs a dimension may link: all of a project of up to kEvidenceRuns; of a larger
    // one (100,000 runs would be a million list items), the newest kEvidenceRuns and those
    // a dimension links already, with a line saying how many are left out.
    constexpr qsizetype kEvidenceRuns = 200;
    QStringList runs;
    if (m_project)
        for (const store::RunRow& r : m_project->runs())
            runs << r.name;
    const qsizetype newestFrom = std::max<qsizetype>(0, runs.size() - kEvidenceRuns);
    for (int i = 0; i < m_dims.size() && i < sheet.dimensions.size(); ++i) {
        const assessment::DimensionEntry& e = sheet.dimensions[i];
        DimensionWidgets& w = m_dims[i];
        w.rating->setCurrentIndex(std::max(0, w.rating->findData(assessment::ratingToken(e.rating))));
        w.notes->setPlainText(e.notes);
        w.evidence->clear();
        QSet<QString> linked;
        for (const store::EvidenceLink& l : e.evidence)
            linked.insert(linkKey(l));
        auto add = [&](const QString& text, const QString& key) {
            auto* item = new QListWidgetItem(text, w.evidence);
            item->setData(Qt::UserRole, key);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(linked.contains(key) ? Qt::Checked : Qt::Unchecked);
        };
        qsizetype leftOut = 0;
        for (qsizetype k = 0; k < runs.size(); ++k) {
            if (k < newestFrom && !linked.contains(runKey(runs[k]))) {
                ++leftOut;
                continue;
            }
            add(tr("Run %1").arg(runs[k]), runKey(runs[k]));
        }
        if (leftOut > 0) {
            auto* more = new QListWidgetItem(tr("%n older run(s) not listed", "", int(leftOut)), w.evidence);
            more->setFlags(Qt::NoItemFlags);
        }
        for (int s = 1; s <= 4; ++s)
            add(tr("Stage %1").arg(s), stageKey(s));
    }
    for (int i = 0; i < m_costs->rowCount() && i < sheet.costs.size(); ++i) {
        const assessment::CostEntry& c = sheet.costs[i];
        const QString texts[] = {c.estimate, c.drivers, c.notes};
        for (int col = 0; col < 3; ++col)
            m_costs->setItem(i, col, new QTableWidgetItem(texts[col]));
    }
    m_costs->resizeRowsToContents();
    m_author->setText(sheet.author);
    m_filling = false;
    setModified(false);
}

assessment::Sheet AssessmentView::currentSheet() const {
    assessment::Sheet s = assessment::emptySheet();
    s.author = m_author->text().trimmed();
    s.updated = m_loaded.updated;
    for (int i = 0; i < m_dims.size() && i < s.dimensions.size(); ++i) {
        const DimensionWidgets& w = m_dims[i];
        assessment::DimensionEntry& e = s.dimensions[i];
        e.rating = assessment::ratingFromToken(w.rating->currentData().toString())
                       .value_or(assessment::Rating::NotRated);
        e.notes = w.notes->toPlainText().trimmed();
        for (int row = 0; row < w.evidence->count(); ++row) {
            const QListWidgetItem* item = w.evidence->item(row);
            if (item->checkState() != Qt::Checked)
                continue;
            const QString key = item->data(Qt::UserRole).toString();
            store::EvidenceLink link;
            if (key.startsWith(QLatin1String("run:"))) {
                link.kind = store::EvidenceKind::Run;
                link.run = key.mid(4);
            } else {
                link.kind = store::EvidenceKind::Stage;
                link.stage = key.mid(6).toInt();
            }
            // Keep a note the link had (the report prints it).
            if (i < m_loaded.dimensions.size())
                for (const store::EvidenceLink& old : m_loaded.dimensions[i].evidence)
                    if (linkKey(old) == key)
                        link.note = old.note;
            e.evidence << link;
        }
    }
    for (int i = 0; i < m_costs->rowCount() && i < s.costs.size(); ++i) {
        auto text = [&](int col) {
            const QTableWidgetItem* item = m_costs->item(i, col);
            return item ? item->text().trimmed() : QString();
        };
        s.costs[i].estimate = text(0);
        s.costs[i].drivers = text(1);
        s.costs[i].notes = text(2);
    }
    return s;
}

bool AssessmentView::save() {
    if (!m_project)
        return false;
    const auto written = assessment::saveSheet(*m_project, currentSheet());
    if (!written) {
        m_status->setText(tr("Not saved: %1").arg(written.error().message));
        return false;
    }
    showAssessment(m_project);
    m_status->setText(tr("Saved"));
    emit saved();
    return true;
}

void AssessmentView::revert() {
    showAssessment(m_project);
}

void AssessmentView::setModified(bool modified) {
    if (m_filling)
        return;
    m_save->setEnabled(modified);
    m_revert->setEnabled(modified);
    if (modified != m_modified) {
        m_modified = modified;
        emit modifiedChanged(modified);
    }
}

} // namespace moewb::gui
