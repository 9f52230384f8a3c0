#pragma once
// Internal to remote/launch: the nodes of a check or sweep, each with its worker thread
// and SSH session, and the preparation they share (connect, upload, inventory).
#include "ClusterCheck.h"
#include "FanoutTimeouts.h"
#include "NodeWorker.h"

#include <QByteArray>
#include <QJsonObject>

#include <atomic>
#include <mutex>
#include <optional>
#include <vector>

namespace moewb::remote {

// Splits a byte stream into lines (for log events); keeps the unfinished tail.
class LineSplitter {
public:
    template <typename Emit>
    void feed(const QByteArray& data, Emit sink) {
        m_buf += data;
        qsizetype nl;
        while ((nl = m_buf.indexOf('\n')) >= 0) {
            sink(QString::fromUtf8(m_buf.left(nl)));
            m_buf.remove(0, nl + 1);
        }
        if (m_buf.size() > 65536) {  // an endless line: pass it on in pieces
            sink(QString::fromUtf8(m_buf));
            m_buf.clear();
        }
    }
    template <typename Emit>
    void flush(Emit sink) {
        if (!m_buf.isEmpty())
            sink(QString::fromUtf8(m_buf));
        m_buf.clear();
    }

private:
    QByteArray m_buf;
};

struct PoolNode {
    NodeAddress address;
    QString name;  // display()
    std::unique_ptr<NodeWorker> worker;
    // Written by the node's worker, read by the caller after the job's future is ready.
    QString host;        // as connected (HostName from ~/.ssh/config)
    QString probePath;   // absolute, on the node
    QString probeSha256; // hex; the probe runs only through SftpUpload::verifiedExec with it
    QString home;        // the node's SFTP start directory (its home)
    QString ncclLib;     // uploaded fallback NCCL (only where the inventory found none)
    QJsonObject inventory;
    bool uploaded = false;
};

class NodePool {
public:
    NodePool(const QList<NodeAddress>& nodes, SshClientConfig ssh, StageOneEvents events,
             const std::atomic_bool* cancel);
    ~NodePool();

    // Connects every node (in parallel), uploads the probe (node 0 first, then the others
    // in parallel: on a shared home they find it there and skip), runs --inventory, and,
    // when ncclFallback names a local libnccl.so.2, uploads it to nodes without NCCL.
    // Each step is bounded by `timeouts` (scaled to the pool's nodes: FanoutTimeouts.h):
    // connect, each upload by its file's bytes, the inventory as a helper command.
    // Returns the per-node failures (empty: all prepared).
    QList<NodeFailure> prepare(const QString& probeFile, const QString& ncclFallback, const FanoutTimeouts& timeouts,
                               bool inventory = true);

    std::vector<PoolNode>& nodes() { return m_nodes; }
    const StageOneEvents& events() const { return m_events; }
    void log(const QString& node, LogStream stream, const QString& text) const;
    void progress(const QString& node, double fraction, const QString& what) const;

    static NodeFailure failureOf(const RemoteError& e);

private:
    std::vector<PoolNode> m_nodes;
    SshClientConfig m_ssh;
    StageOneEvents m_events;
    const std::atomic_bool* m_cancel;
    std::shared_ptr<std::mutex> m_askMutex = std::make_shared<std::mutex>();
};

// Waits for every future; returns early from nothing (jobs honour cancel themselves).
void waitAll(std::vector<std::future<void>>& futures);

} // namespace moewb::remote
