#include "StageWidgets.h"

#include "common/Units.h"

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
#include <QResizeEvent>
#include <QLabel>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStyle>
#include <QTextBoundaryFinder>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

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

namespace {
QTableWidgetItem* formattedCell(std::optional<double> value, QString (*format)(double)) {
    if (value && !std::isfinite(*value))
        value.reset();
    return new NumberCell(value, value ? format(*value) : QStringLiteral("–"));
}
} // namespace

QTableWidgetItem* percentCell(std::optional<double> fraction) {
    return formattedCell(fraction, [](double v) { return units::formatPercent(v); });
}

QTableWidgetItem* ratioCell(std::optional<double> ratio) {
    return formattedCell(ratio, [](double v) { return units::formatRatio(v); });
}

QTableWidgetItem* integerCell(std::optional<double> value) {
    return formattedCell(value, [](double v) { return units::formatInteger(v); });
}

ResultTable::ResultTable(const QStringList& headers, QWidget* parent) : QTableWidget(parent) {
    setColumnCount(int(headers.size()));
    setHorizontalHeaderLabels(headers);
    // Never sideways scrolling: columns share the width the table has (fitColumns),
    // long text elides, the cell's tooltip has it whole.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // fitColumns gives the last column what is left over (a stretched last section
    // would be resized by the header itself, behind fitColumns' back).
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setTextElideMode(Qt::ElideRight);
    // A header too long for its column wraps at its spaces (fitColumns) rather than elide.
    horizontalHeader()->setDefaultAlignment(Qt::Alignment::fromInt(Qt::AlignCenter | Qt::TextWordWrap));
    viewport()->installEventFilter(this);
    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting) // a column the user resized
            fitHeaderHeight();
    });
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setTextElideMode(Qt::ElideRight);
    setWordWrap(false);
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

namespace {

// The widest piece of a header between two places a line may break (spaces, and
// between Chinese characters): the narrowest it can wrap to.
int widestWord(const QFontMetrics& fm, const QString& text) {
    QTextBoundaryFinder breaks(QTextBoundaryFinder::Line, text);
    int widest = 0;
    qsizetype from = 0;
    while (breaks.toNextBoundary() >= 0) {
        const qsizetype to = breaks.position();
        widest = std::max(widest, fm.horizontalAdvance(text.mid(from, to - from).trimmed()));
        from = to;
    }
    return widest;
}

} // namespace

void ResultTable::fitColumns() {
    // A taller header can bring the vertical scroll bar, which narrows the viewport
    // while the columns are being set: fit again, after this pass, for the new width.
    if (m_fitting) {
        m_refit = true;
        return;
    }
    m_fitting = true;
    for (int pass = 0; pass < 3; ++pass) {
        m_refit = false;
        fitColumnsOnce();
        if (!m_refit)
            break;
    }
    m_fitting = false;
}

void ResultTable::fitColumnsOnce() {
    const int avail = viewport()->width();
    const int n = columnCount();
    if (avail <= 0 || n == 0)
        return;
    QHeaderView* header = horizontalHeader();
    const QFontMetrics headerFont(header->font());
    // What a header's text gives up to its frame: margins both sides and the sort arrow.
    const int headerChrome = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 16;
    QList<int> want(n), cells(n);
    int total = 0;
    for (int c = 0; c < n; ++c) {
        cells[c] = sizeHintForColumn(c) + 6;
        want[c] = std::max(cells[c], header->sectionSizeHint(c) + 6);
        total += want[c];
    }
    // Too wide with one-line headers: every column is capped at one common width, the
    // largest that fits, but never below its floor (its header's widest unbreakable
    // piece, so headers wrap rather than cut, and a few characters of its cells): the
    // widest columns give up room first, long headers wrap, long text elides (its
    // tooltip has it whole).
    if (total > avail) {
        QList<int> floor(n);
        for (int c = 0; c < n; ++c) {
            const QTableWidgetItem* h = horizontalHeaderItem(c);
            floor[c] = std::max(std::min(48, cells[c]), h ? widestWord(headerFont, h->text()) + headerChrome + 6 : 0);
        }
        const auto widthsAt = [&](int cap) {
            int sum = 0;
            for (int c = 0; c < n; ++c)
                sum += std::max(floor[c], std::min(want[c], cap));
            return sum;
        };
        // The largest cap that fits (binary search; 0 when even the floors do not).
        int low = 0, high = *std::max_element(want.begin(), want.end());
        while (low < high) {
            const int mid = (low + high + 1) / 2;
            if (widthsAt(mid) <= avail)
                low = mid;
            else
                high = mid - 1;
        }
        total = 0;
        for (int c = 0; c < n; ++c) {
            want[c] = std::max(floor[c], std::min(want[c], low));
            total += want[c];
        }
    }
    // Still too wide: every column gives up the same share of its width, none below 48 px;
    // what the minimum adds back comes off the widest columns.
    const int minimum = std::min(48, avail / n);
    const double scale = total > avail ? double(avail) / total : 1.0;
    int sum = 0;
    for (int c = 0; c < n; ++c) {
        want[c] = std::max(minimum, int(want[c] * scale));
        sum += want[c];
    }
    while (sum > avail) {
        const auto widest = std::max_element(want.begin(), want.end());
        const int cut = std::min(sum - avail, *widest - minimum);
        if (cut <= 0)
            break;
        *widest -= std::max(1, std::min(cut, *widest / 4));
        sum = std::accumulate(want.begin(), want.end(), 0);
    }
    if (sum < avail)
        want[n - 1] += avail - sum;
    for (int c = 0; c < n; ++c)
        header->resizeSection(c, want[c]);
    fitHeaderHeight();
}

void ResultTable::fitHeaderHeight() {
    // The header grows to its most wrapped text (and back to one line when all fit),
    // whoever set the widths: fitColumns, the stretched last column, or the user.
    QHeaderView* header = horizontalHeader();
    const QFontMetrics headerFont(header->font());
    const int headerChrome = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 16;
    int textHeight = headerFont.height();
    for (int c = 0; c < columnCount(); ++c) {
        if (const QTableWidgetItem* h = horizontalHeaderItem(c)) {
            const QRect r = headerFont.boundingRect(QRect(0, 0, std::max(1, header->sectionSize(c) - headerChrome), 100000),
                                                    Qt::AlignCenter | Qt::TextWordWrap, h->text());
            textHeight = std::max(textHeight, r.height());
        }
    }
    const int height = header->sizeHint().height() + textHeight - headerFont.height();
    if (header->height() != height || m_headerHeight != height) {
        m_headerHeight = height;
        header->setFixedHeight(height);
        updateGeometries(); // the header and viewport take their new heights now
        fitHeight(m_maxRows);
    }
}

void ResultTable::resizeEvent(QResizeEvent* event) {
    QTableWidget::resizeEvent(event);
    fitColumns();
}

bool ResultTable::eventFilter(QObject* watched, QEvent* event) {
    // The viewport also narrows without the table resizing: a vertical scroll bar
    // appearing (more rows, or a taller wrapped header).
    if (watched == viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QTableWidget::eventFilter(watched, event);
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
    const int headerHeight = m_headerHeight > 0 ? m_headerHeight : horizontalHeader()->sizeHint().height();
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
