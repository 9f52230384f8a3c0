#include "importers/NcclTestsMatrixFile.h"

#include "importers/ImportSupport.h"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <locale.h>
#include <stdlib.h>

namespace moewb::importers::nccltests {

namespace {

// alltoallv_perf never calls setlocale: its strtod, isspace and printf are the C
// locale's, whatever this process's locale is (a Qt application takes the user's).
locale_t cLocale() {
    static const locale_t c = newlocale(LC_ALL_MASK, "C", locale_t(nullptr));
    return c;
}

bool isCSpace(char c) {
    // isspace() in the C locale.
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// printf in the C locale, as alltoallv_perf's PRINT; the trailing newline dropped.
QString cFormat(const char* format, ...) {
    char buffer[1024];
    const locale_t old = uselocale(cLocale());
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    uselocale(old);
    QString s = QString::fromUtf8(buffer, n < 0 ? 0 : std::min<int>(n, int(sizeof buffer) - 1));
    if (s.endsWith(QLatin1Char('\n')))
        s.chop(1);
    return s;
}

} // namespace

quint64 TrafficMatrixFile::sent(int rank, int ranks) const {
    quint64 sum = 0;
    for (int peer = 0; peer < ranks; ++peer)
        sum += at(rank, peer);
    return sum;
}

quint64 TrafficMatrixFile::received(int rank, int ranks) const {
    quint64 sum = 0;
    for (int peer = 0; peer < ranks; ++peer)
        sum += at(peer, rank);
    return sum;
}

Expected<TrafficMatrixFile, ImportError> readTrafficMatrix(const QByteArray& bytes, const QString& file,
                                                           double scale) {
    const QByteArray name = file.toLocal8Bit();
    const char* fileName = name.constData();
    auto fail = [&](qint64 line, const QString& message) {
        return unexpected(ImportError{file, line, QStringLiteral("matrix"), message});
    };
    // QByteArray keeps a NUL after its data: the C string alltoallv_perf reads (it
    // stops at an embedded NUL too).
    const char* buf = bytes.constData();
    const long double scaleL = (long double)scale;

    // ---------- First pass: count rows/cols (alltoallv.cu lines 220-278) ----------
    std::size_t rows = 0, cols = 0, tmpCols = 0;
    qint64 line = 1;
    const char* p = buf;
    while (*p) {
        if (isCSpace(*p)) {
            if (*p == '\n' && tmpCols > 0) {
                if (rows == 0)
                    cols = tmpCols;
                else if (tmpCols != cols)
                    return fail(line, cFormat("Invalid alltoallv traffic matrix column count in file %s row %zu. "
                                              "Expected %zu columns, got %zu.\n",
                                              fileName, rows, cols, tmpCols));
                tmpCols = 0;
                rows++;
            }
            if (*p == '\n')
                ++line;
            p++;
            continue;
        }
        errno = 0;
        char* end = nullptr;
        const double v = strtod_l(p, &end, cLocale());
        if (end == p || errno == ERANGE)
            return fail(line, cFormat("Invalid alltoallv traffic matrix value at row %zu col %zu in file %s.\n", rows,
                                      tmpCols, fileName));
        if (*end && !isCSpace(*end))
            return fail(line, cFormat("Invalid alltoallv traffic matrix value at row %zu col %zu in file %s.\n", rows,
                                      tmpCols, fileName));
        if (v < 0.0)
            return fail(line, cFormat("Invalid alltoallv traffic matrix value at row %zu col %zu in file %s. Value must "
                                      "be non-negative.\n",
                                      rows, tmpCols, fileName));
        const long double scaled = (long double)v * scaleL;
        if (scaled > (long double)SIZE_MAX)
            return fail(line, cFormat("Invalid alltoallv traffic matrix value at row %zu col %zu in file %s. Value "
                                      "overflow (value=%g scale=%g).\n",
                                      rows, tmpCols, fileName, v, scale));
        // Not in alltoallv.cu: it accepts "nan" and converts it with undefined behaviour.
        if (std::isnan(v) || std::isnan(scaled))
            return fail(line, ImportTr::tr("the value at row %1 col %2 is not a number (nan); alltoallv_perf "
                                           "takes it with undefined behaviour")
                                  .arg(rows)
                                  .arg(tmpCols));
        tmpCols++;
        p = end;
    }
    if (tmpCols > 0) {
        if (rows == 0)
            cols = tmpCols;
        else if (tmpCols != cols)
            return fail(line, cFormat("Invalid alltoallv traffic matrix column count in file %s row %zu. Expected %zu "
                                      "columns, got %zu.\n",
                                      fileName, rows, cols, tmpCols));
        rows++;
    }
    if (rows == 0)
        return fail(0, cFormat("Invalid alltoallv traffic matrix, file %s is empty.\n", fileName));
    if (rows != cols)
        return fail(0, cFormat("Invalid alltoallv traffic matrix, file %s must be square (got %zux%zu).\n", fileName,
                               rows, cols));

    // ---------- Second pass: parse values (lines 286-315) ----------
    // Every value passed the first pass, so none is out of place here: the "too many" /
    // "too few values" checks of alltoallv.cu cannot fire (rows x cols values were counted).
    TrafficMatrixFile m;
    m.file = file;
    m.dim = int(rows);
    m.scale = scale;
    m.bytes.reserve(rows * cols);
    p = buf;
    while (*p) {
        if (isCSpace(*p)) {
            p++;
            continue;
        }
        char* end = nullptr;
        const double v = strtod_l(p, &end, cLocale());
        const long double scaled = (long double)v * scaleL;
        // align per-peer traffic to 16-byte boundary (alltoallv.cu line 308)
        m.bytes.push_back(quint64((std::size_t)scaled & ~(std::size_t)15));
        p = end;
    }
    return m;
}

std::optional<double> parseMatrixScale(const QByteArray& text) {
    // AlltoAllvParseEnv: strtod of the whole text, no ERANGE; then negative -> 0.
    errno = 0;
    char* end = nullptr;
    const char* s = text.constData();
    const double v = strtod_l(s, &end, cLocale());
    if (errno == ERANGE || end == s || *end != '\0' || std::isnan(v))
        return std::nullopt;
    return v < 0.0 ? 0.0 : v;
}

QString matrixTooSmall(const TrafficMatrixFile& m, int ranks) {
    const QByteArray name = m.file.toLocal8Bit();
    return cFormat("Invalid alltoallv traffic matrix, requested nranks (%d) is larger than matrix size (%d) in file %s.\n",
                   ranks, m.dim, name.constData());
}

} // namespace moewb::importers::nccltests
