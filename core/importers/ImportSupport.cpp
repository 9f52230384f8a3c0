#include "importers/ImportSupport.h"

#include <QFile>
#include <QFileInfo>

namespace moewb::importers {

Expected<QByteArray, ImportError> readWholeFile(const QString& path) {
    QFileInfo info(path);
    if (info.isDir())
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("is a folder, not a file"), true});
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("cannot read: %1").arg(file.errorString()), true});
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return unexpected(ImportError{path, 0, {}, ImportTr::tr("cannot read: %1").arg(file.errorString()), true});
    return bytes;
}

QString excerpt(std::string_view text, int maxChars) {
    QString s = QString::fromUtf8(text.data(), qsizetype(std::min<size_t>(text.size(), size_t(maxChars) * 4)));
    s = s.simplified();
    if (s.size() > maxChars)
        s = s.left(maxChars) + QChar(0x2026);
    return s;
}

} // namespace moewb::importers
