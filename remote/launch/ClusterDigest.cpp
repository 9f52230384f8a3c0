#include "ClusterDigest.h"

#include "../RemoteTr.h"
#include "../ssh/RemoteCommand.h"
#include "../ssh/SftpUpload.h"
#include "NodePool.h"
#include "anatomy/DigestDocument.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <climits>
#include <memory>

namespace moewb::remote {

namespace {

constexpr qint64 kMaxListingBytes = 64LL << 20;   // 100000 files of up to 4 KiB paths, with room
constexpr qint64 kMaxListedFiles = 100000;
constexpr qint64 kMaxStderrTail = 4096;
constexpr int kMaxFilesPerCommand = 256;          // each command line stays far below any ARG_MAX
constexpr qint64 kMaxArgBytesPerCommand = 96 * 1024;

// One command on a node, its stdout handed to `sink` as it arrives (false from the sink
// stops the command: its process group is killed, as on cancel). The stop flag is the
// caller's, so that the caller's cancel reaches a command that prints nothing.
struct NodeCommand {
    QStringList argv;
    int timeoutMs = 0;
    std::function<bool(const QByteArray&)> sink;
    std::atomic_bool* stop = nullptr;
    // Results, read once the job's future is ready.
    std::optional<RemoteError> error;
    int exitStatus = -1;
    bool sinkStopped = false;
    QByteArray stderrTail;
};

std::function<void(std::unique_ptr<SshSession>&)> runJob(NodeCommand* c) {
    return [c](std::unique_ptr<SshSession>& session) {
        if (!session) {
            c->error = RemoteError{RemoteError::Kind::Protocol, QString(), QString()};
            return;
        }
        RemoteCommandOptions o;
        o.timeoutMs = c->timeoutMs;
        o.cancel = c->stop;
        o.onStdout = [c](const QByteArray& data) {
            if (c->sinkStopped)
                return;
            if (!c->sink(data)) {
                c->sinkStopped = true;
                c->stop->store(true);
            }
        };
        o.onStderr = [c](const QByteArray& data) {
            c->stderrTail += data;
            if (c->stderrTail.size() > kMaxStderrTail)
                c->stderrTail = c->stderrTail.right(kMaxStderrTail);
        };
        auto r = RemoteCommand::run(*session, c->argv, o);
        if (!r)
            c->error = r.error();
        else
            c->exitStatus = r->exitStatus;
    };
}

// Waits for the futures, passing the caller's cancel on to every command's stop flag.
void waitPassingCancel(std::vector<std::future<void>>& futures, std::vector<std::unique_ptr<std::atomic_bool>>& stops,
                       const std::atomic_bool* cancel) {
    for (auto& f : futures) {
        while (f.valid() && f.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready)
            if (cancel && cancel->load())
                for (auto& s : stops)
                    s->store(true);
    }
}

QString lastLine(const QByteArray& text) {
    return QString::fromUtf8(text).trimmed().section(QLatin1Char('\n'), -1).left(500);
}

// Why a finished command did not give what it should, or nothing when it did.
std::optional<NodeFailure> commandFailure(const QString& node, const NodeCommand& c, const QString& what,
                                          const QString& documentError, const std::atomic_bool* cancel) {
    if (c.sinkStopped)
        return NodeFailure{node, RemoteError::Kind::Protocol, documentError};
    if (c.error) {
        if (c.error->kind == RemoteError::Kind::Cancelled && cancel && cancel->load())
            return NodeFailure{node, RemoteError::Kind::Cancelled, RemoteLaunch::tr("%1: cancelled").arg(node)};
        return NodeFailure{node, c.error->kind,
                           c.error->message.isEmpty() ? RemoteLaunch::tr("%1: %2 failed").arg(node, what) : c.error->message};
    }
    if (c.exitStatus != 0) {
        const QString tail = lastLine(c.stderrTail);
        return NodeFailure{node, RemoteError::Kind::Protocol,
                           RemoteLaunch::tr("%1: %2 exited with status %3%4")
                               .arg(node, what)
                               .arg(c.exitStatus)
                               .arg(tail.isEmpty() ? QString() : QStringLiteral(": ") + tail)};
    }
    return std::nullopt;
}

// moe-digest --list's document (remote/probe/src/digest_report.h), bounded and strict.
class ListingReader {
public:
    bool feed(const QByteArray& data) {
        m_bytes += data.size();
        if (m_bytes > kMaxListingBytes)
            return fail(RemoteLaunch::tr("the listing is larger than %1 MiB").arg(kMaxListingBytes >> 20));
        m_pending += data;
        qsizetype nl;
        while ((nl = m_pending.indexOf('\n')) >= 0) {
            const QByteArray line = m_pending.left(nl);
            m_pending.remove(0, nl + 1);
            if (!take(line))
                return false;
        }
        return true;
    }
    bool finish() {
        if (m_error.isEmpty() && (!m_pending.isEmpty() || !m_ended))
            fail(RemoteLaunch::tr("the listing ends early (no end line)"));
        return m_error.isEmpty();
    }
    QList<QPair<QString, qint64>> files;
    const QString& error() const { return m_error; }

private:
    bool fail(const QString& why) {
        if (m_error.isEmpty())
            m_error = why;
        return false;
    }
    bool take(const QByteArray& line) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!m_started) {
            m_started = true;
            return o.value(QLatin1String("schema")).toString() == QLatin1String("moe-digest-list/1") ||
                   fail(RemoteLaunch::tr("not a moe-digest-list/1 listing"));
        }
        if (m_ended)
            return fail(RemoteLaunch::tr("text after the listing's end line"));
        if (o.contains(QLatin1String("end"))) {
            m_ended = true;
            return o.value(QLatin1String("files")).toInteger(-1) == files.size() ||
                   fail(RemoteLaunch::tr("the listing's end line does not match its files"));
        }
        const QString file = o.value(QLatin1String("file")).toString();
        const qint64 bytes = o.value(QLatin1String("bytes")).toInteger(-1);
        if (file.isEmpty() || !file.startsWith(QLatin1Char('/')) || bytes < 0 || files.size() >= kMaxListedFiles)
            return fail(RemoteLaunch::tr("a malformed line in the listing"));
        files.append({file, bytes});
        return true;
    }

