#include "StageOneRunPanel.h"

#include "launch/LocalRanks.h"
#include "launch/StageOneSweep.h"
#include "store/ProjectStore.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <optional>

namespace moewb::gui {

namespace {

SweepOutcome runSweep(const std::shared_ptr<remote::StageOneSweep>& sweep) {
    SweepOutcome out;
    auto r = sweep->run();
    if (r) {
        out.savedRuns = *r;
    } else {
        out.savedRuns = r.error().savedRuns;
        out.failure = r.error().summary();
        out.cancelled = r.error().cancelled;
    }
    return out;
}

} // namespace

StageOneRunPanel::StageOneRunPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stageOneRunPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* heading = new QLabel(tr("<b>Measure a new baseline on a cluster</b> (moe-probe over SSH; each node count "
                                  "becomes one run)"),
                               this);
    heading->setWordWrap(true);
    layout->addWidget(heading);

    auto* form = new QFormLayout;
    m_cluster = new QComboBox(this);
    m_cluster->setObjectName(QStringLiteral("sweepCluster"));
    m_record = new QComboBox(this);
    m_record->setObjectName(QStringLiteral("sweepRecord"));
    m_nodeCounts = new QLineEdit(QStringLiteral("2"), this);
    m_nodeCounts->setObjectName(QStringLiteral("sweepNodeCounts"));
    m_nodeCounts->setToolTip(tr("Comma-separated; each sweep point uses the first N nodes of the cluster"));
    m_ep = new QSpinBox(this);
    m_ep->setObjectName(QStringLiteral("sweepEp"));
    m_ep->setRange(1, 65536);
    m_ep->setToolTip(tr("The training's expert-parallel size: the all-to-all concurrency the baseline should "
                        "match (world = nodes × GPUs per node)"));
    m_gpus = new QSpinBox(this);
    m_gpus->setObjectName(QStringLiteral("sweepGpus"));
    m_gpus->setRange(1, 64);
    auto* epRow = new QHBoxLayout;
    epRow->addWidget(m_ep);
    auto* gpusLabel = new QLabel(tr("GPUs per node:"), this);
    gpusLabel->setBuddy(m_gpus);
    epRow->addWidget(gpusLabel);
    epRow->addWidget(m_gpus);
    epRow->addStretch(1);
    m_sizes = new QLineEdit(this);
    m_sizes->setObjectName(QStringLiteral("sweepSizes"));
    m_sizes->setToolTip(tr("Bytes each rank sends, e.g. \"1 MiB, 16 MiB, 64 MiB\""));
    m_suggest = new QPushButton(tr("Suggest from record"), this);
    m_suggest->setObjectName(QStringLiteral("suggestSizesButton"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_sizes, 1);
    sizeRow->addWidget(m_suggest);
    m_repeats = new QSpinBox(this);
    m_repeats->setObjectName(QStringLiteral("sweepRepeats"));
    m_repeats->setRange(2, 100);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Independent repeats per size: the CV across repeats needs at least two"));
    m_launcher = new QComboBox(this);
    m_launcher->setObjectName(QStringLiteral("sweepLauncher"));
    for (auto l : {remote::Launcher::Ssh, remote::Launcher::Mpirun, remote::Launcher::Slurm, remote::Launcher::Local})
        m_launcher->addItem(remote::launcherName(l), int(l));
    m_backend = new QComboBox(this);
    m_backend->setObjectName(QStringLiteral("sweepBackend"));
    for (auto b : {remote::ProbeBackend::Nccl, remote::ProbeBackend::Tcp})
        m_backend->addItem(remote::backendName(b), int(b));
    m_trustKeys = new QCheckBox(tr("Trust host keys seen for the first time (written to known_hosts)"), this);
    form->addRow(tr("Cluster:"), m_cluster);
    form->addRow(tr("Config record:"), m_record);
    form->addRow(tr("Node counts:"), m_nodeCounts);
    form->addRow(tr("EP size:"), epRow);
    form->addRow(tr("Message sizes:"), sizeRow);
    // Rows whose field is a layout: their labels name its first input.
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(epRow)))
        label->setBuddy(m_ep);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(sizeRow)))
        label->setBuddy(m_sizes);
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Launcher:"), m_launcher);
    form->addRow(tr("Backend:"), m_backend);
    form->addRow(QString(), m_trustKeys);
    layout->addLayout(form);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    m_where = new QLabel(this);
    m_where->setObjectName(QStringLiteral("sweepWhere"));
    m_where->setWordWrap(true);
    m_where->hide();
    layout->addWidget(m_where);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run on cluster…"), this);
    m_run->setObjectName(QStringLiteral("runOnClusterButton"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelSweepButton"));
    m_cancel->setEnabled(false);
    m_copyLog = new QPushButton(tr("Copy log"), this);
    m_state = new QLabel(this);
    m_state->setWordWrap(true);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_copyLog);
    buttons->addWidget(m_state, 1);
    layout->addLayout(buttons);

    m_progressBox = new QWidget(this);
    m_progressGrid = new QGridLayout(m_progressBox);
    m_progressGrid->setContentsMargins(0, 0, 0, 0);
    m_progressBox->hide();
    layout->addWidget(m_progressBox);
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("sweepLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_log->setMaximumHeight(160);
    m_log->setPlaceholderText(tr("The sweep's log appears here."));
    m_log->hide();
    layout->addWidget(m_log);

    m_watcher = new QFutureWatcher<SweepOutcome>(this);
    connect(m_watcher, &QFutureWatcher<SweepOutcome>::finished, this, &StageOneRunPanel::finished);
    connect(m_run, &QPushButton::clicked, this, &StageOneRunPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &StageOneRunPanel::cancel);
    connect(m_copyLog, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_log->toPlainText()); });
    connect(m_suggest, &QPushButton::clicked, this, &StageOneRunPanel::suggestSizes);
    connect(m_record, &QComboBox::currentIndexChanged, this, &StageOneRunPanel::recordChosen);
    connect(m_cluster, &QComboBox::currentIndexChanged, this, &StageOneRunPanel::clusterChosen);
}

