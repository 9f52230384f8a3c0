#pragma once
// Small pieces both Learn pages use: an ⓘ button that shows its teaching text, a figure
// label that also carries its number (tests read the "value" property), and a wrapped,
// muted explanation paragraph.
#include <QString>

class QLabel;
class QToolButton;
class QWidget;

namespace moewb::gui::learn {

// "ⓘ": the tooltip is the text; a click shows it at once (no hover needed).
QToolButton* makeInfoButton(const QString& text, QWidget* parent);
// A selectable label for one output figure; objectName = name.
QLabel* makeFigureLabel(const QString& name, QWidget* parent);
// Sets the figure's text and its numeric "value" property.
void setFigure(QLabel* label, const QString& text, double value);
// Word-wrapped explanation in the palette's muted text colour.
QLabel* makeExplanation(const QString& text, QWidget* parent);

} // namespace moewb::gui::learn
