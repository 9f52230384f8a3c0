#pragma once
// The report's page layout (private to app/report): flowing paragraphs, tables,
// plots and headings on A4 pages with a footer, run twice over the same content —
// a dry pass that measures and counts pages, then the real pass that knows every
// section's page and the page total. ReportWriter.cpp composes the chapters with it.
#include "ReportData.h"
#include "ReportWriter.h"

#include "plots/PlotFont.h"
#include "plots/PlotRender.h"
#include "plotspec/StagePlots.h"

#include <QDateTime>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace moewb::report {

const QColor kInk(0x20, 0x20, 0x20);
const QColor kMuted(0x60, 0x60, 0x60);
const QColor kAccent(0x1f, 0x4e, 0x79);
const QColor kRule(0xb0, 0xb0, 0xb0);
const QColor kHeaderFill(0xe4, 0xea, 0xf1);
const QColor kStripe(0xf5, 0xf5, 0xf5);

inline QColor statusColour(const QString& token) {
    if (token == QLatin1String("pass"))
        return QColor(0x00, 0x7a, 0x3d);
    if (token == QLatin1String("stop"))
        return QColor(0xb0, 0x20, 0x20);
    return QColor(0x8a, 0x5a, 0x00);
}

inline QString utcText(const QDateTime& t) {
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")) : QStringLiteral("—");
}

struct TocEntry {
    int level = 1;
    QString text;
    int page = 0;
};

// Lays out flowing content on A4 pages. Run twice over the same content: a dry
// pass (no painter) that only measures and counts pages, then the real pass,
// which knows every section's page and the page total.
class PageFlow {
public:
    PageFlow(QPdfWriter* writer, QPainter* painter, const ReportOptions& options)
        : m_writer(writer), m_painter(painter), m_options(options) {
        const QRect area = writer->pageLayout().paintRectPixels(writer->resolution());
        m_width = area.width();
        m_height = area.height();
        m_px = writer->resolution() / 72.0; // device pixels per point
        m_body = font(9.5);
        m_small = font(8.0);
    }