    QByteArray m_pending;
    qint64 m_bytes = 0;
    bool m_started = false, m_ended = false;
    QString m_error;
};

// The files shared out by size: the largest first, each to the node with the fewest bytes.
std::vector<std::vector<int>> shareOut(const QList<QPair<QString, qint64>>& files, int nodes) {
    std::vector<int> order(static_cast<size_t>(files.size()));
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return files[a].second > files[b].second; });
    std::vector<std::vector<int>> share(static_cast<size_t>(nodes));
    std::vector<qint64> load(static_cast<size_t>(nodes), 0);
    for (int i : order) {
        const size_t n = size_t(std::min_element(load.begin(), load.end()) - load.begin());
        share[n].push_back(i);
        load[n] += files[i].second;
    }
    for (auto& s : share)
        std::sort(s.begin(), s.end());
    return share;
}

// A node's share cut into command lines of bounded length.
std::vector<std::vector<int>> commandsOf(const std::vector<int>& share, const QList<QPair<QString, qint64>>& files) {
    std::vector<std::vector<int>> out;
    qint64 argBytes = 0;
    for (int i : share) {
        const qint64 b = files[i].first.toUtf8().size() + 3;
        if (out.empty() || int(out.back().size()) >= kMaxFilesPerCommand || argBytes + b > kMaxArgBytesPerCommand) {
            out.emplace_back();
            argBytes = 0;
        }
        out.back().push_back(i);
        argBytes += b;
    }
    return out;
}

} // namespace

