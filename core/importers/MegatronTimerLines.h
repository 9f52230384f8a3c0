#pragma once
// Megatron timer blocks (--timing-log-level 1|2 with --timing-log-option all, minmax or
// max): what megatron/core/timers.py `Timers.log` prints after training_log's iteration
// line, times in ms per iteration (normalized by the log interval).
//   all:     "times across ranks (ms):" then "  <timer>:" then "     rank <r>: <ms>" lines
//   minmax:  "(min, max) time across ranks (ms):" then "    <timer> ....: (<min>, <max>)"
//   max:     "max time across ranks (ms):" then "    <timer> ....: <max>"
#include "importers/ImportError.h"

#include <QMap>
#include <QString>
#include <optional>
#include <string_view>

namespace moewb::importers {

class MegatronTimerBlock {
public:
    enum class Option { AllRanks, MinMax, Max };
    // The option a header line starts, if it is one.
    static std::optional<Option> headerOption(std::string_view line);

    explicit MegatronTimerBlock(Option option) : m_option(option) {}
    Option option() const { return m_option; }
    // Reads one line of the block. Returns false when the line is not part of it (the
    // block ended; the caller reads the line as usual); sets *error on a malformed line.
    bool read(std::string_view line, const QString& file, qint64 lineNumber,
              std::optional<ImportError>* error);

    struct Timer {
        double minMs = 0;
        double maxMs = 0;
        QMap<int, double> perRankMs; // "all" only
    };
    const QMap<QString, Timer>& timers() const { return m_timers; }

private:
    Option m_option;
    QString m_current; // the timer whose rank lines follow ("all")
    QMap<QString, Timer> m_timers;
};

// "forward-backward" → "forward_backward": the part of a metric name a timer gives.
QString timerMetricStem(const QString& timer);

// The StragglerDetector's report (--log-straggler; Megatron-LM megatron/core/utils.py,
// StragglerDetector.report, logged by rank 0 after the interval's iteration line):
//   "[2024-03-14 23:07:56] | MnRtt/Rnk: 3453.08ms/8 | MxRtt/Rnk: 3468.20ms/0 | MnPwr/Rnk: …"
// Rtt is the time a rank spent in the traced operations (forward-backward) per
// iteration, averaged over the logging interval; "/8" is the rank it was measured on.
struct StragglerReport {
    double minRttMs = 0;
    double maxRttMs = 0;
    int minRttRank = 0;
    int maxRttRank = 0;
};
// nullopt when the line is not one (no "MnRtt/Rnk:"); with *error set when it is one
// whose Rtt fields cannot be read.
std::optional<StragglerReport> readStragglerLine(std::string_view line, const QString& file, qint64 lineNumber,
                                                 std::optional<ImportError>* error);

} // namespace moewb::importers
