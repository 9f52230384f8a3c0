#include "ClustersPage.h"

#include "ClusterDialog.h"
#include "HostKeyDialog.h"
#include "PageWidgets.h"
#include "RemoteTr.h"
#include "Worker.h"
#include "launch/ClusterDefinition.h"
#include "launch/LocalRanks.h"
#include "store/NameRules.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>

namespace moewb::gui {

namespace {

enum ClusterColumn { CName, CLauncher, CNodes, CGpus, CLastCheck };
enum NodeColumn { NNode, NStatus, NHost, NGpus, NGpuModel, NDriver, NCuda, NNccl, NNetwork };

QString whenText(const QDateTime& at) {
    return QLocale().toString(at.toLocalTime(), QLocale::ShortFormat);
}

QString gbps(double v) {
    return QLocale().toString(v, 'g', 4);
}

// "8 × NVIDIA H100 80GB HBM3" (several models: each with its count).
QString gpuModels(const QJsonObject& inv) {
    QStringList order;
    QHash<QString, int> count;
    for (const QJsonValue& g : inv.value(QStringLiteral("gpus")).toArray()) {
        const QString name = g.toObject().value(QStringLiteral("name")).toString();
        if (!count.contains(name))
            order << name;
        ++count[name];
    }
    QStringList parts;
    for (const QString& n : order)
        parts << ClustersPage::tr("%1 × %2").arg(count.value(n)).arg(n);
    return parts.join(QStringLiteral(", "));
}

QString driverText(const QJsonObject& inv) {
    const QJsonObject d = inv.value(QStringLiteral("driver")).toObject();
    if (d.value(QStringLiteral("loaded")).toBool() && !d.value(QStringLiteral("version")).toString().isEmpty())
        return d.value(QStringLiteral("version")).toString();
    return ClustersPage::tr("none");
}

QString cudaText(const QJsonObject& inv) {
    const QString v = inv.value(QStringLiteral("driver")).toObject().value(QStringLiteral("cuda_version")).toString();
    return v.isEmpty() ? ClustersPage::tr("none") : v;
}

QString ncclText(const QJsonObject& inv) {
    const QJsonValue n = inv.value(QStringLiteral("nccl"));
    const QString v = n.isObject() ? n.toObject().value(QStringLiteral("version")).toString() : QString();
    return v.isEmpty() ? ClustersPage::tr("none") : v;
}

// Physical NICs with their link rate, then InfiniBand ports: every one, for the tooltip.
QString networkDetail(const QJsonObject& inv) {
    QStringList parts;
    for (const QJsonValue& v : inv.value(QStringLiteral("nics")).toArray()) {
        const QJsonObject n = v.toObject();
        if (n.value(QStringLiteral("virtual")).toBool())
            continue;
        const QJsonValue rate = n.value(QStringLiteral("link_rate_gbps"));
        parts << (rate.isDouble() ? ClustersPage::tr("%1 (%2 Gb/s)").arg(n.value(QStringLiteral("name")).toString(), gbps(rate.toDouble()))
                                  : n.value(QStringLiteral("name")).toString());
    }
    for (const QJsonValue& v : inv.value(QStringLiteral("infiniband")).toArray()) {
        const QJsonObject d = v.toObject();
        for (const QJsonValue& p : d.value(QStringLiteral("ports")).toArray()) {
            const QJsonObject port = p.toObject();
            parts << ClustersPage::tr("%1 port %2 (%3, %4 Gb/s)")
                         .arg(d.value(QStringLiteral("device")).toString())
                         .arg(port.value(QStringLiteral("port")).toInt())
                         .arg(port.value(QStringLiteral("link_layer")).toString(), gbps(port.value(QStringLiteral("link_rate_gbps")).toDouble()));
        }
    }
    if (parts.isEmpty())
        return ClustersPage::tr("only virtual interfaces");
    return parts.join(QLatin1Char('\n'));
}

// The same on one line: alike links counted ("8 × InfiniBand 400 Gb/s, 2 × eth 100 Gb/s"),
// so that a node with eight HCAs keeps a row of one line. A lone NIC keeps its name.
QString networkText(const QJsonObject& inv) {
    QStringList order;
    QHash<QString, int> count;
    auto add = [&](const QString& label) {
        if (!count.contains(label))
            order << label;
        ++count[label];
    };
    QHash<QString, int> nicsAtRate;
    for (const QJsonValue& v : inv.value(QStringLiteral("nics")).toArray()) {
        const QJsonObject n = v.toObject();
        if (!n.value(QStringLiteral("virtual")).toBool())
            ++nicsAtRate[n.value(QStringLiteral("link_rate_gbps")).toVariant().toString()];
    }
    for (const QJsonValue& v : inv.value(QStringLiteral("nics")).toArray()) {
        const QJsonObject n = v.toObject();
        if (n.value(QStringLiteral("virtual")).toBool())
            continue;
        const QJsonValue rate = n.value(QStringLiteral("link_rate_gbps"));
        const bool alone = nicsAtRate.value(rate.toVariant().toString()) == 1;
        const QString name = alone ? n.value(QStringLiteral("name")).toString() : ClustersPage::tr("NIC");
        add(rate.isDouble() ? ClustersPage::tr("%1 %2 Gb/s").arg(name, gbps(rate.toDouble())) : name);
    }
    for (const QJsonValue& v : inv.value(QStringLiteral("infiniband")).toArray())
        for (const QJsonValue& p : v.toObject().value(QStringLiteral("ports")).toArray()) {
            const QJsonObject port = p.toObject();
            add(ClustersPage::tr("%1 %2 Gb/s")
                    .arg(port.value(QStringLiteral("link_layer")).toString(),
                         gbps(port.value(QStringLiteral("link_rate_gbps")).toDouble())));
        }
    if (order.isEmpty())
        return ClustersPage::tr("only virtual interfaces");
    QStringList parts;
    for (const QString& label : order)
        parts << (count.value(label) == 1 ? label : ClustersPage::tr("%1 × %2").arg(count.value(label)).arg(label));
    return parts.join(QStringLiteral(", "));
}

// The cluster's last check; for one checked before it was kept (`cluster add --check`),
// the newest "checked" time of its nodes and how many nodes have an inventory.
remote::LastCheck lastCheckWithNodes(const store::ClusterRow& cluster, const QList<store::NodeRow>& nodes) {
    remote::LastCheck last = remote::lastCheckOf(cluster);
    if (last.at.isValid())
        return last;
    for (const auto& n : nodes) {
        const QDateTime at = QDateTime::fromString(n.facts.value(QStringLiteral("checked")).toString(), Qt::ISODate);
        if (!at.isValid())
            continue;
        ++last.ok;
        if (!last.at.isValid() || at > last.at)
            last.at = at;
    }
    if (last.at.isValid())
        last.failed = int(nodes.size()) - last.ok;
    return last;
}

QTableWidgetItem* item(const QString& text, bool number = false) {
    auto* i = new QTableWidgetItem(text);
    i->setToolTip(text);
    if (number)
        i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return i;
}

// The status word of a failed node, by what went wrong.
QString failureWord(const remote::NodeFailure& f) {
    using K = remote::RemoteError::Kind;
    switch (f.kind) {
    case K::HostKeyChanged: return ClustersPage::tr("refused: host key CHANGED");
    case K::HostKeyUnknown: return ClustersPage::tr("refused: unknown host key");
    case K::AuthRefused: return ClustersPage::tr("failed: authentication refused");
    case K::Unreachable: return ClustersPage::tr("failed: unreachable");
    case K::TimedOut: return ClustersPage::tr("failed: timed out");
    case K::Cancelled: return ClustersPage::tr("cancelled");
    default: return ClustersPage::tr("failed");
    }
}

} // namespace

ClustersPage::ClustersPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("clustersPage"));
    auto* layout = new QVBoxLayout(this);

    m_title = makePageTitle(this);
    m_title->setText(tr("Clusters"));
    layout->addWidget(m_title);
    auto* intro = new QLabel(tr("The machines stage 1 measures on. Check connects to every node, verifies its host key, "
                                "uploads the probe and reads what the node has: GPUs, driver, CUDA, NCCL, network."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* buttons = new QHBoxLayout;
    m_add = new QPushButton(tr("&Add…"), this);
    m_add->setObjectName(QStringLiteral("addClusterButton"));
    m_edit = new QPushButton(tr("&Edit…"), this);
    m_edit->setObjectName(QStringLiteral("editClusterButton"));
    m_remove = new QPushButton(tr("Re&move…"), this);
    m_remove->setObjectName(QStringLiteral("removeClusterButton"));
    m_check = new QPushButton(tr("&Check"), this);
    m_check->setObjectName(QStringLiteral("checkClusterButton"));
    m_check->setToolTip(tr("Connect to every node of the selected cluster, check its host key, upload the probe and "
                           "read its inventory"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelCheckButton"));
    for (QPushButton* b : {m_add, m_edit, m_remove, m_check, m_cancel})
        buttons->addWidget(b);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_add, &QPushButton::clicked, this, &ClustersPage::addCluster);
    connect(m_edit, &QPushButton::clicked, this, &ClustersPage::editCluster);
    connect(m_remove, &QPushButton::clicked, this, &ClustersPage::removeCluster);
    connect(m_check, &QPushButton::clicked, this, &ClustersPage::checkCluster);
    connect(m_cancel, &QPushButton::clicked, this, &ClustersPage::cancelCheck);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    m_clusters = makeReadOnlyTable(split, {tr("Cluster"), tr("Launcher"), tr("Nodes"), tr("GPUs/node"), tr("Last check")});
    m_clusters->setObjectName(QStringLiteral("clustersTable"));
    m_clusters->setSelectionMode(QAbstractItemView::SingleSelection);
    m_clusters->setWordWrap(false);
    connect(m_clusters, &QTableWidget::itemSelectionChanged, this, [this] {
        showNodes();
        updateButtons();
    });
    connect(m_clusters, &QTableWidget::cellDoubleClicked, this, [this] { editCluster(); });

    auto* nodesBox = new QWidget(split);
    auto* nodesLayout = new QVBoxLayout(nodesBox);
    nodesLayout->setContentsMargins(0, 0, 0, 0);
    m_nodesTitle = new QLabel(nodesBox);
    m_nodesTitle->setObjectName(QStringLiteral("nodesTitle"));
    QFont bold = m_nodesTitle->font();
    bold.setBold(true);
    m_nodesTitle->setFont(bold);
    nodesLayout->addWidget(m_nodesTitle);
    m_summary = new QLabel(nodesBox);
    m_summary->setObjectName(QStringLiteral("checkSummaryLabel"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    nodesLayout->addWidget(m_summary);
    m_nodes = makeReadOnlyTable(nodesBox, {tr("Node"), tr("Status"), tr("Host name"), tr("GPUs"), tr("GPU model"),
                                           tr("Driver"), tr("CUDA"), tr("NCCL"), tr("Network")});
    m_nodes->setObjectName(QStringLiteral("nodesTable"));
    // Long cells wrap: the page never scrolls sideways at 1366 pixels.
    m_nodes->setWordWrap(false);
    m_nodes->setTextElideMode(Qt::ElideRight);
    m_nodes->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_nodes->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    nodesLayout->addWidget(m_nodes, 1);

    auto* progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(nodesBox);
    m_progress->setObjectName(QStringLiteral("checkProgress"));
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(200);
    m_now = new QLabel(nodesBox);
    m_now->setObjectName(QStringLiteral("checkNowLabel"));
    m_now->setTextFormat(Qt::PlainText);
    m_now->setWordWrap(true);
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_now, 1);
    nodesLayout->addLayout(progressRow);
    m_log = new QPlainTextEdit(nodesBox);
    m_log->setObjectName(QStringLiteral("checkLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("What each node did during the last check."));
    m_log->setFixedHeight(m_log->fontMetrics().lineSpacing() * 5 + 12);
    nodesLayout->addWidget(m_log);

    split->addWidget(m_clusters);
    split->addWidget(nodesBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);
    updateButtons();
}

ClustersPage::~ClustersPage() {
    cancelCheck();
    if (m_thread)
        m_thread->wait();
}

void ClustersPage::setProject(store::ProjectStore* project) {
    if (project != m_project) {
        if (m_thread) {
            cancelCheck();
            m_thread->wait();
            QCoreApplication::sendPostedEvents(this);
        }
        m_results.clear();
        m_log->clear();
    }
    m_project = project;
    refresh();
}

std::optional<store::ClusterRow> ClustersPage::cluster(const QString& name) const {
    if (!m_project)
        return std::nullopt;
    for (const auto& c : m_project->clusters())
        if (c.name == name)
            return c;
    return std::nullopt;
}

void ClustersPage::refresh() {
    const QString keep = selectedCluster();
    const QSignalBlocker block(m_clusters);
    m_clusters->setRowCount(0);
    const QList<store::ClusterRow> clusters = m_project ? m_project->clusters() : QList<store::ClusterRow>();
    m_clusters->setRowCount(int(clusters.size()));
    int row = 0;
    int selectRow = clusters.isEmpty() ? -1 : 0;
    for (const auto& c : clusters) {
        const QList<store::NodeRow> nodes = m_project->nodes(c.id);
        const auto local = remote::LocalClusterSpec::fromFacts(c.facts);
        auto* name = item(store::printableName(c.name));
        name->setData(Qt::UserRole, c.name);
        m_clusters->setItem(row, CName, name);
        m_clusters->setItem(row, CLauncher,
                            item(!local                       ? tr("SSH")
                                 : local->netnsRate.isEmpty() ? tr("local: this computer, loopback")
                                                              : tr("local: this computer, links at %1").arg(local->netnsRate)));
        m_clusters->setItem(row, CNodes, item(QString::number(nodes.size()), true));
        QString gpus = QStringLiteral("—");
        if (c.gpusPerNode > 0) {
            gpus = QString::number(c.gpusPerNode);
        } else {
            for (const auto& n : nodes)
                if (n.facts.contains(QStringLiteral("gpu_count"))) {
                    gpus = tr("%1 (inventory)").arg(n.facts.value(QStringLiteral("gpu_count")).toInt());
                    break;
                }
        }
        m_clusters->setItem(row, CGpus, item(gpus, true));
        const remote::LastCheck last = lastCheckWithNodes(c, nodes);
        QString lastText;
        if (m_checking == c.name)
            lastText = tr("checking now…");
        else if (!last.at.isValid())
            lastText = tr("never checked");
        else if (last.failed == 0)
            lastText = tr("%n node(s) answered · %1", "", last.ok).arg(whenText(last.at));
        else
            lastText = tr("%1 of %n node(s) answered · %2", "", last.ok + last.failed).arg(last.ok).arg(whenText(last.at));
        auto* lastItem = item(lastText);
        if (!last.problem.isEmpty())
            lastItem->setToolTip(last.problem);
        m_clusters->setItem(row, CLastCheck, lastItem);
        if (c.name == keep)
            selectRow = row;
        ++row;
    }
    if (selectRow >= 0)
        m_clusters->selectRow(selectRow);
    m_clusters->resizeColumnsToContents();
    m_clusters->horizontalHeader()->setStretchLastSection(false);  // re-applied: the last column fills the width
    m_clusters->horizontalHeader()->setStretchLastSection(true);
    // Every cluster in sight (up to eight rows) before the table scrolls.
    m_clusters->resizeRowsToContents();
    int listHeight = m_clusters->horizontalHeader()->height() + 2 * m_clusters->frameWidth();
    for (int r = 0; r < std::min(m_clusters->rowCount(), 8); ++r)
        listHeight += m_clusters->rowHeight(r);
    if (m_clusters->rowCount() == 0)
        listHeight += m_clusters->verticalHeader()->defaultSectionSize();
    m_clusters->setMinimumHeight(listHeight);
    showNodes();
    updateButtons();
}

bool ClustersPage::selectCluster(const QString& name) {
    for (int r = 0; r < m_clusters->rowCount(); ++r)
        if (m_clusters->item(r, CName)->data(Qt::UserRole).toString() == name) {
            m_clusters->selectRow(r);
            return true;
        }
    return false;
}

QString ClustersPage::selectedCluster() const {
    const auto rows = m_clusters->selectionModel() ? m_clusters->selectionModel()->selectedRows() : QModelIndexList();
    if (rows.isEmpty())
        return {};
    QTableWidgetItem* i = m_clusters->item(rows.first().row(), CName);
    return i ? i->data(Qt::UserRole).toString() : QString();
}

QString ClustersPage::checkSummary() const {
    return m_summary->text();
}

void ClustersPage::updateButtons() {
    const bool have = m_project != nullptr;
    const bool writable = have && !m_project->readOnly();
    const bool chosen = !selectedCluster().isEmpty();
    const bool busy = isChecking();
    m_add->setEnabled(writable && !busy);
    m_edit->setEnabled(writable && chosen && !busy);
    m_remove->setEnabled(writable && chosen && !busy);
    m_check->setEnabled(have && chosen && !busy);
    m_cancel->setVisible(busy);
    m_progress->setVisible(busy);
    m_now->setVisible(busy || !m_now->text().isEmpty());
}

void ClustersPage::showNodes() {
    const QString name = selectedCluster();
    const auto c = cluster(name);
    m_nodes->setRowCount(0);
    if (!c) {
        m_nodesTitle->setText(m_project && m_project->clusters().isEmpty()
                                  ? tr("No clusters yet: Add… one, by its nodes' SSH addresses or as this computer.")
                                  : QString());
        m_summary->clear();
        return;
    }
    const QList<store::NodeRow> nodes = m_project->nodes(c->id);
    const bool local = remote::LocalClusterSpec::fromFacts(c->facts).has_value();
    m_nodesTitle->setText(local ? tr("%1: this computer, %n rank(s)", "", int(nodes.size())).arg(store::printableName(c->name))
                                : tr("%1: %n node(s)", "", int(nodes.size())).arg(store::printableName(c->name)));
    const QList<remote::NodeCheck> checks = m_results.value(c->name);
    m_nodes->setRowCount(int(nodes.size()));
    QStringList problems;
    for (int r = 0; r < nodes.size(); ++r) {
        const store::NodeRow& n = nodes[r];
        const remote::NodeCheck* check = nullptr;
        for (const auto& k : checks)
            if (k.node == n.address)
                check = &k;
        const QJsonObject& inv = n.facts;
        const bool haveInventory = inv.contains(QStringLiteral("schema")) || inv.contains(QStringLiteral("gpu_count"));
        QString status;
        if (check && !check->ok) {
            // A node that answered while another failed is not checked further (checkCluster).
            // The text is checkCluster's own (remote/launch/NodePool.cpp), in its context.
            static const char* const notChecked = "%1: not checked (another node failed first)";
            status = check->failure.message == remote::RemoteLaunch::tr(notChecked).arg(n.address)
                         ? tr("not checked: another node failed first")
                         : failureWord(check->failure);
            problems << check->failure.message;
        } else if (const QDateTime at =
                       QDateTime::fromString(inv.value(QStringLiteral("checked")).toString(), Qt::ISODate);
                   haveInventory && at.isValid()) {
            status = tr("ok · %1").arg(whenText(at));
        } else {
            // Facts given when the cluster was added (a GPU count) are not a check: "ok"
            // only ever stands beside a check's time, never beside "never checked".
            status = tr("not checked yet");
        }
        m_nodes->setItem(r, NNode, item(n.address));
        auto* statusItem = item(status);
        if (check && !check->ok)
            statusItem->setToolTip(check->failure.message);
        m_nodes->setItem(r, NStatus, statusItem);
        const QString dash = QStringLiteral("—");
        m_nodes->setItem(r, NHost, item(haveInventory ? inv.value(QStringLiteral("hostname")).toString() : dash));
        m_nodes->setItem(r, NGpus, item(haveInventory ? QString::number(inv.value(QStringLiteral("gpu_count")).toInt()) : dash, true));
        const QString models = haveInventory ? gpuModels(inv) : dash;
        m_nodes->setItem(r, NGpuModel, item(models.isEmpty() ? tr("none") : models));
        m_nodes->setItem(r, NDriver, item(haveInventory ? driverText(inv) : dash));
        m_nodes->setItem(r, NCuda, item(haveInventory ? cudaText(inv) : dash));
        m_nodes->setItem(r, NNccl, item(haveInventory ? ncclText(inv) : dash));
        auto* network = item(haveInventory ? networkText(inv) : dash);
        if (haveInventory)
            network->setToolTip(networkDetail(inv));
        m_nodes->setItem(r, NNetwork, network);
    }
    fitNodeColumns();
    const remote::LastCheck last = lastCheckWithNodes(*c, nodes);
    QString summary;
    if (m_checking == c->name)
        summary = tr("Checking…");
    else if (!last.at.isValid())
        summary = tr("Not checked yet: Check reaches every node and reads its inventory.");
    else if (last.failed == 0)
        summary = tr("Last check %1: %n node(s) answered.", "", last.ok).arg(whenText(last.at));
    else
        summary = tr("Last check %1: %2 of %n node(s) answered.", "", last.ok + last.failed).arg(whenText(last.at)).arg(last.ok);
    if (!problems.isEmpty())
        summary += QLatin1Char('\n') + problems.join(QLatin1Char('\n'));
    else if (last.failed > 0 && !last.problem.isEmpty())
        summary += QLatin1Char('\n') + last.problem;
    m_summary->setText(summary);
}

void ClustersPage::fitNodeColumns() {
    // Columns share the width; long cells are elided (full text on hover) instead of
    // scrolling sideways or growing the row.
    m_nodes->resizeColumnsToContents();
    const int avail = m_nodes->viewport()->width();
    int total = 0;
    for (int col = 0; col < m_nodes->columnCount(); ++col)
        total += m_nodes->columnWidth(col);
    if (avail > 100 && total > avail) {
        int used = 0;
        for (int col = 0; col < m_nodes->columnCount() - 1; ++col) {
            const int w = std::max(40, int(qint64(m_nodes->columnWidth(col)) * avail / total));
            m_nodes->setColumnWidth(col, w);
            used += w;
        }
        m_nodes->setColumnWidth(m_nodes->columnCount() - 1, std::max(40, avail - used));
    }
    m_nodes->horizontalHeader()->setStretchLastSection(false);
    m_nodes->horizontalHeader()->setStretchLastSection(true);
    // One line a node: what does not fit is elided, the whole text in the cell's tooltip.
}

void ClustersPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitNodeColumns();
}

void ClustersPage::appendLog(const QString& node, const QString& text) {
    m_log->appendPlainText(node.isEmpty() ? text : QStringLiteral("[%1] %2").arg(node, text));
}

void ClustersPage::addCluster() {
    if (!m_project)
        return;
    QStringList taken;
    for (const auto& c : m_project->clusters())
        taken << c.name;
    ClusterDialog dialog(taken, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const remote::ClusterDefinition& def = dialog.definition();
    auto added = m_project->addCluster(def.clusterRow(), def.nodeRows());
    if (!added) {
        QMessageBox::warning(this, tr("Add a cluster"), added.error().text());
        return;
    }
    m_results.remove(def.name);
    refresh();
    selectCluster(def.name);
    emit statusMessage(tr("Added cluster %1 with %n node(s); Check reads their inventory.", "", int(def.nodeRows().size()))
                           .arg(store::printableName(def.name)));
    emit clustersChanged(def.name);
}

void ClustersPage::editCluster() {
    const auto c = cluster(selectedCluster());
    if (!c || !m_project || m_project->readOnly() || isChecking())
        return;
    QStringList taken;
    for (const auto& other : m_project->clusters())
        if (other.id != c->id)
            taken << other.name;
    ClusterDialog dialog(taken, this, *c, m_project->nodes(c->id));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const remote::ClusterDefinition& def = dialog.definition();
    store::ClusterRow row = def.clusterRow();
    // The facts the cluster gathered (its last check) stay; a local cluster's spec is new.
    QJsonObject facts = c->facts;
    for (const QString& key : {QStringLiteral("launcher"), QStringLiteral("ranks"), QStringLiteral("netns_rate"),
                               QStringLiteral("netns_burst")})
        facts.remove(key);
    for (auto it = row.facts.constBegin(); it != row.facts.constEnd(); ++it)
        facts.insert(it.key(), it.value());
    row.facts = facts;
    auto updated = m_project->updateCluster(c->id, row, def.nodeRows());
    if (!updated) {
        QMessageBox::warning(this, tr("Edit cluster"), updated.error().text());
        return;
    }
    m_results.remove(c->name);
    refresh();
    selectCluster(def.name);
    emit statusMessage(tr("Saved cluster %1.").arg(store::printableName(def.name)));
    emit clustersChanged(def.name);
}

void ClustersPage::removeCluster() {
    const auto c = cluster(selectedCluster());
    if (!c || !m_project || m_project->readOnly() || isChecking())
        return;
    QMessageBox ask(QMessageBox::Question, tr("Remove cluster"),
                    tr("Remove cluster %1 and its %n node(s) from the project? Nothing on the nodes is touched.", "",
                       int(m_project->nodes(c->id).size()))
                        .arg(store::printableName(c->name)),
                    QMessageBox::NoButton, this);
    ask.setObjectName(QStringLiteral("removeClusterQuestion"));
    QPushButton* yes = ask.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    ask.addButton(QMessageBox::Cancel);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.exec();
    if (ask.clickedButton() != yes)
        return;
    auto removed = m_project->removeCluster(c->id);
    if (!removed) {
        QMessageBox::warning(this, tr("Remove cluster"), removed.error().text());
        return;
    }
    m_results.remove(c->name);
    refresh();
    emit statusMessage(tr("Removed cluster %1.").arg(store::printableName(c->name)));
    emit clustersChanged(QString());
}

remote::HostKeyDecision ClustersPage::askHostKey(const std::shared_ptr<CheckState>& state, const remote::HostKeyInfo& key) {
    auto answer = std::make_shared<std::promise<remote::HostKeyDecision>>();
    std::future<remote::HostKeyDecision> future = answer->get_future();
    QMetaObject::invokeMethod(
        this,
        [this, key, answer, state] {
            if (state->cancel.load()) {
                answer->set_value(remote::HostKeyDecision::Reject);
                return;
            }
            auto* dialog = new HostKeyDialog(key, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowModality(Qt::WindowModal);
            m_questions << dialog;
            appendLog(key.node, key.changed ? tr("host key CHANGED: %1 %2 — refused").arg(key.keyType, key.fingerprint)
                                            : tr("unknown host key %1 %2: asking").arg(key.keyType, key.fingerprint));
            connect(dialog, &QDialog::finished, this, [dialog, answer] { answer->set_value(dialog->decision()); });
            dialog->open();
        },
        Qt::QueuedConnection);
    if (key.changed)
        return remote::HostKeyDecision::Reject;  // refused whatever; the warning stays on screen
    // Wait for the answer without holding the GUI thread; a cancel ends the wait.
    while (future.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
        if (state->cancel.load())
            return remote::HostKeyDecision::Reject;
    return future.get();
}

QString ClustersPage::askPassphrase(const std::shared_ptr<CheckState>& state, const QString& prompt) {
    auto answer = std::make_shared<std::promise<QString>>();
    std::future<QString> future = answer->get_future();
    QMetaObject::invokeMethod(
        this,
        [this, prompt, answer, state] {
            if (state->cancel.load()) {
                answer->set_value(QString());
                return;
            }
            auto* dialog = new QInputDialog(this);
            dialog->setObjectName(QStringLiteral("passphraseDialog"));
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setWindowModality(Qt::WindowModal);
            dialog->setWindowTitle(tr("Key passphrase"));
            dialog->setLabelText(tr("%1\nIt is used for this check only and never stored.").arg(prompt));
            dialog->setTextEchoMode(QLineEdit::Password);
            m_questions << dialog;
            connect(dialog, &QDialog::finished, this, [dialog, answer](int result) {
                QString text = result == QDialog::Accepted ? dialog->textValue() : QString();
                dialog->setTextValue(QString());
                answer->set_value(text);
            });
            dialog->open();
        },
        Qt::QueuedConnection);
    while (future.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
        if (state->cancel.load())
            return QString();
    return future.get();
}

void ClustersPage::checkCluster() {
    const auto c = cluster(selectedCluster());
    if (!c || isChecking())
        return;
    const QList<store::NodeRow> stored = m_project->nodes(c->id);
    auto state = std::make_shared<CheckState>();
    m_state = state;
    m_checking = c->name;
    m_log->clear();
    m_now->setText(tr("Starting the check of %1…").arg(store::printableName(c->name)));
    const QString name = c->name;
    std::function<QList<remote::NodeCheck>()> work;
    if (remote::LocalClusterSpec::fromFacts(c->facts)) {
        QStringList addresses;
        for (const auto& n : stored)
            addresses << n.address;
        appendLog(QString(), tr("this computer: running moe-probe --inventory (no SSH)"));
        work = [addresses] {
            auto bundle = remote::locateProbeBundle({});
            auto inv = bundle ? remote::localInventory(*bundle) : Expected<QJsonObject, QString>(unexpected(bundle.error()));
            QList<remote::NodeCheck> checks;
            for (const QString& a : addresses)
                checks << remote::NodeCheck{a, bool(inv),
                                            remote::NodeFailure{a, remote::RemoteError::Kind::Protocol,
                                                                inv ? QString() : tr("this computer: %1").arg(inv.error())},
                                            inv ? *inv : QJsonObject(), QString(), false};
            return checks;
        };
    } else {
        remote::ClusterCheckRequest req;
        for (const auto& n : stored) {
            auto a = remote::NodeAddress::parse(n.address);
            if (!a) {
                m_checking.clear();
                m_now->setText(tr("Cluster %1: node address \"%2\" cannot be used: %3").arg(c->name, n.address, a.error()));
                updateButtons();
                return;
            }
            req.nodes << *a;
        }
        req.ssh = remote::sshConfigFromHome();
        if (!c->identityFile.isEmpty())
            req.ssh.identityFiles << c->identityFile;
        req.ssh.passphrase = [this, state](const QString& prompt) { return askPassphrase(state, prompt); };
        remote::StageOneEvents events;
        events.progress = [this](const QString& node, double, const QString& what) {
            QMetaObject::invokeMethod(
                this,
                [this, node, what] {
                    m_now->setText(node.isEmpty() ? what : tr("node %1: %2").arg(node, what));
                    appendLog(node, what);
                },
                Qt::QueuedConnection);
        };
        events.hostKeyDecision = [this, state](const remote::HostKeyInfo& key) { return askHostKey(state, key); };
        work = [req, events, state] { return remote::checkCluster(req, events, &state->cancel); };
    }
    m_thread = runInWorker<QList<remote::NodeCheck>>(this, work, [this, name, state](QList<remote::NodeCheck> checks) {
        finishCheck(name, checks, state->cancel.load());
    });
    refresh();
}

void ClustersPage::cancelCheck() {
    if (!m_state)
        return;
    m_state->cancel.store(true);
    for (const QPointer<QWidget>& q : m_questions)
        if (q)
            q->close();
    m_questions.clear();
    if (isChecking())
        m_now->setText(tr("Cancelling…"));
}

void ClustersPage::finishCheck(const QString& clusterName, const QList<remote::NodeCheck>& checks, bool cancelled) {
    m_thread = nullptr;
    m_state.reset();
    m_checking.clear();
    int ok = 0;
    for (const auto& k : checks)
        ok += k.ok ? 1 : 0;
    const int failed = int(checks.size()) - ok;
    if (cancelled) {
        m_now->setText(tr("Check of %1 cancelled; nothing stored.").arg(store::printableName(clusterName)));
        appendLog(QString(), m_now->text());
        refresh();
        return;
    }
    m_results.insert(clusterName, checks);
    const auto c = cluster(clusterName);
    if (c && m_project && !m_project->readOnly()) {
        auto kept = remote::storeClusterCheck(*m_project, *c, m_project->nodes(c->id), checks);
        if (!kept)
            appendLog(QString(), kept.error().text());
    }
    m_now->setText(failed == 0 ? tr("Check of %1: %n node(s) answered; their inventory is stored.", "", ok)
                                     .arg(store::printableName(clusterName))
                               : tr("Check of %1: %2 of %n node(s) answered; see the status of each node.", "",
                                    int(checks.size()))
                                     .arg(store::printableName(clusterName))
                                     .arg(ok));
    appendLog(QString(), m_now->text());
    for (const auto& k : checks)
        if (!k.ok)
            appendLog(k.node, k.failure.message);
    refresh();
    emit statusMessage(m_now->text());
    emit clustersChanged(clusterName);
}

} // namespace moewb::gui
