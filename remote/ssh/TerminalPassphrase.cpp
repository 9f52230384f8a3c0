#include "TerminalPassphrase.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace moewb::remote {
namespace {

std::atomic_bool g_enabled{false};

void writeAll(int fd, const char* data, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        data += n;
        size -= size_t(n);
    }
}

} // namespace

void setTerminalPassphrasePrompt(bool enabled) {
    g_enabled = enabled;
}

bool terminalPassphrasePrompt() {
    return g_enabled;
}

std::optional<QByteArray> askOnTerminal(const QString& prompt) {
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    termios saved{};
    const bool isTerminal = ::tcgetattr(fd, &saved) == 0;
    if (!isTerminal) {
        ::close(fd);
        return std::nullopt;
    }
    // Echo off (and type-ahead flushed) BEFORE the prompt shows, as readpassphrase(3)
    // does: an answer typed once the prompt is visible is never flushed away.
    termios quiet = saved;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    quiet.c_lflag |= ECHONL;
    ::tcsetattr(fd, TCSAFLUSH, &quiet);
    const QByteArray text = prompt.toUtf8();
    writeAll(fd, text.constData(), size_t(text.size()));

    char buf[1024];
    size_t used = 0;
    bool tooLong = false;
    bool ok = false;
    for (;;) {
        char c = 0;
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // end of input or an error: nothing is returned
        if (c == '\n' || c == '\r') {
            ok = true;
            break;
        }
        if (used + 1 < sizeof buf)
            buf[used++] = c;
        else
            tooLong = true;
    }
    ::tcsetattr(fd, TCSAFLUSH, &saved);
    ::close(fd);
    std::optional<QByteArray> answer;
    if (ok && !tooLong)
        answer = QByteArray(buf, qsizetype(used));
    // Never kept: wipe the stack copy.
    volatile char* wipe = buf;
    for (size_t i = 0; i < sizeof buf; ++i)
        wipe[i] = 0;
    return answer;
}

} // namespace moewb::remote
