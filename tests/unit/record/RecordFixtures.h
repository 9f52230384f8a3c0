#pragma once
// Fixture access shared by the record tests.
#include "record/ConfigRecord.h"
#include "record/RecordJson.h"

#include <QFile>
#include <QJsonDocument>
#include <QStringList>
#include <QtTest>

namespace moewb::record::test {

inline QByteArray fixtureBytes(const QString& fileName) {
    QFile file(QStringLiteral(MOEWB_SOURCE_DIR "/tests/fixtures/records/") + fileName);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open fixture %s", qPrintable(file.fileName()));
    return file.readAll();
}

inline QJsonObject fixtureJson(const QString& fileName) {
    return QJsonDocument::fromJson(fixtureBytes(fileName)).object();
}

// The MoE fixture, read without issues (checked by test_config_record).
inline ConfigRecord moeRecord() {
    return parseRecord(fixtureBytes(QStringLiteral("moe-64e-top8.json"))).record;
}

inline ConfigRecord denseRecord() {
    return parseRecord(fixtureBytes(QStringLiteral("dense-1.3b.json"))).record;
}

inline QStringList fieldsOf(const QList<FieldIssue>& issues) {
    QStringList fields;
    for (const auto& i : issues)
        fields << i.field;
    return fields;
}

inline QString describe(const QList<FieldIssue>& issues) {
    QStringList lines;
    for (const auto& i : issues)
        lines << i.field + QStringLiteral(": ") + i.message;
    return lines.join(QLatin1Char('\n'));
}

} // namespace moewb::record::test
