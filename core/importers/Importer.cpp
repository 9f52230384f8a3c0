#include "importers/Importer.h"

#include "importers/CsvExpertLoadImporter.h"
#include "importers/CsvLine.h"
#include "importers/CsvMetricsImporter.h"
#include "importers/JsonCursor.h"
#include "importers/JsonTree.h"
#include "importers/JsonlExpertLoadImporter.h"
#include "importers/JsonlMetricsImporter.h"
#include "importers/MegatronLogImporter.h"
#include "importers/MegatronRoutingTraceImporter.h"
#include "importers/MegatronTpeJsonlImporter.h"
#include "importers/MoewbCollectImporter.h"
#include "importers/NcclTestsJsonImporter.h"
#include "importers/NcclTestsTextImporter.h"
#include "importers/NemoLogImporter.h"
#include "importers/NumberText.h"
#include "importers/ProbeJsonImporter.h"
#include "importers/RoutingTraceJsonlImporter.h"
#include "importers/TensorBoardImporter.h"
#include "importers/TorchtitanLogImporter.h"
#include "importers/WandbCsvImporter.h"
#include "importers/TextLines.h"

#include <QRegularExpression>

namespace moewb::importers {

namespace {

using ParseFn = ImportResult (*)(const QByteArray&, const QString&);

struct FormatEntry {
    const char* name;
    ParseFn parse;
};

const std::vector<FormatEntry>& formats() {
    static const std::vector<FormatEntry> table{
        {ProbeJsonImporter::kFormat, &ProbeJsonImporter::parse},
        {NcclTestsTextImporter::kFormat, &NcclTestsTextImporter::parse},
        {NcclTestsJsonImporter::kFormat, &NcclTestsJsonImporter::parse},
        {MegatronLogImporter::kFormat, &MegatronLogImporter::parse},
        {MegatronTpeJsonlImporter::kFormat, &MegatronTpeJsonlImporter::parse},
        {RoutingTraceJsonlImporter::kFormat, &RoutingTraceJsonlImporter::parse},
        {MegatronRoutingTraceImporter::kFormat, &MegatronRoutingTraceImporter::parse},
        {TensorBoardImporter::kFormat, &TensorBoardImporter::parse},
        {CsvMetricsImporter::kFormat, &CsvMetricsImporter::parse},
        {JsonlMetricsImporter::kFormat, &JsonlMetricsImporter::parse},
        {CsvExpertLoadImporter::kFormat, &CsvExpertLoadImporter::parse},
        {JsonlExpertLoadImporter::kFormat, &JsonlExpertLoadImporter::parse},
        {TorchtitanLogImporter::kFormat, &TorchtitanLogImporter::parse},
        {NemoLogImporter::kFormat, &NemoLogImporter::parse},
        {WandbCsvImporter::kFormat, &WandbCsvImporter::parse},
        {MoewbCollectImporter::kFormat, &MoewbCollectImporter::parse},
    };
    return table;
}

bool contains(const QByteArray& head, const char* text) { return head.contains(text); }

// The format of a one-line JSON object, by its keys.
QString formatOfJsonLine(const JsonNode& node) {
    if (!node.isObject())
        return {};
    auto has = [&](const char* key) { return node.member(QLatin1String(key)) != nullptr; };
    // remote/collect's sidecar: its header line names its own format.
    if (const JsonNode* f = node.member(QLatin1String("format"));
        f && f->isString() && f->string == QLatin1String(MoewbCollectImporter::kHeaderFormat))
        return QString::fromLatin1(MoewbCollectImporter::kFormat);
    if (has("schema") && has("results"))
        return QString::fromLatin1(ProbeJsonImporter::kFormat);
    if (has("results") && (has("config") || has("nccl_version")))
        return QString::fromLatin1(NcclTestsJsonImporter::kFormat);
    if (has("tpe"))
        return QString::fromLatin1(MegatronTpeJsonlImporter::kFormat);
    // Megatron-Core's router_trace.py: per-token indices in "top_indices", "topk" a number.
    if (has("top_indices") || (has("topk") && node.member(QLatin1String("topk"))->isNumber()))
        return QString::fromLatin1(MegatronRoutingTraceImporter::kFormat);
    if (has("topk"))
        return QString::fromLatin1(RoutingTraceJsonlImporter::kFormat);
    if (has("layer") && has("tokens"))
        return QString::fromLatin1(JsonlExpertLoadImporter::kFormat);
    if (has("step"))
        return QString::fromLatin1(JsonlMetricsImporter::kFormat);
    return {};
}

// The format of a first JSONL line longer than the head that detection reads (a router
// trace record holds num_tokens x topk indices, a tokens-per-expert record every
// micro-batch's counts): by the top-level keys before the cut.
QString formatOfCutJsonLine(std::string_view text) {
    JsonCursor c(text.data(), text.data() + text.size());
    if (!c.consume('{'))
        return {};
    bool tpe = false, topIndices = false, topkNumber = false;
    std::string scratch;
    do {
        std::string_view key;
        if (c.peek() != '"' || !c.readString(key, scratch) || !c.consume(':'))
            break;
        tpe = tpe || key == "tpe";
        topIndices = topIndices || key == "top_indices";
        topkNumber = topkNumber || (key == "topk" && c.peek() >= '0' && c.peek() <= '9');
        if (!c.skipValue())
            break;
    } while (c.consume(','));
    if (tpe)
        return QString::fromLatin1(MegatronTpeJsonlImporter::kFormat);
    if (topIndices || topkNumber)
        return QString::fromLatin1(MegatronRoutingTraceImporter::kFormat);
    return {};
}

} // namespace

QStringList importFormats() {
    QStringList names;
    for (const FormatEntry& f : formats())
        names << QString::fromLatin1(f.name);
    return names;
}

Expected<QString, ImportError> detectFormat(const QByteArray& bytes, const QString& fileName) {
    auto cannotTell = [&](const QString& why) {
        return unexpected(ImportError{fileName, 0, {},
                                      ImportTr::tr("cannot tell the format (%1); give --format, one of: %2")
                                          .arg(why, importFormats().join(QStringLiteral(", ")))});
    };
    if (bytes.isEmpty())
        return cannotTell(ImportTr::tr("the file is empty"));
    const QByteArray head = bytes.left(1 << 16);
    if (TensorBoardImporter::looksLikeTfRecord(head))
        return QString::fromLatin1(TensorBoardImporter::kFormat);

    TextLines lines(head);
    std::string_view first;
    while (lines.next(first) && trimmed(first).empty()) {
    }
    const std::string_view firstTrimmed = trimmed(first);
    if (!firstTrimmed.empty() && firstTrimmed.front() == '{') {
        // One object on the first line: JSONL (or a one-line document such as nccl-tests -J).
        JsonCursor c(firstTrimmed.data(), firstTrimmed.data() + firstTrimmed.size());
        JsonNode node;
        if (parseJsonValue(c, node) && c.atEnd()) {
            const QString f = formatOfJsonLine(node);
            if (!f.isEmpty())
                return f;
            return cannotTell(ImportTr::tr("a JSON object on line %1 with none of the keys the formats use")
                                  .arg(lines.lineNumber()));
        }
        // A first line cut by the head: a JSONL record too long to parse here.
        if (bytes.size() > head.size() && !lines.lastHadNewline()) {
            const QString f = formatOfCutJsonLine(firstTrimmed);
            if (!f.isEmpty())
                return f;
        }
        // A document over several lines.
        if (contains(head, "\"moe-probe/1\"") || (contains(head, "\"schema\"") && contains(head, "moe-probe")))
            return QString::fromLatin1(ProbeJsonImporter::kFormat);
        if (contains(head, "\"nccl_version\"") || (contains(head, "\"config\"") && contains(head, "\"results\"")))
            return QString::fromLatin1(NcclTestsJsonImporter::kFormat);
        return cannotTell(ImportTr::tr("a JSON document that is neither a moe-probe report nor nccl-tests -J output"));
    }
    if (contains(head, "# nThread ") || contains(head, "# Collective test starting") ||
        contains(head, "# nccl-tests version") || contains(head, "#  Rank ") || contains(head, "#   Rank "))
        return QString::fromLatin1(NcclTestsTextImporter::kFormat);
    // A pasted fragment: nccl-tests' column header line without the lines above it.
    {
        static const QRegularExpression columns(QStringLiteral("^#\\s+size\\s+count\\s+type\\b"),
                                                QRegularExpression::MultilineOption);
        if (columns.match(QString::fromLatin1(head)).hasMatch())
            return QString::fromLatin1(NcclTestsTextImporter::kFormat);
    }
    // torchtitan and NeMo before Megatron: a NeMo progress line also reads as "iteration N/T |".
    if (TorchtitanLogImporter::looksLikeTorchtitanLog(head))
        return QString::fromLatin1(TorchtitanLogImporter::kFormat);
    if (NemoLogImporter::looksLikeNemoLog(head))
        return QString::fromLatin1(NemoLogImporter::kFormat);
    if (MegatronLogImporter::looksLikeMegatronLog(head))
        return QString::fromLatin1(MegatronLogImporter::kFormat);
    if (WandbCsvImporter::looksLikeWandbCsv(head))
        return QString::fromLatin1(WandbCsvImporter::kFormat);
    // CSV: the first line that is not a comment is the header.
    TextLines csvLines(head);
    std::string_view line;
    while (csvLines.next(line)) {
        const std::string_view t = trimmed(line);
        if (t.empty() || t.front() == '#')
            continue;
        std::vector<std::string_view> fields;
        std::vector<std::string> storage;
        QString why;
        if (splitCsvLine(t, fields, storage, why) && fields.size() >= 2 && fields[0] == "step")
            return QString::fromLatin1(fields[1] == "layer" ? CsvExpertLoadImporter::kFormat
                                                            : CsvMetricsImporter::kFormat);
        break;
    }
    // A long preamble (Megatron's arguments, torchtitan's model and config dumps) can push
    // the first iteration or step line past the head.
    if (bytes.size() > head.size()) {
        if (TorchtitanLogImporter::looksLikeTorchtitanLog(bytes))
            return QString::fromLatin1(TorchtitanLogImporter::kFormat);
        if (NemoLogImporter::looksLikeNemoLog(bytes))
            return QString::fromLatin1(NemoLogImporter::kFormat);
        if (MegatronLogImporter::looksLikeMegatronLog(bytes))
            return QString::fromLatin1(MegatronLogImporter::kFormat);
    }
    return cannotTell(ImportTr::tr("no nccl-tests header, Megatron, torchtitan or NeMo training line, CSV header or "
                                   "JSON object found"));
}

ImportResult importBytes(const QByteArray& bytes, const QString& fileName, const QString& format) {
    QString name = format.trimmed();
    if (name.isEmpty()) {
        auto detected = detectFormat(bytes, fileName);
        if (!detected)
            return unexpected(detected.error());
        name = detected.value();
    }
    for (const FormatEntry& f : formats())
        if (name == QLatin1String(f.name))
            return parseWithinMemory(bytes, fileName, f.parse);
    return importError(fileName, 0, {},
                       ImportTr::tr("unknown format \"%1\"; known formats: %2")
                           .arg(name, importFormats().join(QStringLiteral(", "))));
}

ImportResult importFile(const QString& path, const QString& format) {
    auto bytes = readWholeFile(path);
    if (!bytes)
        return unexpected(bytes.error());
    return importBytes(bytes.value(), path, format);
}

} // namespace moewb::importers
