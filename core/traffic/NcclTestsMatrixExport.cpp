#include "traffic/NcclTestsMatrixExport.h"

#include "placement/PlacementTr.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moewb::traffic {

using placement::Placement;

QByteArray NcclTestsMatrix::text() const {
    QByteArray out;
    for (int s = 0; s < ranks(); ++s) {
        for (int d = 0; d < ranks(); ++d) {
            if (d > 0)
                out += ' ';
            out += QByteArray::number(at(s, d));
        }
        out += '\n';
    }
    return out;
}

Expected<NcclTestsMatrix, QString> ncclTestsMatrix(const TrafficMatrix& matrix, quint64 bytesPerRank) {
    if (bytesPerRank == 0 || bytesPerRank % kNcclTestsAlignment != 0)
        return unexpected(Placement::tr("the bytes per rank must be a positive multiple of 16 (alltoallv_perf rounds "
                                        "every value down to 16 bytes), not %1")
                              .arg(bytesPerRank));
    const int n = matrix.ranks;
    double total = 0;
    for (const double b : matrix.bytes)
        total += b;
    if (n <= 0 || !(total > 0) || !std::isfinite(total))
        return unexpected(Placement::tr("the matrix moves no bytes"));
    const std::size_t cells = std::size_t(n) * std::size_t(n);
    // In units of 16 bytes: the whole is ranks x bytes per rank.
    const quint64 units = quint64(n) * (bytesPerRank / kNcclTestsAlignment);
    std::vector<quint64> whole(cells);
    std::vector<double> fraction(cells);
    quint64 given = 0;
    for (std::size_t i = 0; i < cells; ++i) {
        const double exact = std::max(0.0, matrix.bytes[i]) / total * double(units);
        const double floor = std::floor(exact);
        whole[i] = quint64(floor);
        fraction[i] = exact - floor;
        given += whole[i];
    }
    // Largest remainder: the units left go to the cells with the largest fractions
    // (ties: the first cell). Rounding of doubles may leave the floors one unit over
    // the whole: taken back from the smallest fractions.
    std::vector<std::size_t> order(cells);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
    for (std::size_t k = 0; given < units; k = (k + 1) % cells) {
        ++whole[order[k]];
        ++given;
    }
    for (std::size_t k = cells; given > units && k-- > 0;)
        if (whole[order[k]] > 0) {
            --whole[order[k]];
            --given;
        }
    NcclTestsMatrix m;
    m.matrix.ranks = n;
    m.matrix.model = matrix.model;
    m.matrix.bytes.resize(cells);
    for (std::size_t i = 0; i < cells; ++i)
        m.matrix.bytes[i] = double(whole[i] * kNcclTestsAlignment);
    m.bytesPerRank = bytesPerRank;
    return m;
}

quint64 defaultNcclTestsBytesPerRank(const TrafficMatrix& matrix) {
    const int n = std::max(matrix.ranks, 1);
    double total = 0;
    for (const double b : matrix.bytes)
        total += b;
    const double step = double(kNcclTestsAlignment) * n;
    const double steps = std::max(1.0, std::round(total / n / step));
    return quint64(steps) * kNcclTestsAlignment * quint64(n);
}

QString alltoallvCommand(const NcclTestsMatrix& m, const QString& matrixPath) {
    return QStringLiteral("mpirun -np %1 -x NCCL_TESTS_ALLTOALLV_MATRIX_FILE=%2 -x NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY=1 "
                          "alltoallv_perf -b %3 -e %3 -g 1 -N 5")
        .arg(m.ranks())
        .arg(matrixPath)
        .arg(m.busiestBytes());
}

QString alltoallCommand(const NcclTestsMatrix& m) {
    return QStringLiteral("mpirun -np %1 alltoall_perf -b %2 -e %2 -g 1 -N 5").arg(m.ranks()).arg(m.bytesPerRank);
}

} // namespace moewb::traffic