StageOneRunPanel::~StageOneRunPanel() {
    if (m_sweep && m_watcher->isRunning()) {
        m_sweep->cancel();
        m_watcher->disconnect(this);
        m_watcher->waitForFinished(); // the sweep's callbacks must not outlive the panel
    }
}

bool StageOneRunPanel::isRunning() const {
    return m_watcher->isRunning();
}

void StageOneRunPanel::setProject(store::ProjectStore* project) {
    m_project = project;
    const QString cluster = m_cluster->currentText();
    const QString record = m_record->currentText();
    QSignalBlocker b1(m_cluster), b2(m_record);
    m_cluster->clear();
    m_record->clear();
    if (project) {
        for (const store::ClusterRow& c : project->clusters())
            m_cluster->addItem(c.name, c.id);
        for (const store::ConfigRecordRow& r : project->configRecords())
            m_record->addItem(r.name);
    }
    if (int i = m_cluster->findText(cluster); i >= 0)
        m_cluster->setCurrentIndex(i);
    if (int i = m_record->findText(record); i >= 0) {
        m_record->setCurrentIndex(i);
    } else if (project) {
        // The record of the cluster's latest stage 1 run, else the first MoE record.
        QString preferred;
        for (const store::RunRow& r : project->runs())
            if (r.commSampleCount > 0 && r.clusterName == m_cluster->currentText())
                preferred = r.recordName;
        if (preferred.isEmpty())
            for (const store::ConfigRecordRow& r : project->configRecords())
                if (preferred.isEmpty() &&
                    r.json.value(QStringLiteral("model")).toObject().value(QStringLiteral("kind")).toString() !=
                        QLatin1String("dense"))
                    preferred = r.name;
        if (int i = m_record->findText(preferred); i >= 0)
            m_record->setCurrentIndex(i);
    }
    const bool ready = project && m_cluster->count() > 0 && m_record->count() > 0;
    m_run->setEnabled(ready && !isRunning());
    m_hint->setText(!project                    ? QString()
                    : m_cluster->count() == 0 ? tr("Add a cluster first (moewb cluster add, or the Clusters page).")
                    : m_record->count() == 0  ? tr("Add a config record first: the runs belong to one.")
                                              : QString());
    m_hint->setVisible(!m_hint->text().isEmpty());
    if (cluster.isEmpty())
        clusterChosen(); // GPUs per node first: the node counts follow from EP ÷ GPUs per node
    else
        showClusterKind();
    if (record.isEmpty())
        recordChosen();
}

