#pragma once
// Reads moe-digest's output ("moe-digest/1" JSON Lines, remote/probe/src/digest_report.h)
// as it arrives from a node: a network peer's input, so every line is bounded before it
// is parsed, every field is checked (type, range, indices into the rank's own tables)
// and anything unexpected refuses the document. Each file's line becomes the RankTrace
// (or the ImportError) that a local readRankTrace of that file gives.
#include "anatomy/RankTrace.h"
#include "common/Expected.h"
#include "importers/ImportError.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <functional>
#include <optional>

namespace moewb::anatomy {

class DigestDocumentReader {
public:
    static constexpr qint64 kMaxLineBytes = 64LL << 20;  // one rank's digest
    static constexpr qint64 kMaxFiles = 100000;

    // `source` names the document in messages (the node); `shownOf` maps the path the
    // node was given to the name shown in messages and stored (as a local import
    // would show it). Empty: the path itself.
    explicit DigestDocumentReader(QString source, std::function<QString(const QString&)> shownOf = {});

    // Feeds the next bytes. False once the document is refused (error()).
    bool feed(const QByteArray& bytes);
    // The document ended: false when it was cut (no end line) or refused.
    bool finish();

    struct FileDigest {
        QString path;                  // as the node was given it
        std::optional<RankTrace> trace; // or, refused:
        importers::ImportError error;
    };
    const QVector<FileDigest>& files() const { return m_files; }
    QVector<FileDigest> takeFiles() { return std::move(m_files); }
    const QString& error() const { return m_error; }

private:
    bool line(const QByteArray& text);
    bool fail(const QString& message);

    QString m_source;
    std::function<QString(const QString&)> m_shownOf;
    QByteArray m_pending;
    qint64 m_lineNumber = 0;
    qint64 m_expectedFiles = -1;
    bool m_ended = false;
    QVector<FileDigest> m_files;
    QString m_error;
};

} // namespace moewb::anatomy
