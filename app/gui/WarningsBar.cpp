#include "WarningsBar.h"

#include "store/ProjectStore.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace moewb::gui {

WarningsDialog::WarningsDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("warningsDialog"));
    setWindowTitle(tr("Warnings from the misjudgment checks"));
    auto* layout = new QVBoxLayout(this);
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("warningsText"));
    m_text->setOpenExternalLinks(false);
    layout->addWidget(m_text, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 480);
}

void WarningsDialog::setWarnings(const QList<checks::MisjudgmentWarning>& warnings) {
    QString html;
    if (warnings.isEmpty())
        html = tr("<p>✔ None of the six misjudgment checks fired on this project.</p>");
    for (const auto& w : warnings) {
        html += tr("<h3>⚠ %1 <small>(check %2)</small></h3>").arg(w.title.toHtmlEscaped()).arg(w.id);
        html += tr("<p><b>Found:</b> %1</p>").arg(w.message.toHtmlEscaped());
        html += tr("<p><b>What to do:</b> %1</p>").arg(w.fix.toHtmlEscaped());
    }
    html += tr("<p><small>The checks are described in docs/method.md, \"The six misjudgment checks\".</small></p>");
    m_text->setHtml(html);
}

QString WarningsDialog::text() const { return m_text->toPlainText(); }

WarningsBar::WarningsBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("warningsBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    m_button = new QPushButton(this);
    m_button->setObjectName(QStringLiteral("warningsButton"));
    m_button->setFlat(true);
    m_button->setStyleSheet(QStringLiteral("text-align: left; padding: 3px 6px;"));
    layout->addWidget(m_button, 1);
    connect(m_button, &QPushButton::clicked, this, [this] { openList(); });
    setWarnings({});
}

void WarningsBar::setProject(const store::ProjectStore* project) {
    setWarnings(project ? checks::runAllChecks(checks::loadProjectFacts(*project))
                        : QList<checks::MisjudgmentWarning>{});
    m_button->setEnabled(project != nullptr);
}

void WarningsBar::setWarnings(const QList<checks::MisjudgmentWarning>& warnings) {
    m_warnings = warnings;
    if (warnings.isEmpty()) {
        m_button->setText(tr("✔ No warnings from the misjudgment checks"));
        m_button->setToolTip(tr("The six checks of docs/method.md found nothing to warn about."));
    } else {
        QStringList titles;
        for (const auto& w : warnings)
            titles << w.title;
        m_button->setText(tr("⚠ %n warning(s): %1  ▸", "", int(warnings.size())).arg(titles.join(QStringLiteral(" · "))));
        m_button->setToolTip(tr("Click for each warning's explanation and fix.\n\n%1: %2")
                                 .arg(warnings.first().title, warnings.first().message));
    }
    if (m_dialog)
        m_dialog->setWarnings(m_warnings);
}

QString WarningsBar::text() const { return m_button->text(); }

WarningsDialog* WarningsBar::openList() {
    if (!m_dialog)
        m_dialog = new WarningsDialog(window());
    m_dialog->setWarnings(m_warnings);
    m_dialog->show();
    m_dialog->raise();
    return m_dialog;
}

} // namespace moewb::gui
