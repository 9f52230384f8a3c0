#include "StageFrame.h"

#include <QLabel>
#include <QVBoxLayout>

namespace moewb::gui {

StageFrame::StageFrame(int stage, QWidget* page, QWidget* parent) : QWidget(parent), m_stage(stage), m_page(page) {
    setObjectName(QStringLiteral("stageFrame%1").arg(stage));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("stageGateBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setMargin(8);
    layout->addWidget(m_banner);
    if (m_page) {
        m_page->setParent(this);
        layout->addWidget(m_page, 1);
    } else {
        layout->addStretch(1);
    }
}

void StageFrame::setState(const StageState& state) {
    m_locked = state.kind == StageState::Kind::Locked;
    QString head = tr("Stage %1 · %2 — %3 %4").arg(m_stage).arg(stageName(m_stage), state.icon, state.words);
    QString body = state.detail.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    m_banner->setText(QStringLiteral("<b>%1</b><br>%2").arg(head.toHtmlEscaped(), body));
    // Locked: a light amber box (Okabe–Ito orange, light), words first.
    m_banner->setStyleSheet(m_locked ? QStringLiteral("background:#FBE3B8; border-bottom:1px solid #E69F00;")
                                     : QStringLiteral("border-bottom:1px solid palette(mid);"));
    // Above a page only for a frame without one: a stage page states its own lock
    // and what unlocks it, once (its "lockLabel").
    m_banner->setVisible(!m_page);
}

QString StageFrame::bannerText() const { return m_banner->text(); }

} // namespace moewb::gui
