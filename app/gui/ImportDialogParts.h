#pragma once
// Internal to ImportDialog.cpp and ImportDialogCheck.cpp: the status line that never
// widens the dialog, the plan table's columns, and how a dropped plan is freed.
#include "ImportJob.h"

#include <QLabel>
#include <QThreadPool>

#include <algorithm>
#include <utility>

namespace moewb::gui {

// One line of changing text (what the worker does now) that never widens the dialog: a
// long path is elided in the middle, the whole text is the tooltip.
class ElidedLabel : public QLabel {
public:
    using QLabel::QLabel;
    void setFullText(const QString& text) {
        m_full = text;
        setToolTip(text);
        updateText();
    }
    QString fullText() const { return m_full; }
    QSize sizeHint() const override {
        const QFontMetrics fm(font());
        return {std::min(fm.horizontalAdvance(text()), fm.averageCharWidth() * 30),
                QLabel::sizeHint().height()};
    }
    QSize minimumSizeHint() const override { return {0, QLabel::minimumSizeHint().height()}; }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        updateText();
    }

private:
    void updateText() { setText(fontMetrics().elidedText(m_full, Qt::ElideMiddle, std::max(width(), 20))); }
    QString m_full;
};

enum Column { ColFile, ColFormat, ColRows, ColRole, ColumnCount };

// A plan holds every block of expert load (a 4,000-step, 32-layer run: 128,000 small
// arrays): freeing it takes milliseconds, so the last reference goes on a pool thread.
inline void disposeInBackground(ImportPlanPtr plan) {
    if (plan)
        QThreadPool::globalInstance()->start([p = std::move(plan)]() mutable { p.reset(); });
}

} // namespace moewb::gui
