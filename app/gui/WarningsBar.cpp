#include "WarningsBar.h"

#include "store/ProjectStore.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QScrollBar>
#include <QUrl>
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
    m_text->setOpenLinks(false); // the details toggles are handled here
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("details")) {
            const int id = url.path().toInt();
            setDetailsShown(id, !m_shown.contains(id));
        }
    });
    layout->addWidget(m_text, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 480);
}

void WarningsDialog::setWarnings(const QList<checks::MisjudgmentWarning>& warnings) {
    m_warnings = warnings;
    QSet<int> ids;
    for (const auto& w : warnings)
        ids.insert(w.id);
    m_shown.intersect(ids);
    render();
}

void WarningsDialog::setDetailsShown(int id, bool shown) {
    if (shown)
        m_shown.insert(id);
    else
        m_shown.remove(id);
    const int scrolled = m_text->verticalScrollBar()->value();
    render();
    m_text->verticalScrollBar()->setValue(scrolled);
}

void WarningsDialog::render() {
    QString html;
    if (m_warnings.isEmpty())
        html = tr("<p>✔ None of the six misjudgment checks fired on this project.</p>");
    for (const auto& w : m_warnings) {
        html += tr("<h3>⚠ %1 <small>(check %2)</small></h3>").arg(w.title.toHtmlEscaped()).arg(w.id);
        if (w.details.size() > 1) {
            // Grouped: the summary, and each finding behind a toggle.
            html += tr("<p><b>Found:</b> %1</p>").arg(w.summary.toHtmlEscaped());
            const bool shown = m_shown.contains(w.id);
            html += QStringLiteral("<p><a href=\"details:%1\">%2</a></p>")
                        .arg(w.id)
                        .arg(shown ? tr("▾ Hide the %n finding(s)", "", int(w.details.size()))
                                   : tr("▸ Show the %n finding(s)", "", int(w.details.size())));
            if (shown) {
                html += QStringLiteral("<ul>");
                for (const QString& d : w.details)
                    html += QStringLiteral("<li>%1</li>").arg(d.toHtmlEscaped());
                html += QStringLiteral("</ul>");
            }
        } else {
            html += tr("<p><b>Found:</b> %1</p>").arg(w.message.toHtmlEscaped());
        }
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
                                 .arg(warnings.first().title, warnings.first().summary.isEmpty()
                                                                  ? warnings.first().message
                                                                  : warnings.first().summary));
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
