#pragma once
// For the tests of `moewb reference` cancelled or failing (tests/e2e/test_reference_cancel,
// tests/gui/test_reference_dialog): the stand-in trainer they put in MOEWB_REFERENCE_DIR,
// and whether a process the trainer started still runs.
#include <QDir>
#include <QFile>
#include <QString>

namespace moewb::testing {

// A zombie still answers kill(0): read its state.
inline bool processRunning(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = f.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close > 0 && s.size() > close + 2 && s[close + 2] != 'Z';
}

// Writes `body` as dir/reference_train.py (the folder made first); false when it cannot.
inline bool writeTrainerStub(const QString& dir, const QString& body) {
    QDir().mkpath(dir);
    QFile f(dir + QStringLiteral("/reference_train.py"));
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(body.toUtf8()) == body.toUtf8().size();
}

} // namespace moewb::testing
