#include "importers/TensorBoardImporter.h"

#include "importers/Crc32c.h"
#include "importers/MetricNames.h"
#include "importers/ProtoWireReader.h"

#include <QJsonArray>
#include <QSet>

#include <cmath>
#include <cstring>
#include <optional>

namespace moewb::importers {

namespace {

quint64 readLe64(const char* p) {
    quint64 v = 0;
    memcpy(&v, p, 8);
    return v;
}
quint32 readLe32(const char* p) {
    quint32 v = 0;
    memcpy(&v, p, 4);
    return v;
}

// TensorFlow DataType values used by scalar summaries.
enum DataType { DtFloat = 1, DtDouble = 2, DtInt32 = 3, DtInt64 = 9 };

struct ScalarValue {
    QString tag;
    std::optional<double> value;
    bool notScalar = false;
};

// A TensorProto holding one number; nullopt with notScalar for anything else.
std::optional<double> tensorScalar(std::string_view bytes, bool& notScalar, QString& error) {
    ProtoWireReader r(bytes);
    quint64 dtype = 0;
    std::optional<double> value;
    int count = 0;
    std::string_view content;
    while (r.next()) {
        switch (r.field()) {
        case 1:
            dtype = r.varint();
            break;
        case 4:
            content = r.bytes();
            break;
        case 5: // float_val, packed or not
            if (r.wireType() == ProtoWireReader::LengthDelimited) {
                const auto b = r.bytes();
                count += int(b.size() / 4);
                if (b.size() >= 4) {
                    float f = 0;
                    memcpy(&f, b.data(), 4);
                    value = f;
                }
            } else if (r.wireType() == ProtoWireReader::Fixed32) {
                ++count;
                value = r.fixed32AsFloat();
            }
            break;
        case 6: // double_val
            if (r.wireType() == ProtoWireReader::LengthDelimited) {
                const auto b = r.bytes();
                count += int(b.size() / 8);
                if (b.size() >= 8) {
                    double d = 0;
                    memcpy(&d, b.data(), 8);
                    value = d;
                }
            } else if (r.wireType() == ProtoWireReader::Fixed64) {
                ++count;
                value = r.fixed64AsDouble();
            }
            break;
        default:
            break;
        }
    }
    if (!r.error().isEmpty()) {
        error = r.error();
        return std::nullopt;
    }
    if (!content.empty()) {
        if (dtype == DtFloat && content.size() == 4) {
            float f = 0;
            memcpy(&f, content.data(), 4);
            return double(f);
        }
        if (dtype == DtDouble && content.size() == 8) {
            double d = 0;
            memcpy(&d, content.data(), 8);
            return d;
        }
        notScalar = true;
        return std::nullopt;
    }
    if (count == 1 && value)
        return value;
    notScalar = true;
    return std::nullopt;
}

} // namespace

QString TensorBoardImporter::metricNameForTag(const QString& tag, double& scale) {
    // Megatron-LM / Megatron-Core (megatron/training/training.py, moe_logging.py) and
    // torchtitan (torchtitan/components/metrics.py) tags; see loggedMetricName.
    return loggedMetricName(tag, scale);
}

bool TensorBoardImporter::looksLikeTfRecord(const QByteArray& head) {
    if (head.size() < 12)
        return false;
    return maskedCrc32c(head.constData(), 8) == readLe32(head.constData() + 8);
}

ImportResult TensorBoardImporter::parse(const QByteArray& bytes, const QString& file) {
    ImportedData data;
    data.format = QString::fromLatin1(kFormat);
    const char* base = bytes.constData();
    const qint64 size = bytes.size();
    qint64 pos = 0, record = 0, skipped = 0, skippedTags = 0;
    QStringList tags;
    QSet<QString> tagSet;
    QString fileVersion;
    if (size == 0)
        return importError(file, 0, {}, ImportTr::tr("the file is empty"));
    while (pos < size) {
        ++record;
        if (size - pos < 12)
            return importError(file, record, QStringLiteral("length"),
                               ImportTr::tr("truncated: the record header needs 12 bytes at offset %1, %2 left")
                                   .arg(pos)
                                   .arg(size - pos));
        const quint64 length = readLe64(base + pos);
        if (maskedCrc32c(base + pos, 8) != readLe32(base + pos + 8))
            return importError(file, record, QStringLiteral("length"),
                               ImportTr::tr("the CRC-32C of the record length does not match at offset %1 (corrupt, "
                                            "or not a TFRecord file)")
                                   .arg(pos));
        if (length > quint64(size - pos - 12) || quint64(size - pos - 12) - length < 4)
            return importError(file, record, QStringLiteral("data"),
                               ImportTr::tr("truncated: the record at offset %1 says %2 bytes, %3 are left")
                                   .arg(pos)
                                   .arg(length)
                                   .arg(std::max<qint64>(0, size - pos - 16)));
        const char* payload = base + pos + 12;
        if (maskedCrc32c(payload, size_t(length)) != readLe32(payload + length))
            return importError(file, record, QStringLiteral("data"),
                               ImportTr::tr("the CRC-32C of the record data does not match at offset %1 (corrupt)")
                                   .arg(pos));
        pos += 16 + qint64(length);

        ProtoWireReader event(std::string_view(payload, size_t(length)));
        qint64 step = 0;
        std::vector<std::string_view> summaries;
        while (event.next()) {
            if (event.field() == 2 && event.wireType() != ProtoWireReader::Varint)
                return importError(file, record, QStringLiteral("step"),
                                   ImportTr::tr("has protobuf wire type %1, a varint (type 0) was expected")
                                       .arg(int(event.wireType())));
            if (event.field() == 2)
                step = qint64(event.varint());
            else if (event.field() == 3 && event.wireType() == ProtoWireReader::LengthDelimited)
                fileVersion = QString::fromUtf8(event.bytes().data(), qsizetype(event.bytes().size()));
            else if (event.field() == 5 && event.wireType() == ProtoWireReader::LengthDelimited)
                summaries.push_back(event.bytes());
        }
        if (!event.error().isEmpty())
            return importError(file, record, QStringLiteral("event"), event.error());
        for (const std::string_view summary : summaries) {
            ProtoWireReader s(summary);
            while (s.next()) {
                if (s.field() != 1 || s.wireType() != ProtoWireReader::LengthDelimited)
                    continue;
                ProtoWireReader v(s.bytes());
                QString tag;
                std::optional<double> value;
                bool notScalar = false;
                bool hasOther = false;
                while (v.next()) {
                    if (v.field() == 1 && v.wireType() == ProtoWireReader::LengthDelimited) {
                        tag = QString::fromUtf8(v.bytes().data(), qsizetype(v.bytes().size()));
                    } else if (v.field() == 2) {
                        if (v.wireType() != ProtoWireReader::Fixed32)
                            return importError(file, record, tag.isEmpty() ? QStringLiteral("simple_value") : tag,
                                               ImportTr::tr("simple_value has protobuf wire type %1, a 32-bit float "
                                                            "(type 5) was expected")
                                                   .arg(int(v.wireType())));
                        value = double(v.fixed32AsFloat());
                    } else if (v.field() == 8 && v.wireType() == ProtoWireReader::LengthDelimited) {
                        QString why;
                        value = tensorScalar(v.bytes(), notScalar, why);
                        if (!why.isEmpty())
                            return importError(file, record, tag.isEmpty() ? QStringLiteral("tensor") : tag, why);
                    } else if (v.field() >= 3 && v.field() <= 6) {
                        hasOther = true; // images, histograms, audio
                    }
                }
                if (!v.error().isEmpty())
                    return importError(file, record, tag.isEmpty() ? QStringLiteral("summary") : tag, v.error());
                if (!s.error().isEmpty())
                    return importError(file, record, QStringLiteral("summary"), s.error());
                if (!value) {
                    if (notScalar || hasOther)
                        ++skipped;
                    continue;
                }
                if (tag.isEmpty())
                    return importError(file, record, QStringLiteral("tag"), ImportTr::tr("a scalar without a tag"));
                // "lm loss vs samples" and the like are plotted against samples or tokens, not steps.
                if (tag.contains(QLatin1String(" vs "))) {
                    ++skippedTags;
                    continue;
                }
                double scale = 1.0;
                const QString name = metricNameForTag(tag, scale);
                if (name.isEmpty())
                    return importError(file, record, tag, ImportTr::tr("the tag gives no metric name"));
                if (!std::isfinite(*value))
                    return importError(file, record, name,
                                       ImportTr::tr("is not finite (%1) at step %2").arg(*value).arg(step));
                if (step < 0 || step > kMaxStep)
                    return importError(file, record, QStringLiteral("step"),
                                       ImportTr::tr("is absurd: %1").arg(step));
                const double x = *value * scale;
                const MetricRange range = metricRange(name);
                if (x < range.min || x > range.max)
                    return importError(file, record, name,
                                       ImportTr::tr("is absurd: %1 at step %2 (expected between %3 and %4)")
                                           .arg(x)
                                           .arg(step)
                                           .arg(range.min, 0, 'g', 6)
                                           .arg(range.max, 0, 'g', 6));
                data.stepMetrics.append(store::StepMetric{step, name, x});
                ++data.rows;
                if (!tagSet.contains(tag)) {
                    tagSet.insert(tag);
                    tags << tag + QStringLiteral(" -> ") + name;
                }
            }
            if (!s.error().isEmpty())
                return importError(file, record, QStringLiteral("summary"), s.error());
        }
    }
    if (data.stepMetrics.isEmpty())
        return importError(file, 0, {}, ImportTr::tr("no scalar summaries found in %1 records").arg(record));
    QJsonObject& env = data.environment;
    env.insert(QStringLiteral("records"), record);
    if (!fileVersion.isEmpty())
        env.insert(QStringLiteral("file_version"), fileVersion);
    env.insert(QStringLiteral("tags"), QJsonArray::fromStringList(tags));
    env.insert(QStringLiteral("non_scalar_values_skipped"), skipped);
    env.insert(QStringLiteral("vs_samples_or_tokens_values_skipped"), skippedTags);
    return data;
}

} // namespace moewb::importers
