#include "RemoteCommand.h"

#include "../RemoteTr.h"
#include "ShellQuote.h"

#include <libssh/libssh.h>

#include <QElapsedTimer>
#include <QThread>

#include <memory>

namespace moewb::remote {

namespace {

const QByteArray kPgidMarker = QByteArrayLiteral("MOEWB-PGID:");
const QByteArray kStopMarker = QByteArrayLiteral("MOEWB-STOP:");

struct ChannelDeleter {
    void operator()(ssh_channel_struct* c) const {
        if (!c)
            return;
        if (ssh_channel_is_open(c))
            ssh_channel_close(c);
        ssh_channel_free(c);
    }
};
using Channel = std::unique_ptr<ssh_channel_struct, ChannelDeleter>;

Expected<Channel, RemoteError> openExec(SshSession& session, ssh_session s, const QString& command) {
    Channel ch(ssh_channel_new(s));
    if (!ch)
        return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("cannot create a channel")));
    if (ssh_channel_open_session(ch.get()) != SSH_OK)
        return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("cannot open a channel")));
    const QByteArray cmd = command.toUtf8();
    if (ssh_channel_request_exec(ch.get(), cmd.constData()) != SSH_OK)
        return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("cannot start the command")));
    return ch;
}

// Reads whatever is buffered on both streams; waits up to waitMs for more when
// nothing is. Returns false on a channel error. Sets done once both streams are
// drained after EOF.
bool pump(ssh_channel ch, int waitMs, bool& done, const std::function<void(const char*, int, bool)>& sink) {
    char buf[16384];
    const int n = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 0);
    if (n == SSH_ERROR)
        return false;
    if (n > 0)
        sink(buf, n, false);
    const int m = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1);
    if (m == SSH_ERROR)
        return false;
    if (m > 0)
        sink(buf, m, true);
    if (n > 0 || m > 0)
        return true;
    if (ssh_channel_is_eof(ch) || ssh_channel_is_closed(ch)) {
        // Both streams reported nothing after EOF: one more pass catches data that
        // arrived while the second stream was being read.
        const int a = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 0);
        if (a > 0) {
            sink(buf, a, false);
            return true;
        }
        const int b = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1);
        if (b > 0) {
            sink(buf, b, true);
            return true;
        }
        done = true;
        return true;
    }
    const int w = ssh_channel_read_timeout(ch, buf, sizeof buf, 0, waitMs);
    if (w == SSH_ERROR)
        return false;
    if (w > 0)
        sink(buf, w, false);
    return true;
}

// Shell functions ending process group $p, shared by the watchdog and killGroup().
// "alive": true while a process of the group is left that is not a zombie. A zombie
// waits for whoever reaps orphans (init, or a slow container init) and is already
// harmless; kill -0 would count it. Without a usable ps: kill -0.
// "end_group STEPS": SIGTERM to the group with the shell's builtin kill ("-SIG -PGID"
// is POSIX; dash's builtin does not take "-s SIG -- -PGID"), a check every 0.1 s,
// SIGKILL from STEPS checks on; returns 0 once the group is gone, 1 if it outlived
// another 50 checks.
const char* const kEndGroupFunctions =
    "alive() { if o=$(ps -e -o pgid= -o stat= 2>/dev/null); then "
    "printf '%s\\n' \"$o\" | awk -v p=\"$p\" '$1 == p && $2 !~ /^Z/ { f = 1 } END { exit !f }'; "
    "else kill -0 -\"$p\" 2>/dev/null; fi; }; "
    "end_group() { kill -TERM -\"$p\" 2>/dev/null || return 0; i=0; "
    "while alive; do i=$((i+1)); "
    "if [ \"$i\" -ge \"$1\" ]; then kill -KILL -\"$p\" 2>/dev/null; fi; "
    "if [ \"$i\" -ge $(($1+50)) ]; then return 1; fi; "
    "sleep 0.1; done; }; ";

// The watchdog: started by the wrapper in a session of its own, reading the channel's
// stdin. A line or end of file there (the client's cancel or timeout, the channel
// closed, the connection lost) ends the command's process group (end_group, SIGKILL
// after $2 tenths of a second) and it reports whether the group is gone. $1: the group.
QString watchdogScript() {
    return QString::fromLatin1(kEndGroupFunctions) +
           QStringLiteral("p=$1; read -r _ || :; "
                          "if end_group \"$2\"; then echo MOEWB-STOP:gone >&2; "
                          "else echo MOEWB-STOP:left >&2; exit 1; fi");
}

} // namespace

