#include "StageWidgets.h"

#include "TableFit.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QPointer>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace moewb::gui {

namespace {
class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Wheel)
            return false;
        auto* w = qobject_cast<QWidget*>(watched);
        if (!w || w->hasFocus())
            return false;
        if (!qobject_cast<QAbstractSpinBox*>(w) && !qobject_cast<QAbstractSlider*>(w) &&
            !qobject_cast<QComboBox*>(w))
            return false;
        if (qobject_cast<QScrollBar*>(w))
            return false; // scroll bars are what the wheel is for
        // Hand the wheel to the scroll area around the control.
        for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
                QCoreApplication::sendEvent(area->viewport(), event);
                break;
            }
        return true;
    }
};
} // namespace

void installWheelGuard() {
    static QPointer<WheelGuard> guard;
    if (guard || !qApp)
        return;
    guard = new WheelGuard(qApp);
    qApp->installEventFilter(guard);
}

QTableWidgetItem* textCell(const QString& text) {
    return new QTableWidgetItem(text);
}

ResultTable::ResultTable(const QStringList& headers, QWidget* parent) : QTableWidget(parent) {
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    // Never sideways scrolling: columns share the width the table has (TableFit), long
    // text elides in the middle, the cell's tooltip has it whole. The first column (the
    // run, in every stage's tables) stays whole the longest and takes the room left over.
    m_fit = new TableFit(this, {0});
    connect(m_fit, &TableFit::headerHeightChanged, this, [this] { fitHeight(m_maxRows); });
    for (int c = 0; c < columnCount(); ++c)
        if (QTableWidgetItem* h = horizontalHeaderItem(c))
            h->setToolTip(h->text());
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
    for (int c = 0; c < cells.size() && c < columnCount(); ++c) {
        if (cells[c] && cells[c]->toolTip().isEmpty())
            cells[c]->setToolTip(cells[c]->text());
        setItem(r, c, cells[c]);
    }
}

void ResultTable::fitColumns() {
    m_fit->fit();
}

void ResultTable::endRows() {
    setSortingEnabled(true);
    fitColumns();
    fitHeight();
}

void ResultTable::fitHeight(int maxRows) {
    m_maxRows = maxRows;
    const int rows = qMin(qMax(rowCount(), 1), maxRows);
    const int rowH = verticalHeader()->defaultSectionSize();
    const int headerHeight = m_fit->headerHeight() > 0 ? m_fit->headerHeight() : horizontalHeader()->sizeHint().height();
    setMinimumHeight(headerHeight + rows * rowH + 2 * frameWidth() + 4);
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

OverrideDialog::OverrideDialog(int stage, const QStringList& stopReasons, QWidget* parent,
                               const QString& justification)
    : QDialog(parent) {
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
        // However many reasons: they scroll inside the dialog, whose buttons stay on screen.
        auto* reasons = new QLabel(QStringLiteral("• ") + stopReasons.join(QStringLiteral("\n• ")));
        reasons->setObjectName(QStringLiteral("overrideReasons"));
        reasons->setWordWrap(true);
        reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* scroll = new QScrollArea(this);
        scroll->setObjectName(QStringLiteral("overrideReasonsScroll"));
        scroll->setWidget(reasons);
        scroll->setWidgetResizable(true);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setFocusPolicy(Qt::NoFocus); // the justification takes the focus first
        layout->addWidget(scroll, 1);
        m_reasons = scroll;
    }
    auto* form = new QFormLayout;
    m_text = new QPlainTextEdit(justification, this);
    m_text->setObjectName(QStringLiteral("justification"));
    m_text->setPlaceholderText(tr("Why may the evaluation go on despite the stop? (required)"));
    m_text->setTabChangesFocus(true); // Tab moves on to the author, never types a tab
    // A few lines to write in; the height left over goes to the reasons above.
    m_text->setMinimumHeight(m_text->fontMetrics().lineSpacing() * 4);
    m_text->setMaximumHeight(m_text->fontMetrics().lineSpacing() * 7);
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
    fitToScreen();
}

void OverrideDialog::fitToScreen() {
    // As tall as the wrapped reasons want at this width (large fonts, 200 %), but never
    // taller than 85 % of the screen it opens on: the reasons scroll instead.
    constexpr int width = 560;
    int wanted = 320;
    if (m_reasons) {
        auto* reasons = static_cast<QScrollArea*>(m_reasons)->widget();
        const int reasonsH = reasons->heightForWidth(width - 40);
        wanted = std::max(wanted, sizeHint().height() - m_reasons->sizeHint().height() + reasonsH + 8);
    } else {
        wanted = std::max(wanted, heightForWidth(width));
    }
    const QScreen* screen = parentWidget() ? parentWidget()->screen() : QGuiApplication::primaryScreen();
    const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1366, 768);
    const int maxH = avail.height() * 85 / 100;
    setMaximumHeight(maxH);
    resize(std::min(width, avail.width() * 9 / 10), std::min(wanted, maxH));
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