    // The plots' typeface (plots/PlotFont.h): Chinese falls back to the Simplified
    // Chinese face (not the Japanese one, whose full-width punctuation sits centred).
    QFont font(double points, bool bold = false) const { return plots::uiFont(points, bold); }
    QFont mono(double points) const {
        QFont f(QStringLiteral("DejaVu Sans Mono"));
        f.setFamilies({QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Noto Sans Mono CJK SC")});
        f.setStyleHint(QFont::Monospace);
        f.setPointSizeF(points);
        return f;
    }
    double pt(double points) const { return points * m_px; }
    double width() const { return m_width; }
    double bottom() const { return m_height - pt(24); } // room for the footer
    double y() const { return m_y; }
    int page() const { return m_page; }
    bool dry() const { return m_painter == nullptr; }
    const QFont& body() const { return m_body; }
    const QFont& small() const { return m_small; }

    void setFooter(const QString& left, int totalPages) {
        m_footer = left;
        m_total = totalPages;
    }
    void setPageHook(std::function<bool(int)> hook) { m_pageHook = std::move(hook); }
    bool cancelled() const { return m_cancelled; }

    void newPage() {
        finishPage();
        if (m_painter)
            m_writer->newPage();
        ++m_page;
        m_y = 0;
        if (m_pageHook && !m_cancelled && !m_pageHook(m_page)) {
            m_cancelled = true;
            m_painter = nullptr; // finish the layout without painting: the file is discarded
        }
    }
    void finishPage() {
        if (!m_painter || m_footerDone == m_page)
            return;
        m_footerDone = m_page;
        m_painter->save();
        m_painter->setPen(QPen(kRule, pt(0.5)));
        const double fy = m_height - pt(16);
        m_painter->drawLine(QPointF(0, fy), QPointF(m_width, fy));
        m_painter->setFont(m_small);
        m_painter->setPen(kMuted);
        const QRectF r(0, fy + pt(3), m_width, pt(12));
        m_painter->drawText(r, Qt::AlignLeft | Qt::AlignTop, m_footer);
        m_painter->drawText(r, Qt::AlignRight | Qt::AlignTop,
                            m_total > 0 ? Report::tr("Page %1 of %2").arg(m_page).arg(m_total)
                                        : Report::tr("Page %1").arg(m_page));
        m_painter->restore();
    }
    void ensure(double h) {
        if (m_y > 0 && m_y + h > bottom())
            newPage();
    }
    void space(double points) {
        m_y += pt(points);
        if (m_y > bottom())
            newPage();
    }
    void moveTo(double y) { m_y = y; }

    // Lines of `text` wrapped to `w` (at word boundaries, anywhere for very long
    // words: nothing runs past the margin).
    std::unique_ptr<QTextLayout> layout(const QString& text, const QFont& f, double w) const {
        auto l = std::make_unique<QTextLayout>(text, f, m_writer);
        QTextOption o;
        o.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        l->setTextOption(o);
        l->beginLayout();
        double y = 0;
        for (;;) {
            QTextLine line = l->createLine();
            if (!line.isValid())
                break;
            line.setLineWidth(w);
            line.setPosition(QPointF(0, y));
            y += line.height();
        }
        l->endLayout();
        return l;
    }
    double textHeight(const QString& text, const QFont& f, double w) const {
        double h = 0;
        for (const QString& part : text.split(QLatin1Char('\n'))) {
            auto l = layout(part, f, w);
            for (int i = 0; i < l->lineCount(); ++i)
                h += l->lineAt(i).height();
        }
        return h;
    }
    // Draws a block at (x, y) without page breaks (table cells, labels).
    void drawBlock(const QString& text, const QFont& f, const QColor& colour, double x, double y, double w) {
        if (!m_painter)
            return;
        m_painter->setPen(colour);
        double dy = 0;
        for (const QString& part : text.split(QLatin1Char('\n'))) {
            auto l = layout(part, f, w);
            l->draw(m_painter, QPointF(x, y + dy));
            for (int i = 0; i < l->lineCount(); ++i)
                dy += l->lineAt(i).height();
        }
    }

    // A paragraph that breaks across pages line by line.
    void paragraph(const QString& text, const QFont& f, const QColor& colour = kInk, double indent = 0,
                   double after = 4) {
        const double w = m_width - indent;
        for (const QString& part : text.split(QLatin1Char('\n'))) {
            auto l = layout(part, f, w);
            for (int i = 0; i < l->lineCount(); ++i) {
                const QTextLine line = l->lineAt(i);
                ensure(line.height());
                if (m_painter) {
                    m_painter->setPen(colour);
                    line.draw(m_painter, QPointF(indent, m_y - line.y()));
                }
                m_y += line.height();
            }
        }
        space(after);
    }
    void bullets(const QStringList& items, const QFont& f, const QColor& colour = kInk) {
        const double indent = pt(12);
        for (const QString& item : items) {
            const double h = textHeight(item, f, m_width - indent);
            const double first = std::min(h, layoutFirstLine(item, f, m_width - indent));
            ensure(first);
            if (m_painter) {
                m_painter->setPen(colour);
                m_painter->setFont(f);
                m_painter->drawText(QPointF(pt(3), m_y + QFontMetricsF(f, m_writer).ascent()),
                                    QStringLiteral("•"));
            }
            paragraph(item, f, colour, indent, 2);
        }
        space(2);
    }
    double layoutFirstLine(const QString& text, const QFont& f, double w) const {
        auto l = layout(text.section(QLatin1Char('\n'), 0, 0), f, w);
        return l->lineCount() > 0 ? l->lineAt(0).height() : 0.0;
    }

    // Headings keep at least `keep` (device units; default 90 pt under a level 1
    // heading, 60 pt under the others) of what follows on their page.
    void heading(int level, const QString& text, QList<TocEntry>* toc, bool startPage = false, double keep = -1) {
        const QFont f = level == 1 ? font(15, true) : level == 2 ? font(12, true) : font(10, true);
        const double h = textHeight(text, f, m_width);
        // A chapter starts a page only when the page is already more than half full:
        // no page is left mostly empty where the next chapter would fit.
        if (startPage && m_y > bottom() * 0.5)
            newPage();
        else if (startPage && m_y > 0)
            space(18);
        else if (m_y > 0)
            space(level == 1 ? 10 : level == 2 ? 8 : 5);
        // (The space under the heading counts too: 3 pt, a level 1 heading's rule 8 pt.)
        ensure(h + (keep >= 0 ? keep + pt(level == 1 ? 8 : 3) : pt(level == 1 ? 90 : 60)));
        if (toc && level <= 2)
            toc->append({level, text, m_page});
        paragraph(text, f, level == 3 ? kInk : kAccent, 0, level == 1 ? 2 : 3);
        if (level == 1 && m_painter) {
            m_painter->setPen(QPen(kAccent, pt(0.8)));
            m_painter->drawLine(QPointF(0, m_y), QPointF(m_width, m_y));
        }
        if (level == 1)
            space(6);
    }

    void table(const ReportTable& t) {
        const int n = int(t.headers.size());
        if (n == 0) {
            if (!t.caption.isEmpty())
                paragraph(t.caption, font(9, true), kInk, 0, 2);
            return;
        }
        double total = 0;
        for (int i = 0; i < n; ++i)
            total += i < t.widths.size() ? t.widths[i] : 1.0;
        QList<double> w;
        for (int i = 0; i < n; ++i)
            w << m_width * (i < t.widths.size() ? t.widths[i] : 1.0) / total;
        const double pad = pt(2.5);
        const QFont headFont = font(8, true);
        const QFont cellFont = font(8);
        auto rowHeight = [&](const QStringList& cells, const QFont& f) {
            double h = 0;
            for (int i = 0; i < n; ++i)
                h = std::max(h, textHeight(i < cells.size() ? cells[i] : QString(), f, w[i] - 2 * pad));
            return h + 2 * pad;
        };
        auto drawRow = [&](const QStringList& cells, const QFont& f, double h, const QColor* fill) {
            if (m_painter) {
                if (fill)
                    m_painter->fillRect(QRectF(0, m_y, m_width, h), *fill);
                m_painter->setPen(QPen(kRule, pt(0.4)));
                m_painter->drawLine(QPointF(0, m_y + h), QPointF(m_width, m_y + h));
                double x = 0;
                for (int i = 0; i < n; ++i) {
                    drawBlock(i < cells.size() ? cells[i] : QString(), f, kInk, x + pad, m_y + pad, w[i] - 2 * pad);
                    x += w[i];
                }
            }
            m_y += h;
        };
        const double headH = rowHeight(t.headers, headFont);
        auto header = [&]() { drawRow(t.headers, headFont, headH, &kHeaderFill); };
        // The caption stays with the header and the first rows (up to three).
        if (!t.caption.isEmpty()) {
            double keep = textHeight(t.caption, font(9, true), m_width) + pt(2) + headH;
            for (qsizetype r = 0; r < std::min<qsizetype>(3, t.rows.size()); ++r)
                keep += rowHeight(t.rows[r], cellFont);
            ensure(std::min(keep, bottom() * 0.5));
            paragraph(t.caption, font(9, true), kInk, 0, 2);
        }
        if (t.rows.isEmpty()) {
            ensure(headH * 2);
            header();
            paragraph(Report::tr("(no rows)"), cellFont, kMuted, pad, 4);
            return;
        }
        ensure(headH + rowHeight(t.rows.first(), cellFont));
        header();
        for (qsizetype r = 0; r < t.rows.size(); ++r) {
            const double h = rowHeight(t.rows[r], cellFont);
            if (m_y + h > bottom()) {
                newPage();
                header(); // repeated on every page the table continues on
            }
            drawRow(t.rows[r], cellFont, h, r % 2 == 1 ? &kStripe : nullptr);
        }
        space(8);
    }

    // The height plot() gives a drawn plot (device units).
    double plotHeight() const { return std::min(m_width * 0.56, bottom() * 0.6); }
    // The least height a plot is drawn at where the page has less room than plotHeight().
    double minPlotHeight() const { return std::min(m_width * 0.4, bottom() * 0.42); }

    void plot(const plots::PlotSpec& spec) {
        if (plots::isEmpty(spec)) {
            paragraph(Report::tr("Plot \"%1\": no data to draw.").arg(spec.title), m_body, kMuted, 0, 4);
            return;
        }
        // Full height where it fits; else the room left on the page when that is at
        // least minPlotHeight (a page is not left half empty for a few millimetres).
        double h = plotHeight();
        const double room = bottom() - m_y;
        if (m_y > 0 && room < h && room >= minPlotHeight())
            h = room;
        ensure(h);
        const QRectF target(0, m_y, m_width, h);
        if (m_painter) {
            if (m_options.includePlots) {
                m_painter->save();
                plots::renderPlot(spec, m_painter, target);
                m_painter->restore();
            } else {
                m_painter->setPen(QPen(kRule, pt(0.5)));
                m_painter->drawRect(target);
                drawBlock(spec.title, m_body, kMuted, pt(6), m_y + pt(6), m_width - pt(12));
            }
        }
        m_y += h;
        space(8);
    }

private:
    QPdfWriter* m_writer;
    QPainter* m_painter;
    ReportOptions m_options;
    double m_width = 0, m_height = 0, m_px = 1;
    double m_y = 0;
    int m_page = 1;
    int m_footerDone = 0;
    int m_total = 0;
    QString m_footer;
    QFont m_body, m_small;
    std::function<bool(int)> m_pageHook;
    bool m_cancelled = false;
};

} // namespace moewb::report