QString RemoteCommand::commandLine(const QStringList& argv, int killGraceMs) {
    // setsid -w: a new session and process group whose id the wrapper prints first on
    // stderr; -w waits for it so the channel lives as long as the command. The wrapper
    // keeps the channel's stdin for the watchdog (a background job's stdin is /dev/null
    // otherwise), starts the watchdog outside the group, runs the command in the group
    // with stdin from /dev/null, and passes on its exit status.
    static const QString wrapper = QStringLiteral(
                                       "echo \"%1$$\" >&2; g=$1; w=$2; shift 2; exec 3<&0; "
                                       "setsid sh -c \"$w\" moewb-watch \"$$\" \"$g\" <&3 3<&- & d=$!; "
                                       "\"$@\" </dev/null 3<&- & c=$!; exec 3<&-; "
                                       "wait \"$c\"; s=$?; kill \"$d\" 2>/dev/null; exit \"$s\"")
                                       .arg(QString::fromLatin1(kPgidMarker));
    const int steps = qMax(1, killGraceMs / 100);
    return QStringLiteral("setsid -w sh -c ") + shellQuote(wrapper) + QStringLiteral(" moewb-run ") +
           shellJoin(QStringList{QString::number(steps), watchdogScript()} + argv);
}

Expected<RemoteCommand::Captured, RemoteError> RemoteCommand::capture(SshSession& session, const QStringList& argv,
                                                                      int timeoutMs) {
    auto h = session.handle();
    if (!h)
        return unexpected(h.error());
    auto ch = openExec(session, *h, shellJoin(argv));
    if (!ch)
        return unexpected(ch.error());
    Captured c;
    QElapsedTimer t;
    t.start();
    bool done = false;
    while (!done) {
        if (timeoutMs > 0 && t.elapsed() > timeoutMs)
            return unexpected(RemoteError{RemoteError::Kind::TimedOut, session.node(),
                                          RemoteSsh::tr("%1: '%2' timed out after %3 ms")
                                              .arg(session.node(), argv.value(0))
                                              .arg(timeoutMs)});
        if (!pump(ch->get(), 50, done, [&](const char* d, int n, bool err) { (err ? c.err : c.out).append(d, n); }))
            return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("reading '%1'").arg(argv.value(0))));
    }
    ssh_channel_send_eof(ch->get());
    c.exitStatus = ssh_channel_get_exit_status(ch->get());
    return c;
}

Expected<bool, RemoteError> RemoteCommand::killGroup(SshSession& session, qint64 pgid, int graceMs) {
    if (pgid <= 1)
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, session.node(),
                                      RemoteSsh::tr("%1: no process group to kill").arg(session.node())});
    // One small sh on a second channel: end_group (above). Exit 0 once the group is
    // gone, 1 if it outlived the wait. Used where a command's own watchdog did not answer.
    const int steps = qMax(1, graceMs / 100);
    const QString script = QString::fromLatin1(kEndGroupFunctions) + QStringLiteral("p=$1; end_group \"$2\"");
    auto k = capture(session,
                     {QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("moewb-kill"), QString::number(pgid),
                      QString::number(steps)},
                     graceMs + 10000);
    if (!k)
        return unexpected(k.error());
    return k->exitStatus == 0;
}

