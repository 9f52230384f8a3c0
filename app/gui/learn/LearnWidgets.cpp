#include "LearnWidgets.h"

#include <QLabel>
#include <QPalette>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>

namespace moewb::gui::learn {

QToolButton* makeInfoButton(const QString& text, QWidget* parent) {
    auto* b = new QToolButton(parent);
    // The style's information icon: the "ⓘ" glyph is missing from many fonts.
    b->setIcon(b->style()->standardIcon(QStyle::SP_MessageBoxInformation));
    b->setIconSize(QSize(14, 14));
    b->setText(QStringLiteral("ⓘ"));
    b->setToolButtonStyle(Qt::ToolButtonIconOnly);
    b->setAutoRaise(true);
    b->setCursor(Qt::WhatsThisCursor);
    b->setToolTip(text);
    b->setWhatsThis(text);
    b->setAccessibleDescription(text);
    QObject::connect(b, &QToolButton::clicked, b, [b] {
        QToolTip::showText(b->mapToGlobal(QPoint(b->width(), b->height() / 2)), b->toolTip(), b);
    });
    return b;
}

QLabel* makeFigureLabel(const QString& name, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(name);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true); // long figures wrap instead of widening the column
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

void setFigure(QLabel* label, const QString& text, double value) {
    label->setText(text);
    label->setProperty("value", value);
}

QLabel* makeExplanation(const QString& text, QWidget* parent) {
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    QPalette p = l->palette();
    p.setColor(QPalette::WindowText, p.color(QPalette::Disabled, QPalette::WindowText).darker(130));
    l->setPalette(p);
    return l;
}

} // namespace moewb::gui::learn
