#pragma once
// nccl-tests logs as they are run: a cluster script runs several tests into one log
// (all_reduce_perf, all_gather_perf, alltoall_perf, sendrecv_perf, ...), with
// NCCL_DEBUG output and failures between the tables. This splits a log into its tests
// and tells the lines that are never data rows, wherever they stand (docs/formats.md).
#include "importers/ImportError.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

#include <string_view>
#include <vector>

namespace moewb::importers::nccltests {

// NCCL_DEBUG output: "host:pid:tid [dev] NCCL INFO ...", "host:pid:tid [dev] file.cc:12
// NCCL WARN ..." (rccl's WARN lines too, however long), with any host name — a
// container's hex id starts with digits, like a data row. `t` is the trimmed line.
bool isDebugLine(std::string_view t);

// A test's failure as nccl-tests prints it (src/common.h, common.cu):
// "host: Test NCCL failure common.cu:401 '...'", "host: Test CUDA failure ...",
// " .. host pid 1718: Test failure common.cu:1076", "host: Test timeout (60s) ...".
bool isFailureLine(std::string_view t);

// One test of the log: from the line that starts it ("# nccl-tests version",
// "# Collective test starting: X", or a "# nThread" header after a table, a failure or a
// "# Collective test concluded") to the line before the next one. Together the sections
// cover every line of the file; the first starts at line 1.
struct LogSection {
    qint64 firstLine = 1;
    qint64 lastLine = 0;
    QString collective; // from "# Collective test starting: alltoall_perf" -> "alltoall"; empty: not named
    qint64 collectiveLine = 0;
    qint64 failureLine = 0; // the first failure line (isFailureLine), 0: none
    QString failure;        // its text, trimmed
    qint64 rowLines = 0;    // lines that start with a digit: at most this many rows
};

std::vector<LogSection> splitSections(const QByteArray& bytes);

// Why a test is not read, known before its lines are: not an all-to-all, failed (its
// failure line quoted), or not the test --collective asks for; nothing: it is read.
using SectionReasons = std::vector<std::optional<ImportError>>;
SectionReasons sectionsNotRead(const std::vector<LogSection>& sections, const QString& file,
                               const QString& givenCollective);

// The refusal of a log with no all-to-all test to import: a lone test's own error, else
// one that names every test, its lines and why it was not imported.
// "alltoall ×40, sendrecv ×3": the tests of these sections counted per name.
QString groupedTests(const std::vector<LogSection>& sections, const std::vector<size_t>& which);

ImportError noAllToAllTest(const std::vector<LogSection>& sections, const SectionReasons& reasons,
                           const QString& file);

// environment.skipped_sections: each test not imported (test, first_line, last_line,
// line, reason, and failure_line + failure where it failed); for a log of several tests
// also environment.sections_read (test, first_line, last_line, rows). Each list names at
// most 12 tests; the rest are counted per test name in skipped_sections_more /
// sections_read_more ({count, tests: "alltoall ×40, sendrecv ×3"}).
void noteSections(const std::vector<LogSection>& sections, const SectionReasons& reasons,
                  const std::vector<qint64>& rowsRead, QJsonObject& env);

} // namespace moewb::importers::nccltests
