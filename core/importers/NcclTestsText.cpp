#include "importers/NcclTestsText.h"

#include <QFileInfo>

namespace moewb::importers::nccltests {

QString collectiveFromProgram(QString program) {
    program = QFileInfo(program.trimmed()).fileName();
    if (program.endsWith(QLatin1String("_perf")))
        program.chop(5);
    else if (program.endsWith(QLatin1String("_perf_mpi")))
        program.chop(9);
    return program;
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

} // namespace moewb::importers::nccltests
