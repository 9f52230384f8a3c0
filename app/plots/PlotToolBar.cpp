#include "PlotToolBar.h"

#include "PlotView.h"
#include "plotspec/StagePlots.h"

#include <QHBoxLayout>
#include <QMenu>
#include <QToolButton>

namespace moewb::plots {

namespace {
QToolButton* toolButton(const QString& text, const QString& objectName, QWidget* parent) {
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setObjectName(objectName);
    b->setAutoRaise(true);
    QFont f = b->font(); // one slim row: the plot keeps the height
    f.setPointSizeF(f.pointSizeF() * 0.9);
    b->setFont(f);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // The mouse's way; the keyboard reaches the same from the plot (Shift+F10, its menu),
    // so Tab does not stop three more times at every plot.
    b->setFocusPolicy(Qt::NoFocus);
    return b;
}
} // namespace

// The words the context menu has (PlotView's) are its own here too.
PlotToolBar::PlotToolBar(PlotView* view) : QWidget(view), m_view(view) {
    setObjectName(QStringLiteral("plotToolBar"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(2);
    row->addStretch(1);
    m_logY = toolButton(tr("Log y"), QStringLiteral("plotLogYButton"), this);
    m_logY->setCheckable(true);
    m_logY->setToolTip(tr("Logarithmic y axis: a curve far below the others no longer sits flat at 0"));
    m_reset = toolButton(PlotView::tr("Reset view"), QStringLiteral("plotResetButton"), this);
    m_reset->setToolTip(tr("Back to the whole plot (or double-click it)"));
    m_export = toolButton(tr("Export"), QStringLiteral("plotExportButton"), this);
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_export);
    menu->addAction(PlotView::tr("Copy image"), m_view, &PlotView::copyToClipboard);
    menu->addAction(PlotView::tr("Export PNG…"), m_view, [this] { m_view->exportWithDialog(QStringLiteral("png")); });
    menu->addAction(PlotView::tr("Export PDF…"), m_view, [this] { m_view->exportWithDialog(QStringLiteral("pdf")); });
    menu->addAction(PlotView::tr("Export CSV…"), m_view, [this] { m_view->exportWithDialog(QStringLiteral("csv")); });
    m_export->setMenu(menu);
    row->addWidget(m_logY);
    row->addWidget(m_reset);
    row->addWidget(m_export);
    connect(m_logY, &QToolButton::toggled, m_view, &PlotView::setLogY);
    connect(m_reset, &QToolButton::clicked, m_view, &PlotView::resetView);
}

void PlotToolBar::sync() {
    const bool hasData = !isEmpty(m_view->spec());
    m_logY->setVisible(m_view->offersLogY());
    {
        const QSignalBlocker block(m_logY);
        m_logY->setChecked(m_view->isLogY());
    }
    m_reset->setEnabled(hasData);
    m_export->setEnabled(hasData);
}

} // namespace moewb::plots
