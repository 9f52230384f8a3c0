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

} // namespace moewb::importers
