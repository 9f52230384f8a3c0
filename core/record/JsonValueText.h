#pragma once
// How a JSON value is quoted back to the user in an issue ("got \"two\"").
#include <QJsonValue>
#include <QString>

namespace moewb::record {

// Scalars as JSON text ("two" with quotes, 2.5, true, null); long strings are
// shortened; objects and arrays are described ("an object", "an array").
QString describeJsonValue(const QJsonValue& value);

} // namespace moewb::record