void StageOneRunPanel::clusterChosen() {
    if (!m_project || m_cluster->currentIndex() < 0)
        return;
    for (const store::ClusterRow& c : m_project->clusters())
        if (c.name == m_cluster->currentText() && c.gpusPerNode > 0)
            m_gpus->setValue(c.gpusPerNode);
    showClusterKind();
}

// A cluster of this computer (cluster add --local) runs with launcher local, no SSH and
// no host keys; its nodes are ranks on this computer.
void StageOneRunPanel::showClusterKind() {
    std::optional<remote::LocalClusterSpec> local;
    int ranks = 0;
    if (m_project)
        for (const store::ClusterRow& c : m_project->clusters())
            if (c.name == m_cluster->currentText()) {
                local = remote::LocalClusterSpec::fromFacts(c.facts);
                ranks = int(m_project->nodes(c.id).size());
            }
    const int localIndex = m_launcher->findData(int(remote::Launcher::Local));
    if (local) {
        m_launcher->setCurrentIndex(localIndex);
        m_where->setText(local->netnsRate.isEmpty()
                             ? tr("Cluster %1 is this computer: %2 ranks as local processes on loopback (no SSH, no "
                                  "host keys); node counts are rank counts.")
                                   .arg(m_cluster->currentText())
                                   .arg(ranks)
                             : tr("Cluster %1 is this computer: %2 ranks as local processes, each in its own network "
                                  "namespace with its link shaped to %3 (needs root); node counts are rank counts.")
                                   .arg(m_cluster->currentText())
                                   .arg(ranks)
                                   .arg(local->netnsRate));
    } else if (m_launcher->currentIndex() == localIndex) {
        m_launcher->setCurrentIndex(m_launcher->findData(int(remote::Launcher::Ssh)));
    }
    m_launcher->setEnabled(!local);
    m_trustKeys->setEnabled(!local);
    m_where->setVisible(bool(local));
}

void StageOneRunPanel::recordChosen() {
    if (!m_project)
        return;
    const auto row = m_project->configRecord(m_record->currentText());
    if (!row)
        return;
    const qint64 ep = row->json.value(QStringLiteral("parallelism")).toObject().value(QStringLiteral("ep")).toInteger(0);
    if (ep > 0) {
        m_ep->setValue(int(ep));
        // Node counts that give the EP size's concurrency, and half of it.
        const int perNode = qMax(1, m_gpus->value());
        int nodes = int(std::max<qint64>(1, ep / perNode));
        // No more nodes than the chosen cluster has.
        for (const store::ClusterRow& c : m_project->clusters())
            if (c.name == m_cluster->currentText())
                if (const auto n = m_project->nodes(c.id).size(); n > 0)
                    nodes = qMin(nodes, int(n));
        m_nodeCounts->setText(nodes > 1 ? QStringLiteral("%1, %2").arg(qMax(1, nodes / 2)).arg(nodes)
                                        : QString::number(nodes));
    }
    if (m_sizes->text().trimmed().isEmpty())
        suggestSizes();
}

void StageOneRunPanel::suggestSizes() {
    QList<quint64> sizes;
    if (m_project)
        if (const auto row = m_project->configRecord(m_record->currentText()))
            sizes = suggestedSizes(row->json);
    if (sizes.isEmpty()) {
        sizes = {1ull << 20, 16ull << 20, 64ull << 20};
        emit statusMessage(tr("The record lacks sequence length, top-k or hidden size: default sizes shown."));
    }
    m_sizes->setText(sizesText(sizes));
}

