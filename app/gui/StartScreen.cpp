#include "StartScreen.h"

#include "PageWidgets.h"
#include "RecentProjects.h"

#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {
constexpr int kPathRole = Qt::UserRole + 1;

QPushButton* bigButton(const QString& text, const QString& name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setMinimumHeight(40);
    QFont f = b->font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    b->setFont(f);
    return b;
}
} // namespace

StartScreen::StartScreen(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("startScreen"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(48, 36, 48, 36);
    auto* title = makePageTitle(this, 2.0);
    title->setText(tr("MoE Workbench"));
    auto* lead = new QLabel(
        tr("Does this Mixture-of-Experts configuration pay on your cluster? The workbench walks you through four "
           "stages — communication baseline, dense control, expert load and loss, transfer to the target cluster — "
           "and stops you where the evidence says stop."),
        this);
    lead->setWordWrap(true);
    outer->addWidget(title);
    outer->addWidget(lead);
    outer->addSpacing(16);

    auto* columns = new QHBoxLayout;
    auto* actions = new QVBoxLayout;
    auto* newButton = bigButton(tr("New evaluation…"), QStringLiteral("startNew"), this);
    newButton->setToolTip(tr("Create a project file (*.moewb) for a new evaluation (Ctrl+N)"));
    auto* openButton = bigButton(tr("Open…"), QStringLiteral("startOpen"), this);
    openButton->setToolTip(tr("Open an existing project file (Ctrl+O)"));
    m_demo = bigButton(tr("Open the demo (synthetic data)"), QStringLiteral("startDemo"), this);
    m_demo->setToolTip(tr("A synthetic evaluation that fills every page, so you can click through the whole "
                          "method in five minutes. Its data is made up and labelled DEMO everywhere."));
    actions->addWidget(newButton);
    actions->addWidget(openButton);
    actions->addWidget(m_demo);
    auto* demoNote = new QLabel(tr("The demo is written to %1 the first time; your own projects are never touched.")
                                    .arg(QDir::toNativeSeparators(QStringLiteral("…/moe-workbench/demo.moewb"))),
                                this);
    demoNote->setWordWrap(true);
    actions->addWidget(demoNote);
    actions->addSpacing(8);
    m_reference = bigButton(tr("Measure a reference evaluation on this computer"), QStringLiteral("startReference"), this);
    m_reference->setToolTip(tr("Tiny real trainings and real all-to-all measurements on this computer, run through "
                               "all four stages: every number measured, the method real, the scale tiny."));
    actions->addWidget(m_reference);
    actions->addStretch(1);

    auto* recentColumn = new QVBoxLayout;
    auto* recentTitle = makePageTitle(this, 1.2);
    recentTitle->setText(tr("Recent projects"));
    m_recent = new QListWidget(this);
    m_recent->setObjectName(QStringLiteral("recentProjects"));
    m_recent->setAlternatingRowColors(true);
    m_recentHint = new QLabel(this);
    m_recentHint->setWordWrap(true);
    recentColumn->addWidget(recentTitle);
    recentColumn->addWidget(m_recent, 1);
    recentColumn->addWidget(m_recentHint);

    columns->addLayout(actions, 2);
    columns->addSpacing(32);
    columns->addLayout(recentColumn, 3);
    outer->addLayout(columns, 1);

    connect(newButton, &QPushButton::clicked, this, &StartScreen::newRequested);
    connect(openButton, &QPushButton::clicked, this, &StartScreen::openRequested);
    connect(m_demo, &QPushButton::clicked, this, &StartScreen::demoRequested);
    connect(m_reference, &QPushButton::clicked, this, &StartScreen::referenceRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString path = item->data(kPathRole).toString();
        if (!path.isEmpty() && QFileInfo::exists(path))
            emit openPath(path);
    });
    refresh();
}

void StartScreen::refresh() {
    m_recent->clear();
    const QStringList paths = RecentProjects::list();
    for (const QString& path : paths) {
        const QFileInfo info(path);
        auto* item = new QListWidgetItem(m_recent);
        item->setData(kPathRole, path);
        if (info.exists()) {
            item->setText(tr("%1\n    %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
            item->setToolTip(tr("Double-click or press Enter to open %1").arg(QDir::toNativeSeparators(path)));
        } else {
            // Never colour alone: a missing file says so in words.
            item->setText(tr("%1 — missing\n    %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath())));
            item->setToolTip(tr("%1 no longer exists (moved or deleted).").arg(QDir::toNativeSeparators(path)));
            item->setForeground(palette().brush(QPalette::Disabled, QPalette::Text));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        }
    }
    // An empty list is no stop for Tab (it would take the focus without showing it).
    m_recent->setFocusPolicy(paths.isEmpty() ? Qt::NoFocus : Qt::StrongFocus);
    m_recentHint->setText(paths.isEmpty() ? tr("No recent projects yet: start a new evaluation or open the demo.")
                                          : tr("Double-click a project to open it."));
}

void StartScreen::setDemoBusy(bool busy) {
    m_demo->setEnabled(!busy);
    m_demo->setText(busy ? tr("Writing the demo project…") : tr("Open the demo (synthetic data)"));
}

void StartScreen::setDemoAvailable(bool available) { m_demo->setVisible(available); }

} // namespace moewb::gui
