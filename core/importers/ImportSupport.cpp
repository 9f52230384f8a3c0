#include "importers/ImportSupport.h"

#include <QFile>
#include <QFileInfo>

#include <new>

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

Expected<QByteArray, ImportError> readWholeFile(const QString& path) {
    QFileInfo info(path);
    if (info.isDir())
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("is a folder, not a file"), true});
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("cannot read: %1").arg(file.errorString()), true});
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
        bytes = file.readAll();
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
