#include "record/JsonValueText.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <cmath>

namespace moewb::record {

QString describeJsonValue(const QJsonValue& value) {
    if (value.isObject())
        return QCoreApplication::translate("ConfigRecord", "an object");
    if (value.isArray())
        return QCoreApplication::translate("ConfigRecord", "an array");
    if (value.isUndefined())
        return QCoreApplication::translate("ConfigRecord", "nothing");
    if (value.isDouble() && !std::isfinite(value.toDouble()))
        return QString::number(value.toDouble()); // "nan", "inf": JSON has no spelling for them
    QJsonValue shown = value;
    constexpr qsizetype kMaxShown = 60;
    if (value.isString() && value.toString().size() > kMaxShown)
        shown = value.toString().left(kMaxShown) + QStringLiteral("…");
    QByteArray text = QJsonDocument(QJsonArray{shown}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.mid(1, text.size() - 2));
}

} // namespace moewb::record
