#include "importers/NcclTestsText.h"

#include "importers/ImportSupport.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace moewb::importers::nccltests {

QString collectiveFromProgram(QString program) {
    program = QFileInfo(program.trimmed()).fileName();
    if (program.endsWith(QLatin1String("_perf")))
        program.chop(5);
    else if (program.endsWith(QLatin1String("_perf_mpi")))
        program.chop(9);
    return program;
}

std::vector<std::string_view> splitWhitespace(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
            ++i;
        const size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t')
            ++i;
        if (i > start)
            out.push_back(s.substr(start, i - start));
    }
    return out;
}

bool isAllToAll(const QString& collective) {
    return collective == QLatin1String("alltoall") || collective == QLatin1String("alltoallv");
}

bool isReductionOp(const QString& redop) {
    static const QStringList ops{QStringLiteral("sum"), QStringLiteral("prod"), QStringLiteral("min"),
                                 QStringLiteral("max"), QStringLiteral("avg"), QStringLiteral("mulsum"),
                                 QStringLiteral("premulsum"), QStringLiteral("all")};
    return ops.contains(redop);
}

int typeSize(const QString& type) {
    if (type == QLatin1String("int8") || type == QLatin1String("uint8") || type.startsWith(QLatin1String("f8")) ||
        type.startsWith(QLatin1String("fp8")) || type == QLatin1String("char"))
        return 1;
    if (type == QLatin1String("half") || type == QLatin1String("bfloat16") || type == QLatin1String("float16") ||
        type == QLatin1String("bf16"))
        return 2;
    if (type == QLatin1String("float") || type == QLatin1String("int32") || type == QLatin1String("uint32") ||
        type == QLatin1String("int") || type == QLatin1String("float32"))
        return 4;
    if (type == QLatin1String("double") || type == QLatin1String("int64") || type == QLatin1String("uint64") ||
        type == QLatin1String("float64"))
        return 8;
    return 0;
}

qint64 allToAllRanks(qint64 size, qint64 count, int typeSize) {
    if (count <= 0 || typeSize <= 0 || size <= 0)
        return 0;
    const qint64 perRank = count * qint64(typeSize);
    if (size % perRank != 0)
        return -1;
    return size / perRank;
}

QStringList columnsForRow(const QStringList& tokens, QString* why) {
    static const QRegularExpression number(QStringLiteral(R"(^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$)"));
    static const QRegularExpression integer(QStringLiteral(R"(^-?\d+$)"));
    auto isNumber = [&](qsizetype i) { return i < tokens.size() && number.match(tokens[i]).hasMatch(); };
    const QStringList half{QStringLiteral("time"), QStringLiteral("algbw"), QStringLiteral("busbw")};
    const qsizetype n = tokens.size();
    if (n < 3 || !isNumber(0) || !isNumber(1) || isNumber(2)) {
        *why = ImportTr::tr("does not start with size, count and a type name");
        return {};
    }
    if (n == 11 && isNumber(3))
        return QStringList{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"), QStringLiteral("redop")} +
               half + QStringList{QStringLiteral("error")} + half + QStringList{QStringLiteral("error")};
    if (n == 12 && !isNumber(3) && isNumber(4))
        return QStringList{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"), QStringLiteral("redop")} +
               half + QStringList{QStringLiteral("error")} + half + QStringList{QStringLiteral("error")};
    if ((n == 13 || n == 15 || n == 21) && !isNumber(3) && integer.match(tokens[4]).hasMatch()) {
        const QStringList left{QStringLiteral("size"), QStringLiteral("count"), QStringLiteral("type"),
                               QStringLiteral("redop"), QStringLiteral("root")};
        const QStringList wrong{QStringLiteral("#wrong")};
        const QStringList perIter{QStringLiteral("i_min"), QStringLiteral("i_max"), QStringLiteral("i_p99"),
                                  QStringLiteral("i_cv%")};
        if (n == 13)
            return left + half + wrong + half + wrong;
        if (n == 15)
            return left + half + wrong + half + wrong + QStringList{QStringLiteral("timestamp")};
        return left + half + wrong + perIter + half + wrong + perIter;
    }
    *why = ImportTr::tr("has %1 values, which is none of nccl-tests' row layouts (11 or 12 values before 2.13; "
                        "13, 15 with -T, 21 with -I since)")
               .arg(n);
    return {};
}

} // namespace moewb::importers::nccltests
