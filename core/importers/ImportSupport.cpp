#include "importers/ImportSupport.h"

#include "importers/ImportFile.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace moewb::importers {

namespace {

qint64 g_maxImportBytes = 0; // set by setMaxImportBytes: wins over the variable

} // namespace

std::optional<qint64> parseByteSize(const QByteArray& text) {
    const QByteArray raw = text.trimmed();
    if (raw.isEmpty())
        return std::nullopt;
    qint64 scale = 1;
    QByteArray digits = raw;
    const char unit = char(QChar::toUpper(uint(uchar(raw.back()))));
    const char* units = "KMGT";
    for (int i = 0; units[i]; ++i)
        if (unit == units[i]) {
            scale = 1LL << (10 * (i + 1));
            digits.chop(1);
        }
    bool ok = false;
    const qint64 n = digits.trimmed().toLongLong(&ok);
    if (!ok || n <= 0 || n > (qint64(1) << 62) / scale)
        return std::nullopt;
    return n * scale;
}

void setMaxImportBytes(qint64 bytes) {
    g_maxImportBytes = bytes > 0 ? bytes : 0;
}

qint64 maxImportBytes() {
    if (g_maxImportBytes > 0)
        return g_maxImportBytes;
    // A malformed setting never lifts the limit.
    return parseByteSize(qgetenv("MOEWB_IMPORT_MAX_BYTES")).value_or(kDefaultMaxImportBytes);
}

namespace {

QString sizeText(qint64 bytes) {
    if (bytes >= (1LL << 30))
        return ImportTr::tr("%1 GiB").arg(double(bytes) / double(1LL << 30), 0, 'f', 1);
    if (bytes >= (1LL << 20))
        return ImportTr::tr("%1 MiB").arg(double(bytes) / double(1LL << 20), 0, 'f', 1);
    return ImportTr::tr("%n byte(s)", "", int(bytes));
}

} // namespace

std::optional<ImportError> openImportFile(QFile& file, const QString& path, const QString& shown) {
    const QString named = shown.isEmpty() ? path : shown;
    auto refused = [&named](const QString& message) { return ImportError{named, 0, {}, message, true}; };
    // O_NONBLOCK: open() of a FIFO returns at once instead of waiting for a writer;
    // what was opened is then judged by its descriptor (a file swapped for a FIFO or a
    // device between planning and reading is caught here too).
    const QByteArray encoded = QFile::encodeName(path);
    int fd = -1;
    do {
        fd = ::open(encoded.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return refused(ImportTr::tr("cannot read: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return refused(ImportTr::tr("cannot read: %1").arg(QString::fromLocal8Bit(std::strerror(e))));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        const QString what = S_ISDIR(st.st_mode)    ? ImportTr::tr("a folder")
                             : S_ISFIFO(st.st_mode) ? ImportTr::tr("a FIFO (named pipe)")
                             : S_ISCHR(st.st_mode)  ? ImportTr::tr("a character device")
                             : S_ISBLK(st.st_mode)  ? ImportTr::tr("a block device")
                             : S_ISSOCK(st.st_mode) ? ImportTr::tr("a socket")
                                                    : ImportTr::tr("not a regular file");
        return refused(ImportTr::tr("is %1, not a regular file: moewb imports regular files only (save the "
                                    "stream to a file first)")
                           .arg(what));
    }
    // A regular file: reads block as usual from here on.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        return refused(ImportTr::tr("cannot read: %1").arg(file.errorString()));
    }
    return std::nullopt;
}

Expected<QByteArray, ImportError> readWholeFile(const QString& path) {
    QFile file;
    if (auto refused = openImportFile(file, path)) {
        if (QFileInfo(path).isDir())
            refused->message = ImportTr::tr("is a folder, not a file");
        return unexpected(*refused);
    }
    const qint64 limit = maxImportBytes();
    if (file.size() > limit)
        return unexpected(ImportError{
            path, 0, {},
            (g_maxImportBytes > 0 ? ImportTr::tr("is %1, over the import limit of %2 (--max-bytes); give a larger "
                                                 "--max-bytes to raise it (docs/formats.md, \"Memory\")")
                                  : ImportTr::tr("is %1, over the import limit of %2; set MOEWB_IMPORT_MAX_BYTES "
                                                 "to raise it (docs/formats.md, \"Memory\")"))
                .arg(sizeText(file.size()), sizeText(limit)),
            true});
    QByteArray bytes;
    try {
        // Never more than the limit and one byte (which tells a file that grew past it):
        // its size and one byte in one buffer, grown a MiB at a time only while the file
        // grows, until a read gives nothing.
        bytes = QByteArray(qsizetype(std::min(limit, std::max<qint64>(file.size(), 0)) + 1), Qt::Uninitialized);
        qint64 got = 0;
        for (;;) {
            if (got == bytes.size()) {
                if (got > limit)
                    break;
                bytes.resize(qsizetype(std::min(limit + 1, got + (qint64(1) << 20))));
            }
            const qint64 n = file.read(bytes.data() + got, bytes.size() - got);
            if (n <= 0)
                break;
            got += n;
        }
        bytes.resize(qsizetype(got));
    } catch (const std::bad_alloc&) {
        return unexpected(outOfMemory(path, file.size()));
    }
    if (file.error() != QFileDevice::NoError)
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("cannot read: %1").arg(file.errorString()), true});
    if (bytes.size() > limit) // a file that grew while read, or one that reports no size (a pipe)
        return unexpected(ImportError{
            path, 0, {},
            (g_maxImportBytes > 0 ? ImportTr::tr("is over the import limit of %1 (--max-bytes); give a larger "
                                                 "--max-bytes to raise it (docs/formats.md, \"Memory\")")
                                  : ImportTr::tr("is over the import limit of %1; set MOEWB_IMPORT_MAX_BYTES to "
                                                 "raise it (docs/formats.md, \"Memory\")"))
                .arg(sizeText(limit)),
            true});
    return bytes;
}

ImportError outOfMemory(const QString& file, qint64 bytes) {
    return ImportError{file, 0, {},
                       ImportTr::tr("ran out of memory importing it (%1); docs/formats.md, \"Memory\", says how much "
                                    "each format needs")
                           .arg(sizeText(bytes)),
                       true};
}

QString clipped(const QString& text, int maxChars) {
    if (text.size() <= maxChars)
        return text;
    qsizetype cut = maxChars;
    if (text.at(cut - 1).isHighSurrogate())
        --cut;
    return text.left(cut) + QChar(0x2026);
}

QString excerpt(std::string_view text, int maxChars) {
    QString s = QString::fromUtf8(text.data(), qsizetype(std::min<size_t>(text.size(), size_t(maxChars) * 4)));
    s = s.simplified();
    if (s.size() > maxChars)
        s = s.left(maxChars) + QChar(0x2026);
    return s;
}

} // namespace moewb::importers