Expected<QList<ClusterDigestFile>, QList<NodeFailure>> digestOnCluster(const ClusterDigestRequest& request,
                                                                      const StageOneEvents& events,
                                                                      const std::atomic_bool* cancel) {
    auto failOne = [](RemoteError::Kind kind, const QString& message) {
        return unexpected(QList<NodeFailure>{NodeFailure{QString(), kind, message}});
    };
    if (request.nodes.isEmpty())
        return failOne(RemoteError::Kind::InvalidArgument, RemoteLaunch::tr("the cluster has no nodes"));
    if (!request.path.startsWith(QLatin1Char('/')))
        return failOne(RemoteError::Kind::InvalidArgument,
                       RemoteLaunch::tr("the traces' folder on the cluster must be an absolute path, not \"%1\"")
                           .arg(request.path));
    auto bundle = locateProbeBundle(request.probeBundleDir);
    if (!bundle)
        return failOne(RemoteError::Kind::InvalidArgument, bundle.error());
    const QString digestFile = *bundle + QStringLiteral("/moe-digest");
    if (!QFileInfo(digestFile).isFile())
        return failOne(RemoteError::Kind::InvalidArgument,
                       RemoteLaunch::tr("the probe bundle %1 has no moe-digest; build the target moe-probe-bundle")
                           .arg(*bundle));

    const int nodeCount = int(request.nodes.size());
    const FanoutTimeouts timeouts = FanoutTimeouts::scaled(request.ssh.connectTimeoutMs, request.helperTimeoutMs, nodeCount);
    NodePool pool(request.nodes, request.ssh, events, cancel);
    const QList<NodeFailure> prepared = pool.prepare(digestFile, QString(), timeouts, /*inventory=*/false);
    if (!prepared.isEmpty())
        return unexpected(prepared);
    if (cancel && cancel->load())
        return failOne(RemoteError::Kind::Cancelled, RemoteLaunch::tr("cancelled"));
    std::vector<PoolNode>& nodes = pool.nodes();
    auto verified = [](const PoolNode& n) { return SftpUpload::verifiedExec(n.probeSha256, n.probePath); };

    // 1. The first node lists the trace files.
    std::vector<std::unique_ptr<std::atomic_bool>> stops;
    stops.push_back(std::make_unique<std::atomic_bool>(false));
    ListingReader listing;
    NodeCommand list;
    list.argv = verified(nodes[0]) + QStringList{QStringLiteral("--list"), request.path};
    list.timeoutMs = timeouts.helperMs;
    list.stop = stops[0].get();
    list.sink = [&listing](const QByteArray& d) { return listing.feed(d); };
    pool.progress(nodes[0].name, 0.0, RemoteLaunch::tr("listing the traces in %1").arg(request.path));
    {
        std::vector<std::future<void>> futures;
        futures.push_back(nodes[0].worker->post(runJob(&list)));
        waitPassingCancel(futures, stops, cancel);
    }
    const QString listingError = RemoteLaunch::tr("%1: moe-digest --list %2: %3").arg(nodes[0].name, request.path, listing.error());
    if (auto f = commandFailure(nodes[0].name, list, QStringLiteral("moe-digest --list"), listingError, cancel))
        return unexpected(QList<NodeFailure>{*f});
    if (!listing.finish())
        return unexpected(QList<NodeFailure>{NodeFailure{nodes[0].name, RemoteError::Kind::Protocol,
            RemoteLaunch::tr("%1: moe-digest --list %2: %3").arg(nodes[0].name, request.path, listing.error())}});
    if (listing.files.isEmpty())
        return failOne(RemoteError::Kind::InvalidArgument,
                       RemoteLaunch::tr("%1: no profiler trace under %2").arg(nodes[0].name, request.path));

    // 2. Each node digests its share, one bounded command line after another.
    const auto& files = listing.files;
    const std::vector<std::vector<int>> shares = shareOut(files, nodeCount);
    QString root = request.path;
    while (root.size() > 1 && root.endsWith(QLatin1Char('/')))
        root.chop(1);
    const QString rootName = root.section(QLatin1Char('/'), -1);
    auto shownOf = [root, rootName](const QString& path) {
        return path.startsWith(root + QLatin1Char('/')) ? rootName + path.mid(root.size()) : path;
    };
    std::vector<std::optional<anatomy::DigestDocumentReader::FileDigest>> digests(static_cast<size_t>(files.size()));
    std::vector<std::unique_ptr<NodeCommand>> commands;
    std::vector<std::unique_ptr<anatomy::DigestDocumentReader>> readers;
    std::vector<std::vector<int>> commandFiles;
    std::vector<int> commandNode;
    std::vector<std::future<void>> futures;
    for (int n = 0; n < nodeCount; ++n) {
        for (const std::vector<int>& part : commandsOf(shares[size_t(n)], files)) {
            qint64 bytes = 0;
            QStringList argv = verified(nodes[size_t(n)]) + QStringList{QStringLiteral("--")};
            for (int i : part) {
                argv << files[i].first;
                bytes += files[i].second;
            }
            stops.push_back(std::make_unique<std::atomic_bool>(false));
            auto reader = std::make_unique<anatomy::DigestDocumentReader>(nodes[size_t(n)].name, shownOf);
            auto c = std::make_unique<NodeCommand>();
            c->argv = argv;
            c->timeoutMs = request.digestTimeoutMs > 0
                               ? request.digestTimeoutMs
                               : int(std::min<qint64>(INT_MAX, timeouts.helperMs + bytes * 1000 / FanoutTimeouts::kFloorBytesPerS));
            c->stop = stops.back().get();
            anatomy::DigestDocumentReader* r = reader.get();
            c->sink = [r](const QByteArray& d) { return r->feed(d); };
            pool.progress(nodes[size_t(n)].name, 0.0,
                          RemoteLaunch::tr("digesting %n trace file(s), %1 MB", "", int(part.size()))
                              .arg(double(bytes) / 1e6, 0, 'f', 1));
            futures.push_back(nodes[size_t(n)].worker->post(runJob(c.get())));
            commands.push_back(std::move(c));
            readers.push_back(std::move(reader));
            commandFiles.push_back(part);
            commandNode.push_back(n);
        }
    }
    waitPassingCancel(futures, stops, cancel);

    // 3. Gather: every command must have given a whole document with its files in order.
    QList<NodeFailure> failures;
    for (size_t k = 0; k < commands.size(); ++k) {
        const QString& node = nodes[size_t(commandNode[k])].name;
        if (auto f = commandFailure(node, *commands[k], QStringLiteral("moe-digest"), readers[k]->error(), cancel)) {
            failures << *f;
            continue;
        }
        if (!readers[k]->finish()) {
            failures << NodeFailure{node, RemoteError::Kind::Protocol, readers[k]->error()};
            continue;
        }
        auto got = readers[k]->takeFiles();
        if (got.size() != qsizetype(commandFiles[k].size())) {
            failures << NodeFailure{node, RemoteError::Kind::Protocol,
                                    RemoteLaunch::tr("%1: moe-digest answered for %2 of %3 files")
                                        .arg(node).arg(got.size()).arg(commandFiles[k].size())};
            continue;
        }
        for (qsizetype j = 0; j < got.size(); ++j) {
            const int i = commandFiles[k][size_t(j)];
            if (got[j].path != files[i].first) {
                failures << NodeFailure{node, RemoteError::Kind::Protocol,
                                        RemoteLaunch::tr("%1: moe-digest answered for %2 where %3 was asked")
                                            .arg(node, got[j].path, files[i].first)};
                break;
            }
            digests[size_t(i)] = std::move(got[j]);
        }
        pool.progress(node, 1.0, RemoteLaunch::tr("digested"));
    }
    if (!failures.isEmpty())
        return unexpected(failures);

    QList<ClusterDigestFile> out;
    for (qsizetype i = 0; i < files.size(); ++i) {
        auto& d = *digests[size_t(i)];
        ClusterDigestFile f;
        f.path = files[i].first;
        f.shown = shownOf(f.path);
        f.bytes = files[i].second;
        for (size_t k = 0; k < commands.size(); ++k)
            if (std::find(commandFiles[k].begin(), commandFiles[k].end(), int(i)) != commandFiles[k].end())
                f.node = nodes[size_t(commandNode[k])].name;
        f.trace = std::move(d.trace);
        f.error = d.error;
        out << f;
    }
    return out;
}

} // namespace moewb::remote