QList<quint64> StageOneRunPanel::suggestedSizes(const QJsonObject& json) {
    const qint64 seq = json.value(QStringLiteral("batch")).toObject().value(QStringLiteral("sequence_length")).toInteger(0);
    const qint64 topK = json.value(QStringLiteral("moe")).toObject().value(QStringLiteral("top_k")).toInteger(0);
    const qint64 hidden = json.value(QStringLiteral("model")).toObject().value(QStringLiteral("hidden_size")).toInteger(0);
    if (seq <= 0 || topK <= 0 || hidden <= 0)
        return {};
    const double bytes = double(seq) * double(topK) * double(hidden) * 2.0;
    quint64 p = 1;
    while (double(p) * 2 <= bytes && p < (1ull << 40))
        p <<= 1;
    QList<quint64> out;
    for (quint64 s = std::max<quint64>(p >> 3, 1024); s <= (p << 1); s <<= 1)
        out << s;
    return out;
}

QString StageOneRunPanel::sizesText(const QList<quint64>& sizes) {
    QStringList parts;
    for (quint64 s : sizes) {
        if (s >= (1ull << 30) && s % (1ull << 30) == 0)
            parts << QStringLiteral("%1 GiB").arg(s >> 30);
        else if (s >= (1ull << 20) && s % (1ull << 20) == 0)
            parts << QStringLiteral("%1 MiB").arg(s >> 20);
        else if (s >= 1024 && s % 1024 == 0)
            parts << QStringLiteral("%1 KiB").arg(s >> 10);
        else
            parts << QStringLiteral("%1 B").arg(s);
    }
    return parts.join(QStringLiteral(", "));
}

std::optional<QList<quint64>> StageOneRunPanel::parseSizes(const QString& text, QString* error) {
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*(B|K|KiB|M|MiB|G|GiB)?\\s*$"),
                                       QRegularExpression::CaseInsensitiveOption);
    QList<quint64> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto m = re.match(part);
        if (!m.hasMatch()) {
            if (error)
                *error = tr("message size \"%1\" is not a size (e.g. 64 MiB)").arg(part.trimmed());
            return std::nullopt;
        }
        quint64 v = m.captured(1).toULongLong();
        const QString unit = m.captured(2).toUpper();
        if (unit.startsWith(QLatin1Char('K')))
            v <<= 10;
        else if (unit.startsWith(QLatin1Char('M')))
            v <<= 20;
        else if (unit.startsWith(QLatin1Char('G')))
            v <<= 30;
        if (v == 0) {
            if (error)
                *error = tr("message size \"%1\" must be above 0").arg(part.trimmed());
            return std::nullopt;
        }
        out << v;
    }
    if (out.isEmpty()) {
        if (error)
            *error = tr("give at least one message size");
        return std::nullopt;
    }
    return out;
}

std::optional<remote::StageOneRequest> StageOneRunPanel::request(QString* error) const {
    if (!m_project) {
        *error = tr("no project is open");
        return std::nullopt;
    }
    remote::StageOneRequest r;
    r.projectPath = m_project->path();
    r.clusterName = m_cluster->currentText();
    r.recordName = m_record->currentText();
    if (r.clusterName.isEmpty() || r.recordName.isEmpty()) {
        *error = tr("choose a cluster and a config record");
        return std::nullopt;
    }
    r.nodeCounts.clear();
    for (const QString& part : m_nodeCounts->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1) {
            *error = tr("node count \"%1\" is not a whole number ≥ 1").arg(part.trimmed());
            return std::nullopt;
        }
        r.nodeCounts << n;
    }
    if (r.nodeCounts.isEmpty()) {
        *error = tr("give at least one node count");
        return std::nullopt;
    }
    auto sizes = parseSizes(m_sizes->text(), error);
    if (!sizes)
        return std::nullopt;
    r.messageSizes = *sizes;
    r.repeats = m_repeats->value();
    r.gpusPerNode = m_gpus->value();
    r.launcher = remote::Launcher(m_launcher->currentData().toInt());
    r.backend = remote::ProbeBackend(m_backend->currentData().toInt());
    r.acceptNewHostKeys = m_trustKeys->isChecked();
    for (const store::ClusterRow& c : m_project->clusters())
        if (c.name == r.clusterName && !c.identityFile.isEmpty())
            r.identityFiles << c.identityFile;
    return r;
}