Expected<RemoteCommandResult, RemoteError> RemoteCommand::run(SshSession& session, const QStringList& argv,
                                                              const RemoteCommandOptions& o) {
    if (argv.isEmpty())
        return unexpected(RemoteError{RemoteError::Kind::InvalidArgument, session.node(),
                                      RemoteSsh::tr("%1: empty command").arg(session.node())});
    auto h = session.handle();
    if (!h)
        return unexpected(h.error());
    auto chx = openExec(session, *h, commandLine(argv, o.killGraceMs));
    if (!chx)
        return unexpected(chx.error());
    Channel ch = std::move(chx.value());

    QByteArray errHead;  // stderr until the pgid marker line is complete
    bool haveMarker = false;
    qint64 pgid = 0;
    // After a stop, stderr goes through stopTail line by line: the watchdog's report
    // ("MOEWB-STOP:gone" / "MOEWB-STOP:left") is taken out, the rest passed on.
    bool stopping = false;
    QByteArray stopTail;
    enum class Report { None, Gone, Left } report = Report::None;
    auto passStderr = [&](const QByteArray& bytes) {
        if (!stopping) {
            if (o.onStderr && !bytes.isEmpty())
                o.onStderr(bytes);
            return;
        }
        stopTail += bytes;
        qsizetype nl;
        while ((nl = stopTail.indexOf('\n')) >= 0) {
            const QByteArray line = stopTail.left(nl + 1);
            stopTail.remove(0, nl + 1);
            if (line.startsWith(kStopMarker))
                report = line.mid(kStopMarker.size()).trimmed() .startsWith("gone") ? Report::Gone : Report::Left;
            else if (o.onStderr)
                o.onStderr(line);
        }
    };
    auto sink = [&](const char* d, int n, bool isErr) {
        if (!isErr) {
            if (o.onStdout)
                o.onStdout(QByteArray(d, n));
            return;
        }
        if (haveMarker) {
            passStderr(QByteArray(d, n));
            return;
        }
        errHead.append(d, n);
        const qsizetype nl = errHead.indexOf('\n');
        if (nl < 0 && errHead.size() < 256)
            return;
        haveMarker = true;
        QByteArray first = errHead.left(nl < 0 ? errHead.size() : nl);
        QByteArray rest = nl < 0 ? QByteArray() : errHead.mid(nl + 1);
        if (first.startsWith(kPgidMarker)) {
            bool ok = false;
            pgid = first.mid(kPgidMarker.size()).toLongLong(&ok);
            if (!ok || pgid <= 1)
                pgid = 0;
        } else {
            rest = errHead;  // no marker (setsid missing?): pass everything through
        }
        errHead.clear();
        passStderr(rest);
    };

    QElapsedTimer t;
    t.start();
    bool done = false;
    enum class Stop { None, Cancel, Timeout } stop = Stop::None;
    while (!done) {
        if (o.cancel && o.cancel->load()) {
            stop = Stop::Cancel;
            break;
        }
        if (o.timeoutMs > 0 && t.elapsed() >= o.timeoutMs) {
            stop = Stop::Timeout;
            break;
        }
        int wait = 50;
        if (o.timeoutMs > 0)
            wait = static_cast<int>(qBound(qint64(1), qint64(o.timeoutMs) - t.elapsed(), qint64(50)));
        if (!pump(ch.get(), wait, done, sink))
            return unexpected(session.error(RemoteError::Kind::Protocol, RemoteSsh::tr("reading from '%1'").arg(argv.value(0))));
    }
    if (!errHead.isEmpty() && o.onStderr && !haveMarker)
        o.onStderr(errHead);

    if (stop == Stop::None) {
        ssh_channel_send_eof(ch.get());
        RemoteCommandResult r;
        r.exitStatus = ssh_channel_get_exit_status(ch.get());
        return r;
    }

    // Cancel or timeout: a line and end of file on the command's stdin wake its
    // watchdog on the node (sshd passes data on at once; a bare end of file can wait in
    // sshd for a second), which ends the group at once (no new command) and reports;
    // the channel closes when the watchdog has finished. A command that has not started
    // yet meets the line as it starts, so it cannot start unseen. Should the node not
    // answer in time, a kill command on a second channel is tried where the group is
    // known.
    stopping = true;
    ssh_channel_write(ch.get(), "stop\n", 5);
    ssh_channel_send_eof(ch.get());
    ssh_blocking_flush(ssh_channel_get_session(ch.get()), 1000);
    QElapsedTimer w;
    w.start();
    const int reportWaitMs = o.killGraceMs + 8000;  // the watchdog gives up after grace + 5 s
    while (!done && report == Report::None && w.elapsed() < reportWaitMs) {
        if (!pump(ch.get(), 50, done, sink))
            break;
    }
    // Let the channel finish: the setsid parent exits once its child is gone.
    w.restart();
    while (!done && w.elapsed() < 1000) {
        if (!pump(ch.get(), 50, done, sink))
            break;
    }
    if (!stopTail.isEmpty() && o.onStderr && !stopTail.startsWith(kStopMarker))
        o.onStderr(stopTail);
    // The channel closed without a report: the wrapper had not started the watchdog
    // (nothing ran) or the command ended by itself as it was stopped.
    bool gone = report == Report::Gone || (report == Report::None && done);
    QString killNote;
    if (!gone && report == Report::None && pgid > 1) {
        auto k = killGroup(session, pgid, o.killGraceMs);
        gone = k && *k;
    }
    if (!gone)
        killNote = pgid > 1 ? RemoteSsh::tr(" (the remote process group %1 may still be running)").arg(pgid)
                            : RemoteSsh::tr(" (the node did not confirm that the command ended; it may still be running)");
    if (o.stopReport) {
        o.stopReport->pgid = pgid > 1 ? pgid : 0;
        o.stopReport->confirmedGone = gone;
    }
    const bool cancelled = stop == Stop::Cancel;
    return unexpected(RemoteError{
        cancelled ? RemoteError::Kind::Cancelled : RemoteError::Kind::TimedOut, session.node(),
        cancelled ? RemoteSsh::tr("%1: '%2' cancelled%3").arg(session.node(), argv.value(0), killNote)
                  : RemoteSsh::tr("%1: '%2' timed out after %3 ms%4")
                        .arg(session.node(), argv.value(0))
                        .arg(o.timeoutMs)
                        .arg(killNote)});
}

} // namespace moewb::remote
