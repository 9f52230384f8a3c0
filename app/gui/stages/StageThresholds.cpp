// The thresholds of a stage page (StagePage.h): the table (a double-click sets the
// team's value), and on stage 1 the thresholds suggested from a first round.
#include "StagePage.h"
#include "StagePagePrivate.h"

#include "StageWidgets.h"

#include "stages/StageEvaluation.h"
#include "store/ProjectStore.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace moewb::gui {

CollapsibleSection* StagePage::buildThresholdSection(QWidget* content) {
    d->thresholdSection = new CollapsibleSection(tr("Thresholds"), content);
    d->thresholds = new QTableWidget(content);
    d->thresholds->setObjectName(QStringLiteral("thresholdTable"));
    d->thresholds->setColumnCount(3);
    d->thresholds->setHorizontalHeaderLabels({tr("Threshold"), tr("Value"), tr("Source")});
    d->thresholds->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    d->thresholds->horizontalHeader()->setStretchLastSection(true);
    d->thresholds->verticalHeader()->setVisible(false);
    // Tab would wrap around the cells forever: the arrows move, F2 edits, Tab moves on.
    d->thresholds->setTabKeyNavigation(false);
    d->thresholds->setToolTip(tr("Double-click a value to set your team's threshold (saved with source \"team\")."));
    d->thresholdSection->body()->addWidget(d->thresholds);
    if (offersSuggestions()) {
        d->suggestButton = new QPushButton(tr("Suggest thresholds from this round…"), content);
        d->suggestButton->setObjectName(QStringLiteral("suggestButton"));
        d->suggestButton->setEnabled(false);
        d->suggestButton->setToolTip(tr("Evaluate first: suggestions are derived from the evaluated runs."));
        auto* row = new QHBoxLayout;
        row->addWidget(d->suggestButton);
        row->addStretch(1);
        d->thresholdSection->body()->addLayout(row);
        connect(d->suggestButton, &QPushButton::clicked, this, &StagePage::suggestThresholds);
    }
    connect(d->thresholds, &QTableWidget::cellChanged, this, &StagePage::thresholdEdited);
    return d->thresholdSection;
}

void StagePage::fillThresholds() {
    d->fillingThresholds = true;
    const stages::ThresholdSet set = stages::loadThresholds(*d->project);
    const QString prefix = QStringLiteral("stage%1.").arg(d->stage);
    QList<stages::ThresholdUse> uses;
    for (const stages::ThresholdUse& t : stages::defaultThresholds())
        if (t.key.startsWith(prefix))
            uses << set.get(t.key);
    d->thresholds->setRowCount(int(uses.size()));
    for (int r = 0; r < uses.size(); ++r) {
        const stages::ThresholdUse& t = uses[r];
        auto* key = new QTableWidgetItem(t.key);
        key->setFlags(key->flags() & ~Qt::ItemIsEditable);
        // Shown and typed in the key's unit: "5 %", "1.6×", "1,000 steps" (a bare number
        // typed here is read in that unit: 3 is 3 %).
        auto* value = new QTableWidgetItem(stages::thresholdValueText(t.key, t.value));
        value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setToolTip(tr("Double-click to set your team's value (%1)").arg(stages::thresholdMeaning(t.key)));
        auto* source = new QTableWidgetItem(stages::thresholdSourceText(t.source));
        source->setFlags(source->flags() & ~Qt::ItemIsEditable);
        d->thresholds->setItem(r, 0, key);
        d->thresholds->setItem(r, 1, value);
        d->thresholds->setItem(r, 2, source);
    }
    const int rowH = d->thresholds->verticalHeader()->defaultSectionSize();
    d->thresholds->setFixedHeight(d->thresholds->horizontalHeader()->sizeHint().height() +
                                  int(uses.size()) * rowH + 2 * d->thresholds->frameWidth() + 2);
    d->fillingThresholds = false;
}

void StagePage::thresholdEdited(int row, int column) {
    if (d->fillingThresholds || column != 1 || !d->project)
        return;
    const QString key = d->thresholds->item(row, 0)->text();
    const QString typed = d->thresholds->item(row, 1)->text();
    const std::optional<double> parsed = stages::parseThresholdValue(key, typed, stages::BareNumber::Shown);
    const double value = parsed.value_or(-1.0);
    if (!parsed || value < 0) {
        emit statusMessage(tr("%1: \"%2\" is not a number ≥ 0 in its unit (e.g. %3); the threshold is unchanged.")
                               .arg(key, typed, stages::thresholdValueText(key, stages::ThresholdSet().get(key).value)));
        fillThresholds();
        return;
    }
    store::ThresholdRow t;
    t.key = key;
    t.value = value;
    t.source = store::ThresholdSource::Team;
    t.note = tr("set in the stage %1 page").arg(d->stage);
    if (auto saved = d->project->setThreshold(t); !saved) {
        emit statusMessage(tr("Threshold not saved: %1").arg(saved.error().text()));
        fillThresholds();
        return;
    }
    fillThresholds();
    emit statusMessage(tr("%1 = %2 saved as your team's threshold. Evaluate again to apply it.")
                           .arg(key, stages::thresholdValueText(key, value)));
    emit projectModified();
}

void StagePage::suggestThresholds() {
    if (!d->project || !d->last || !d->last->stageOne())
        return;
    const auto& suggestions = d->last->stageOne()->suggestions;
    if (suggestions.isEmpty())
        return;
    const stages::ThresholdSet current = stages::loadThresholds(*d->project);
    QString text = tr("<p>From the runs just evaluated (a first round of measurements):</p><ul>");
    for (const stages::SuggestedThreshold& s : suggestions)
        text += tr("<li><b>%1 = %2</b> (now %3) — %4</li>")
                    .arg(s.key, stages::thresholdValueText(s.key, s.value), stages::thresholdText(current.get(s.key)),
                         s.basis.toHtmlEscaped());
    text += tr("</ul><p>Apply them as your thresholds (source “suggested from round 1”)? Nothing changes "
               "unless you confirm.</p>");
    QMessageBox box(QMessageBox::Question, tr("Suggested thresholds"), text, QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("suggestBox"));
    box.setTextFormat(Qt::RichText);
    QPushButton* apply = box.addButton(tr("Apply suggestions"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != apply)
        return;
    for (const stages::SuggestedThreshold& s : suggestions) {
        store::ThresholdRow t{s.key, s.value, store::ThresholdSource::Suggested, s.basis, {}};
        if (auto saved = d->project->setThreshold(t); !saved) {
            emit statusMessage(tr("Threshold not saved: %1").arg(saved.error().text()));
            return;
        }
    }
    fillThresholds();
    emit projectModified();
    emit statusMessage(tr("%n suggested threshold(s) applied. Evaluate again to use them.", "",
                          int(suggestions.size())));
}

} // namespace moewb::gui