void StageOneRunPanel::start() {
    if (isRunning())
        return;
    QString error;
    auto req = request(&error);
    if (!req) {
        m_state->setText(tr("Not started: %1.").arg(error));
        emit statusMessage(m_state->text());
        return;
    }
    // World size = nodes × GPUs per node; say when no point matches the EP size.
    bool matches = false;
    for (int n : req->nodeCounts)
        matches = matches || n * req->gpusPerNode == m_ep->value();
    m_log->clear();
    m_log->show();
    for (auto it = m_bars.begin(); it != m_bars.end(); ++it) {
        delete it->first;
        delete it->second;
    }
    m_bars.clear();
    m_progressBox->show();
    if (!matches)
        appendLog(QString(), int(remote::LogStream::Info),
                  tr("Note: no sweep point's world size (nodes × %1 GPUs) equals the EP size %2; the baseline "
                     "should use the training's concurrency.")
                      .arg(req->gpusPerNode)
                      .arg(m_ep->value()));

    remote::StageOneEvents events;
    events.progress = [this](const QString& node, double fraction, const QString& what) {
        QMetaObject::invokeMethod(this, [this, node, fraction, what] { progress(node, fraction, what); },
                                  Qt::QueuedConnection);
    };
    events.log = [this](const QString& node, remote::LogStream stream, const QString& text) {
        QMetaObject::invokeMethod(this, [this, node, stream, text] { appendLog(node, int(stream), text); },
                                  Qt::QueuedConnection);
    };
    m_sweep = std::make_shared<remote::StageOneSweep>(*req, events);
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_state->setText(tr("Running on %1: node counts %2…").arg(req->clusterName, m_nodeCounts->text()));
    emit statusMessage(m_state->text());
    m_watcher->setFuture(QtConcurrent::run(runSweep, m_sweep));
}

void StageOneRunPanel::cancel() {
    if (!m_sweep || !isRunning())
        return;
    m_sweep->cancel();
    m_cancel->setEnabled(false);
    m_state->setText(tr("Cancelling… (remote processes are stopped; no partial run is saved)"));
    emit statusMessage(m_state->text());
}

void StageOneRunPanel::progress(const QString& node, double fraction, const QString& what) {
    const QString key = node.isEmpty() ? tr("sweep")
                        : remote::LocalClusterSpec::isNodeName(node)
                            ? tr("this computer, rank %1").arg(node.section(QLatin1Char(':'), 1))
                            : node;
    auto it = m_bars.find(key);
    if (it == m_bars.end()) {
        const int row = int(m_bars.size());
        auto* bar = new QProgressBar(m_progressBox);
        bar->setRange(0, 1000);
        bar->setFormat(key + QStringLiteral(": %p%"));
        bar->setMinimumWidth(220);
        auto* label = new QLabel(m_progressBox);
        m_progressGrid->addWidget(bar, row, 0);
        m_progressGrid->addWidget(label, row, 1);
        it = m_bars.insert(key, {bar, label});
    }
    it->first->setValue(int(qBound(0.0, fraction, 1.0) * 1000));
    it->second->setText(what);
}

void StageOneRunPanel::appendLog(const QString& node, int stream, const QString& text) {
    const QString prefix = node.isEmpty() ? QString()
                           : remote::LocalClusterSpec::isNodeName(node)
                               ? QStringLiteral("[%1] ").arg(tr("this computer, rank %1").arg(node.section(QLatin1Char(':'), 1)))
                               : QStringLiteral("[%1] ").arg(node);
    const QString tag = stream == int(remote::LogStream::Stderr) ? QStringLiteral("! ") : QString();
    m_log->appendPlainText(prefix + tag + text);
}

void StageOneRunPanel::finished() {
    const SweepOutcome out = m_watcher->result();
    m_sweep.reset();
    m_cancel->setEnabled(false);
    m_run->setEnabled(m_project != nullptr);
    if (out.failure.isEmpty())
        m_state->setText(tr("Done: %n run(s) saved.", "", int(out.savedRuns.size())));
    else if (out.cancelled)
        m_state->setText(tr("Cancelled. %n finished run(s) kept.", "", int(out.savedRuns.size())));
    else
        m_state->setText(tr("Failed — %1").arg(out.failure));
    if (!out.failure.isEmpty())
        appendLog(QString(), int(remote::LogStream::Info), out.failure);
    emit statusMessage(m_state->text());
    if (!out.savedRuns.isEmpty())
        emit runsSaved(out.savedRuns);
}

} // namespace moewb::gui
