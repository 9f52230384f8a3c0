// The subset of JSON Schema (2020-12) that remote/probe/schema/moe-probe-1.schema.json
// uses: type (incl. lists), const, enum, required, properties, items, minimum, $ref to
// #/$defs/NAME. Returns the violations, each with its JSON path.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <cmath>

namespace probetest {

class JsonSchemaCheck {
public:
    explicit JsonSchemaCheck(QJsonObject root) : root_(std::move(root)) {}

    QStringList validate(const QJsonValue& value) const {
        QStringList errors;
        check(value, root_, QStringLiteral("$"), errors);
        return errors;
    }

private:
    static bool hasType(const QJsonValue& v, const QString& type) {
        if (type == "object")
            return v.isObject();
        if (type == "array")
            return v.isArray();
        if (type == "string")
            return v.isString();
        if (type == "boolean")
            return v.isBool();
        if (type == "null")
            return v.isNull();
        if (type == "number")
            return v.isDouble();
        if (type == "integer")
            return v.isDouble() && std::floor(v.toDouble()) == v.toDouble();
        return false;
    }

    void check(const QJsonValue& v, QJsonObject schema, const QString& path, QStringList& errors) const {
        if (schema.contains("$ref")) {
            const QString ref = schema.value("$ref").toString();
            schema = root_.value("$defs").toObject().value(ref.section('/', -1)).toObject();
        }
        if (schema.contains("type")) {
            const QJsonValue t = schema.value("type");
            QStringList types;
            if (t.isArray())
                for (const QJsonValue& x : t.toArray())
                    types << x.toString();
            else
                types << t.toString();
            bool ok = false;
            for (const QString& type : types)
                ok = ok || hasType(v, type);
            if (!ok) {
                errors << path + ": expected " + types.join('|');
                return;
            }
        }
        if (schema.contains("const") && schema.value("const") != v)
            errors << path + ": expected the constant " + schema.value("const").toVariant().toString();
        if (schema.contains("enum") && !schema.value("enum").toArray().contains(v))
            errors << path + ": not one of the allowed values";
        if (schema.contains("minimum") && v.isDouble() && v.toDouble() < schema.value("minimum").toDouble())
            errors << path + ": below the minimum";
        if (v.isObject()) {
            const QJsonObject o = v.toObject();
            for (const QJsonValue& req : schema.value("required").toArray())
                if (!o.contains(req.toString()))
                    errors << path + ": missing " + req.toString();
            const QJsonObject props = schema.value("properties").toObject();
            for (auto it = props.begin(); it != props.end(); ++it)
                if (o.contains(it.key()))
                    check(o.value(it.key()), it.value().toObject(), path + "." + it.key(), errors);
        }
        if (v.isArray() && schema.contains("items")) {
            const QJsonArray a = v.toArray();
            for (int i = 0; i < a.size(); ++i)
                check(a.at(i), schema.value("items").toObject(), path + "[" + QString::number(i) + "]",
                      errors);
        }
    }

    QJsonObject root_;
};

} // namespace probetest
