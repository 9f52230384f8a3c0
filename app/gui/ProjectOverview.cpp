#include "ProjectOverview.h"

#include "PageWidgets.h"

#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

namespace moewb::gui {

ProjectOverview::ProjectOverview(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("projectOverview"));
    auto* layout = new QVBoxLayout(this);
    m_title = makePageTitle(this, 1.6);
    m_body = new QLabel(this);
    m_body->setWordWrap(true);
    m_body->setTextFormat(Qt::RichText);
    m_body->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_body->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    layout->addWidget(m_body, 1);
}

QString ProjectOverview::text() const { return m_title->text() + QLatin1Char('\n') + m_body->text(); }

void ProjectOverview::showProject(store::ProjectStore* project) {
    if (!project) {
        m_title->setText(tr("No project open"));
        m_body->setText(tr("Open a project file (*.moewb) with File → Open (Ctrl+O), or start one with File → New "
                           "evaluation (Ctrl+N)."));
        return;
    }
    const auto records = project->configRecords();
    int incomplete = 0;
    for (const auto& r : records)
        incomplete += record::validateJson(r.json).isEmpty() ? 0 : 1;
    const auto runs = project->runs();
    const auto clusters = project->clusters();
    m_title->setText(QFileInfo(project->path()).fileName());
    QString html;
    html += tr("<p><b>File:</b> %1</p>").arg(project->path().toHtmlEscaped());
    html += QStringLiteral("<table cellspacing='0' cellpadding='4'>");
    html += tr("<tr><td>Config records</td><td align='right'><b>%1</b></td><td>%2</td></tr>")
                .arg(records.size())
                .arg(incomplete ? tr("! %n incomplete: comparisons using them are refused", "", incomplete)
                                : QString());
    html += tr("<tr><td>Runs</td><td align='right'><b>%1</b></td><td></td></tr>").arg(runs.size());
    html += tr("<tr><td>Clusters</td><td align='right'><b>%1</b></td><td></td></tr>").arg(clusters.size());
    html += QStringLiteral("</table>");
    html += tr("<h3>The method</h3>"
               "<ol><li><b>Communication baseline</b>: pure all-to-all at the target node count.</li>"
               "<li><b>Dense control</b>: a dense model with similar activated parameters, same accounting.</li>"
               "<li><b>Expert load and loss</b>: load ratio max/mean, drop rate, busiest-device share.</li>"
               "<li><b>Transfer</b>: re-run stages 1–3 on the target cluster and compare baselines.</li></ol>"
               "<p>Each stage opens only after the previous one passed, or its stop was overridden with a "
               "written justification. Every run needs a complete config record first. Ctrl+1 … Ctrl+4 "
               "open the stages.</p>");
    if (records.isEmpty())
        html += tr("<p><b>Next:</b> add a config record: open RECORDS in the browser and press <i>New "
                   "record…</i> (or <code>moewb record add FILE</code>).</p>");
    else if (incomplete)
        html += tr("<p><b>Next:</b> complete the records marked “!” in the browser.</p>");
    m_body->setText(html);
}

} // namespace moewb::gui
