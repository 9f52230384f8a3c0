#include "NodePool.h"

#include "../RemoteTr.h"
#include "../ssh/RemoteCommand.h"
#include "../ssh/SftpUpload.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

namespace moewb::remote {

void waitAll(std::vector<std::future<void>>& futures) {
    for (auto& f : futures)
        if (f.valid())
            f.wait();
}

NodeFailure NodePool::failureOf(const RemoteError& e) { return NodeFailure{e.node, e.kind, e.message}; }

NodePool::NodePool(const QList<NodeAddress>& nodes, SshClientConfig ssh, StageOneEvents events,
                   const std::atomic_bool* cancel)
    : m_ssh(std::move(ssh)), m_events(std::move(events)), m_cancel(cancel) {
    m_nodes.reserve(static_cast<size_t>(nodes.size()));
    for (const NodeAddress& a : nodes) {
        PoolNode n;
        n.address = a;
        n.name = a.display();
        n.worker = std::make_unique<NodeWorker>();
        m_nodes.push_back(std::move(n));
    }
}

NodePool::~NodePool() = default;

void NodePool::log(const QString& node, LogStream stream, const QString& text) const {
    if (m_events.log)
        m_events.log(node, stream, text);
}

void NodePool::progress(const QString& node, double fraction, const QString& what) const {
    if (m_events.progress)
        m_events.progress(node, fraction, what);
}

QList<NodeFailure> NodePool::prepare(const QString& probeFile, const QString& ncclFallback, const FanoutTimeouts& timeouts,
                                     bool inventory) {
    std::mutex failMutex;
    QList<NodeFailure> failures;
    auto fail = [&](const NodeFailure& f) {
        std::lock_guard<std::mutex> lock(failMutex);
        failures << f;
    };
    auto cancelled = [this] { return m_cancel && m_cancel->load(); };

    // Host keys: accepted by the flag, asked (one question at a time), or refused.
    KnownHostsPolicy policy = KnownHostsPolicy::refuseUnknown();
    if (m_ssh.acceptNewHostKeys) {
        policy = KnownHostsPolicy::acceptUnknown();
    } else if (m_events.hostKeyDecision) {
        auto decide = m_events.hostKeyDecision;
        auto mutex = m_askMutex;
        policy = KnownHostsPolicy::decide([decide, mutex](const HostKeyInfo& info) {
            std::lock_guard<std::mutex> lock(*mutex);
            return decide(info);
        });
    } else if (m_events.hostKeyQuestion) {
        auto ask = m_events.hostKeyQuestion;
        auto mutex = m_askMutex;
        policy = KnownHostsPolicy::ask([ask, mutex](const HostKeyInfo& info) {
            std::lock_guard<std::mutex> lock(*mutex);
            return ask(info);
        });
    }

    // 1. Connect, all at once.
    std::vector<std::future<void>> futures;
    for (PoolNode& n : m_nodes) {
        SshOptions o;
        o.node = n.address;
        o.sshDir = m_ssh.sshDir;
        o.configFile = m_ssh.configFile;
        o.knownHostsFile = m_ssh.knownHostsFile;
        o.identityFiles = m_ssh.identityFiles;
        o.useAgent = m_ssh.useAgent;
        o.connectTimeoutMs = timeouts.connectMs;  // scaled to the nodes connecting at once
        o.cancel = m_cancel;
        o.hostKeys = policy;
        o.passphrase = m_ssh.passphrase;
        PoolNode* node = &n;
        futures.push_back(n.worker->post([this, o, node, fail](std::unique_ptr<SshSession>& session) {
            if (m_cancel && m_cancel->load())
                return;
            progress(node->name, 0.0, RemoteLaunch::tr("connecting"));
            auto s = SshSession::connect(o);
            if (!s) {
                fail(failureOf(s.error()));
                progress(node->name, 1.0, RemoteLaunch::tr("failed: %1").arg(s.error().message));
                return;
            }
            session = std::move(s.value());
            node->host = session->host();
            progress(node->name, 1.0, RemoteLaunch::tr("connected"));
        }));
    }
    waitAll(futures);
    if (!failures.isEmpty() || cancelled())
        return failures;

    // 2. Upload: node 0 first, then the others in parallel.
    const qint64 total = QFileInfo(probeFile).size();
    const int uploadMs = timeouts.uploadMs(total);
    auto uploadJob = [this, probeFile, total, fail, uploadMs](PoolNode* node) {
        return [this, probeFile, total, fail, node, uploadMs](std::unique_ptr<SshSession>& session) {
            if (!session || (m_cancel && m_cancel->load()))
                return;
            qint64 lastShown = -1;
            auto shown = [&](qint64 done, qint64 all) {
                // About every 5 %: enough for a progress bar, not a flood of events.
                if (lastShown >= 0 && done < all && done - lastShown < all / 20)
                    return;
                lastShown = done;
                progress(node->name, all > 0 ? double(done) / double(all) : 1.0,
                         RemoteLaunch::tr("uploading probe %1/%2 MB")
                             .arg(double(done) / 1e6, 0, 'f', 1)
                             .arg(double(all) / 1e6, 0, 'f', 1));
            };
            progress(node->name, 0.0, RemoteLaunch::tr("uploading probe 0.0/%1 MB").arg(double(total) / 1e6, 0, 'f', 1));
            auto up = SftpUpload::upload(*session, probeFile, uploadMs, shown, m_cancel);
            if (!up) {
                fail(failureOf(up.error()));
                return;
            }
            node->probePath = up->remotePath;
            node->probeSha256 = up->sha256;
            node->uploaded = !up->skipped;
            node->home = up->remotePath.left(up->remotePath.indexOf(QStringLiteral("/.cache/moe-workbench/")));
            progress(node->name, 1.0, up->skipped ? RemoteLaunch::tr("probe already there") : RemoteLaunch::tr("probe uploaded"));
        };
    };
    if (!m_nodes.empty()) {
        auto f = m_nodes[0].worker->post(uploadJob(&m_nodes[0]));
        f.wait();
    }
    futures.clear();
    if (failures.isEmpty())
        for (size_t i = 1; i < m_nodes.size(); ++i)
            futures.push_back(m_nodes[i].worker->post(uploadJob(&m_nodes[i])));
    waitAll(futures);
    if (!failures.isEmpty() || cancelled() || !inventory)
        return failures;

    // 3. Inventory; the fallback NCCL only where none was found.
    futures.clear();
    for (PoolNode& n : m_nodes) {
        PoolNode* node = &n;
        futures.push_back(n.worker->post([this, node, fail, ncclFallback, timeouts](std::unique_ptr<SshSession>& session) {
            if (!session || (m_cancel && m_cancel->load()))
                return;
            progress(node->name, 0.0, RemoteLaunch::tr("inventory"));
            auto c = RemoteCommand::capture(*session,
                                            SftpUpload::verifiedExec(node->probeSha256, node->probePath) +
                                                QStringList{QStringLiteral("--inventory")},
                                            timeouts.helperMs);
            if (!c) {
                fail(failureOf(c.error()));
                return;
            }
            QJsonParseError pe{};
            const QJsonDocument doc = QJsonDocument::fromJson(c->out, &pe);
            if (c->exitStatus != 0 || !doc.isObject()) {
                const QString why = c->exitStatus != 0
                                        ? RemoteLaunch::tr("exited with status %1").arg(c->exitStatus)
                                        : RemoteLaunch::tr("printed no JSON object (%1)").arg(pe.errorString());
                const QString tail = QString::fromUtf8(c->err).trimmed().section(QLatin1Char('\n'), -1);
                fail(NodeFailure{node->name, RemoteError::Kind::Protocol,
                                 QStringLiteral("%1: moe-probe --inventory %2%3")
                                     .arg(node->name, why, tail.isEmpty() ? QString() : QStringLiteral(": ") + tail)});
                return;
            }
            node->inventory = doc.object();
            if (!ncclFallback.isEmpty() && node->inventory.value(QStringLiteral("nccl")).isNull()) {
                progress(node->name, 0.0, RemoteLaunch::tr("uploading fallback NCCL"));
                auto up = SftpUpload::upload(*session, ncclFallback, timeouts.uploadMs(QFileInfo(ncclFallback).size()), {},
                                             m_cancel);
                if (!up) {
                    fail(failureOf(up.error()));
                    return;
                }
                node->ncclLib = up->remotePath;
            }
            progress(node->name, 1.0, RemoteLaunch::tr("ready"));
        }));
    }
    waitAll(futures);
    return failures;
}

Expected<QString, QString> locateProbeBundle(const QString& given) {
    QStringList candidates;
    if (!given.isEmpty()) {
        candidates << given;
    } else {
        const QString env = qEnvironmentVariable("MOEWB_PROBE_BUNDLE");
        if (!env.isEmpty())
            candidates << env;
        const QString app = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
        if (!app.isEmpty())
            candidates << app + QStringLiteral("/probe-bundle")
                       << app + QStringLiteral("/../remote/probe/probe-bundle")
                       << app + QStringLiteral("/../../remote/probe/probe-bundle")
                       << app + QStringLiteral("/../libexec/moe-workbench/probe-bundle");
    }
    for (const QString& c : candidates) {
        if (QFileInfo(c + QStringLiteral("/moe-probe")).isFile())
            return QDir(c).absolutePath();
    }
    return unexpected(RemoteLaunch::tr("no probe bundle (a directory with moe-probe) in: %1; build the target "
                                       "moe-probe-bundle or set MOEWB_PROBE_BUNDLE")
                          .arg(candidates.join(QStringLiteral(", "))));
}

QList<NodeCheck> checkCluster(const ClusterCheckRequest& request, const StageOneEvents& events,
                              const std::atomic_bool* cancel) {
    QList<NodeCheck> out;
    for (const NodeAddress& a : request.nodes)
        out << NodeCheck{a.display(), false, {}, {}, {}, false};
    auto bundle = locateProbeBundle(request.probeBundleDir);
    if (!bundle) {
        for (NodeCheck& c : out)
            c.failure = NodeFailure{c.node, RemoteError::Kind::InvalidArgument, bundle.error()};
        return out;
    }
    NodePool pool(request.nodes, request.ssh, events, cancel);
    const QList<NodeFailure> failures =
        pool.prepare(*bundle + QStringLiteral("/moe-probe"), QString(),
                     FanoutTimeouts::scaled(request.ssh.connectTimeoutMs, request.commandTimeoutMs, int(request.nodes.size())));
    for (qsizetype i = 0; i < out.size(); ++i) {
        const PoolNode& n = pool.nodes()[static_cast<size_t>(i)];
        NodeCheck& c = out[i];
        c.inventory = n.inventory;
        c.probePath = n.probePath;
        c.uploaded = n.uploaded;
        for (const NodeFailure& f : failures)
            if (f.node == c.node) {
                c.failure = f;
                break;
            }
        c.ok = c.failure.message.isEmpty() && !c.inventory.isEmpty();
        if (!c.ok && c.failure.message.isEmpty())
            c.failure = NodeFailure{c.node, cancel && cancel->load() ? RemoteError::Kind::Cancelled : RemoteError::Kind::Protocol,
                                    cancel && cancel->load() ? RemoteLaunch::tr("%1: cancelled").arg(c.node)
                                                             : RemoteLaunch::tr("%1: not checked (another node failed first)").arg(c.node)};
    }
    return out;
}

} // namespace moewb::remote
