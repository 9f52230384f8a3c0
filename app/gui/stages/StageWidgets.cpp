#include "StageWidgets.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

NumberCell::NumberCell(std::optional<double> value, const QString& text)
    : QTableWidgetItem(text), m_value(value) {
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

bool NumberCell::operator<(const QTableWidgetItem& other) const {
    if (const auto* n = dynamic_cast<const NumberCell*>(&other)) {
        if (!m_value || !n->m_value)
            return m_value.has_value() && !n->m_value.has_value();
        return *m_value < *n->m_value;
    }
    return QTableWidgetItem::operator<(other);
}

QTableWidgetItem* textCell(const QString& text) {
    return new QTableWidgetItem(text);
}

QTableWidgetItem* numberCell(std::optional<double> value, int decimals) {
    if (value && !std::isfinite(*value))
        value.reset();
    return new NumberCell(value, value ? QString::number(*value, 'f', decimals) : QStringLiteral("–"));
}

ResultTable::ResultTable(const QStringList& headers, QWidget* parent) : QTableWidget(parent) {
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->setVisible(false);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setAlternatingRowColors(true);
    setSortingEnabled(true);
    // Read-only: the arrows move between cells, Tab moves on to the next control.
    setTabKeyNavigation(false);
    setToolTip(tr("Click a header to sort; Ctrl+C copies the selected rows as TSV."));
}

void ResultTable::beginRows() {
    setSortingEnabled(false);
    clearContents();
    setRowCount(0);
}

void ResultTable::addRow(const QList<QTableWidgetItem*>& cells) {
    const int r = rowCount();
    insertRow(r);
    for (int c = 0; c < cells.size() && c < columnCount(); ++c)
        setItem(r, c, cells[c]);
}

void ResultTable::endRows() {
    setSortingEnabled(true);
    fitHeight();
}

void ResultTable::fitHeight(int maxRows) {
    const int rows = qMin(qMax(rowCount(), 1), maxRows);
    const int rowH = verticalHeader()->defaultSectionSize();
    // Room for the horizontal scroll bar, which wide tables show.
    setMinimumHeight(horizontalHeader()->sizeHint().height() + rows * rowH + 2 * frameWidth() + 4 +
                     horizontalScrollBar()->sizeHint().height());
    setMaximumHeight(minimumHeight());
}

QString ResultTable::toTsv() const {
    QStringList header;
    for (int c = 0; c < columnCount(); ++c)
        header << (horizontalHeaderItem(c) ? horizontalHeaderItem(c)->text() : QString());
    QString tsv = header.join(QLatin1Char('\t')) + QLatin1Char('\n');
    QList<int> rows;
    for (const QModelIndex& i : selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    if (rows.isEmpty())
        for (int r = 0; r < rowCount(); ++r)
            rows << r;
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < columnCount(); ++c)
            cells << (item(r, c) ? item(r, c)->text() : QString());
        tsv += cells.join(QLatin1Char('\t')) + QLatin1Char('\n');
    }
    return tsv;
}

void ResultTable::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(toTsv());
        event->accept();
        return;
    }
    QTableWidget::keyPressEvent(event);
}

CollapsibleSection::CollapsibleSection(const QString& title, QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_header = new QToolButton(this);
    m_header->setText(title);
    m_header->setCheckable(true);
    m_header->setChecked(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::DownArrow);
    m_header->setAutoRaise(true);
    QFont f = m_header->font();
    f.setBold(true);
    m_header->setFont(f);
    m_body = new QWidget(this);
    m_bodyLayout = new QVBoxLayout(m_body);
    m_bodyLayout->setContentsMargins(16, 0, 0, 0);
    layout->addWidget(m_header);
    layout->addWidget(m_body);
    connect(m_header, &QToolButton::toggled, this, &CollapsibleSection::setExpanded);
}

void CollapsibleSection::setExpanded(bool expanded) {
    m_header->setChecked(expanded);
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_body->setVisible(expanded);
}

bool CollapsibleSection::isExpanded() const {
    return m_header->isChecked();
}

OverrideDialog::OverrideDialog(int stage, const QStringList& stopReasons, QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("overrideDialog"));
    setWindowTitle(tr("Override stage %1's stop").arg(stage));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Stage %1 stopped. Going on anyway needs a written justification: it is kept with the stop, "
           "both go into the report, and stage %2 unlocks.")
            .arg(stage)
            .arg(stage + 1),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    if (!stopReasons.isEmpty()) {
        auto* reasons = new QLabel(QStringLiteral("• ") + stopReasons.join(QStringLiteral("\n• ")), this);
        reasons->setWordWrap(true);
        reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(reasons);
    }
    auto* form = new QFormLayout;
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("justification"));
    m_text->setPlaceholderText(tr("Why may the evaluation go on despite the stop? (required)"));
    m_text->setTabChangesFocus(true); // Tab moves on to the author, never types a tab
    m_author = new QLineEdit(qEnvironmentVariable("USER"), this);
    m_author->setObjectName(QStringLiteral("author"));
    form->addRow(tr("&Justification:"), m_text);
    form->addRow(tr("&Decided by:"), m_author);
    layout->addLayout(form);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("overrideError"));
    m_error->setWordWrap(true);
    m_error->hide();
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Override"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &OverrideDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &OverrideDialog::reject);
    // Tall enough for every wrapped stop reason at this width (large fonts, 200 %).
    resize(520, std::max(320, heightForWidth(520)));
}

QString OverrideDialog::justification() const {
    return m_text->toPlainText().trimmed();
}

QString OverrideDialog::author() const {
    return m_author->text().trimmed();
}

void OverrideDialog::accept() {
    if (justification().isEmpty()) {
        m_error->setText(tr("⚠ A justification is required: write why the evaluation may go on despite the stop."));
        m_error->show();
        m_text->setFocus();
        return;
    }
    QDialog::accept();
}

} // namespace moewb::gui
