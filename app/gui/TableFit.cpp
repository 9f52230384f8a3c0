#include "TableFit.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>
#include <QTextBoundaryFinder>

#include <algorithm>
#include <numeric>

namespace moewb::gui {

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

// What a header's text gives up to its frame: margins both sides and the sort arrow.
int headerChrome(const QHeaderView* header) {
    return 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 16;
}

} // namespace

TableFit::TableFit(QTableWidget* table, QList<int> elastic) : QObject(table), m_table(table), m_elastic(std::move(elastic)) {
    QHeaderView* header = table->horizontalHeader();
    // The last column takes what is left over here (a stretched last section would be
    // resized by the header itself, behind fit()'s back).
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setTextElideMode(Qt::ElideRight);
    // A header too long for its column wraps at its spaces rather than elide.
    header->setDefaultAlignment(Qt::Alignment::fromInt(Qt::AlignCenter | Qt::TextWordWrap));
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Names keep their start and their end (where runs differ); the tooltip has them whole.
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false);
    table->installEventFilter(this);
    table->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting) // a column the user resized
            fitHeaderHeight();
    });
}

bool TableFit::eventFilter(QObject* watched, QEvent* event) {
    // The table resized, or its viewport alone: a vertical scroll bar appearing (more
    // rows, or a taller wrapped header).
    if ((watched == m_table || watched == m_table->viewport()) && event->type() == QEvent::Resize)
        fit();
    return QObject::eventFilter(watched, event);
}

void TableFit::fit() {
    // A taller header can bring the vertical scroll bar, which narrows the viewport
    // while the columns are being set: fit again, after this pass, for the new width.
    if (m_fitting) {
        m_refit = true;
        return;
    }
    m_fitting = true;
    for (int pass = 0; pass < 3; ++pass) {
        m_refit = false;
        fitOnce();
        if (!m_refit)
            break;
    }
    m_fitting = false;
}

void TableFit::fitOnce() {
    const int avail = m_table->viewport()->width();
    const int n = m_table->columnCount();
    if (avail <= 0 || n == 0)
        return;
    QHeaderView* header = m_table->horizontalHeader();
    const QFontMetrics headerFont(header->font());
    const auto* view = static_cast<const QAbstractItemView*>(m_table);
    QList<int> shown;
    QList<int> want(n, 0), cells(n, 0);
    int total = 0;
    for (int c = 0; c < n; ++c) {
        if (header->isSectionHidden(c))
            continue; // a hidden column takes nothing
        shown << c;
        cells[c] = view->sizeHintForColumn(c) + 6; // at most the first 1,000 rows measured
        want[c] = std::max(cells[c], header->sectionSizeHint(c) + 6);
        total += want[c];
    }
    if (shown.isEmpty())
        return;
    // Too wide with one-line headers: every column is capped at one common width, the
    // largest that fits, but never below its floor.
    if (total > avail) {
        QList<int> floor(n, 0);
        for (int c : std::as_const(shown)) {
            const QTableWidgetItem* h = m_table->horizontalHeaderItem(c);
            floor[c] = std::max(std::min(48, cells[c]),
                                h ? widestWord(headerFont, h->text()) + headerChrome(header) + 6 : 0);
        }
        // The first elastic column (the run's name) stays whole while the floors of the
        // others leave it room.
        if (!m_elastic.isEmpty() && shown.contains(m_elastic.first())) {
            const int first = m_elastic.first();
            int floors = 0;
            for (int c : std::as_const(shown))
                floors += c == first ? want[c] : floor[c];
            if (floors <= avail)
                floor[first] = want[first];
        }
        const auto widthsAt = [&](int cap) {
            int sum = 0;
            for (int c : std::as_const(shown))
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
        for (int c : std::as_const(shown)) {
            want[c] = std::max(floor[c], std::min(want[c], low));
            total += want[c];
        }
    }
    // Still too wide: every column gives up the same share of its width, none below 48 px;
    // what the minimum adds back comes off the widest columns.
    const int minimum = std::min(48, avail / int(shown.size()));
    const double scale = total > avail ? double(avail) / total : 1.0;
    int sum = 0;
    for (int c : std::as_const(shown)) {
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
    // Room left over: to the elastic columns shown, alike, or to the last column.
    if (sum < avail) {
        QList<int> elastic;
        for (int c : std::as_const(m_elastic))
            if (shown.contains(c))
                elastic << c;
        if (elastic.isEmpty())
            elastic << shown.last();
        const int extra = avail - sum;
        for (int i = 0; i < elastic.size(); ++i)
            want[elastic[i]] += extra / int(elastic.size()) + (i < extra % int(elastic.size()) ? 1 : 0);
    }
    for (int c : std::as_const(shown))
        header->resizeSection(c, want[c]);
    fitHeaderHeight();
}

void TableFit::fitHeaderHeight() {
    // The header grows to its most wrapped text (and back to one line when all fit),
    // whoever set the widths: fit() or the user.
    QHeaderView* header = m_table->horizontalHeader();
    const QFontMetrics headerFont(header->font());
    int textHeight = headerFont.height();
    for (int c = 0; c < m_table->columnCount(); ++c) {
        const QTableWidgetItem* h = m_table->horizontalHeaderItem(c);
        if (!h || header->isSectionHidden(c))
            continue;
        const QRect r = headerFont.boundingRect(
            QRect(0, 0, std::max(1, header->sectionSize(c) - headerChrome(header)), 100000),
            Qt::AlignCenter | Qt::TextWordWrap, h->text());
        textHeight = std::max(textHeight, r.height());
    }
    const int height = header->sizeHint().height() + textHeight - headerFont.height();
    if (header->height() != height || m_headerHeight != height) {
        m_headerHeight = height;
        header->setFixedHeight(height);
        // The header and viewport take their new heights now.
        QMetaObject::invokeMethod(m_table, "updateGeometries", Qt::DirectConnection);
        emit headerHeightChanged(height);
    }
}

} // namespace moewb::gui
