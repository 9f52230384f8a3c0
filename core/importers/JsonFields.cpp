#include "importers/JsonFields.h"

#include "importers/ImportSupport.h"
#include "importers/JsonCursor.h"

#include <cmath>

namespace moewb::importers {

bool JsonFields::fail(const JsonField& f, const QString& message) {
    if (!m_error)
        m_error = ImportError{m_file, f.line + m_lineOffset, clipped(f.path), clipped(message, kMaxMessageChars)};
    return false;
}

JsonField JsonFields::member(const JsonField& parent, const QString& key, bool required) {
    const QString path = parent.path.isEmpty() ? key : parent.path + QLatin1Char('.') + key;
    JsonField f{nullptr, path, parent.line};
    if (!parent.node || !parent.node->isObject())
        return f;
    f.node = parent.node->member(key);
    if (f.node)
        f.line = f.node->line;
    else if (required)
        fail(f, ImportTr::tr("is missing"));
    return f;
}

JsonField JsonFields::item(const JsonField& array, qsizetype index) {
    JsonField f{nullptr, array.path + QStringLiteral("[%1]").arg(index), array.line};
    if (array.node && array.node->isArray() && index >= 0 && index < array.node->size()) {
        f.node = &array.node->at(index);
        f.line = f.node->line;
    }
    return f;
}

bool JsonFields::expectObject(const JsonField& f) {
    if (!f.node)
        return false;
    if (!f.node->isObject())
        return fail(f, ImportTr::tr("must be an object, got %1").arg(f.node->describe()));
    return true;
}

bool JsonFields::expectArray(const JsonField& f, qsizetype minItems) {
    if (!f.node)
        return false;
    if (!f.node->isArray())
        return fail(f, ImportTr::tr("must be an array, got %1").arg(f.node->describe()));
    if (f.node->size() < minItems)
        return fail(f, ImportTr::tr("must have at least %n item(s), got %1", "", int(minItems)).arg(f.node->size()));
    return true;
}

bool JsonFields::number(const JsonField& f, double min, double max, double& out) {
    if (!f.node)
        return false;
    if (!f.node->isNumber())
        return fail(f, ImportTr::tr("must be a number, got %1").arg(f.node->describe()));
    const double v = f.node->number;
    if (!std::isfinite(v))
        return fail(f, ImportTr::tr("is not finite"));
    if (v < min || v > max)
        return fail(f, ImportTr::tr("must be between %1 and %2, got %3").arg(min, 0, 'g', 12).arg(max, 0, 'g', 12)
                           .arg(v, 0, 'g', 12));
    out = v;
    return true;
}

bool JsonFields::integer(const JsonField& f, qint64 min, qint64 max, qint64& out) {
    if (!f.node)
        return false;
    if (!f.node->isNumber() || !f.node->integral)
        return fail(f, ImportTr::tr("must be an integer, got %1").arg(f.node->describe()));
    const qint64 v = f.node->integer;
    if (v < min || v > max)
        return fail(f, ImportTr::tr("must be between %1 and %2, got %3").arg(min).arg(max).arg(v));
    out = v;
    return true;
}

bool JsonFields::string(const JsonField& f, QString& out, bool allowEmpty) {
    if (!f.node)
        return false;
    if (!f.node->isString())
        return fail(f, ImportTr::tr("must be a string, got %1").arg(f.node->describe()));
    if (!allowEmpty && f.node->string.trimmed().isEmpty())
        return fail(f, ImportTr::tr("must not be empty"));
    out = f.node->string;
    return true;
}

bool JsonFields::numbers(const JsonField& f, double min, double max,
                         const std::function<QString(qsizetype, double)>& check) {
    if (!f.node || !f.node->isArray())
        return false;
    const JsonNode& a = *f.node;
    if (!a.packed || a.unpacked) {
        for (qsizetype i = 0; i < a.size(); ++i) {
            const JsonField item = this->item(f, i);
            double v = 0;
            if (!number(item, min, max, v))
                return false;
            if (const QString problem = check(i, v); !problem.isEmpty())
                return fail(item, problem);
        }
        return true;
    }
    // Found to be numbers separated by commas when the tree was built; only their
    // values are checked here. The path and line are made only for an item at fault.
    JsonCursor c(a.packedBegin, a.packedEnd, a.packedLine);
    for (qsizetype i = 0; i < a.packedCount; ++i) {
        if (i > 0)
            c.consume(',');
        c.peek();
        const qint64 line = c.line();
        JsonNumber n;
        c.readNumber(n);
        const double v = n.value;
        QString problem;
        if (!std::isfinite(v))
            problem = ImportTr::tr("is not finite");
        else if (v < min || v > max)
            problem = ImportTr::tr("must be between %1 and %2, got %3")
                          .arg(min, 0, 'g', 12)
                          .arg(max, 0, 'g', 12)
                          .arg(v, 0, 'g', 12);
        else
            problem = check(i, v);
        if (!problem.isEmpty())
            return fail(JsonField{nullptr, f.path + QStringLiteral("[%1]").arg(i), line}, problem);
    }
    return true;
}

} // namespace moewb::importers
