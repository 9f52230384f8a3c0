#include "ReportDecision.h"

#include "ReportPageFlow.h"

namespace moewb::report {

QString overrideLine(const store::OverrideRow& o, const StageSection& s) {
    const QString who = o.author.isEmpty() ? Report::tr("author not given") : o.author;
    const bool older = s.saved.overrideOnOlderData && s.saved.override_ && s.saved.override_->id == o.id;
    return older ? Report::tr("\"%1\" — %2, %3; given on older data").arg(o.justification, who, utcText(o.created))
                 : Report::tr("\"%1\" — %2, %3").arg(o.justification, who, utcText(o.created));
}

Decision decide(const ReportData& d) {
    const StageSection* blocking = nullptr;
    int overridden = 0;
    for (const StageSection& s : d.stages) {
        const bool over = s.overridden();
        overridden += over ? 1 : 0;
        if (!blocking && s.statusToken() != QLatin1String("pass") && !over)
            blocking = &s;
    }
    QStringList clusters;
    for (const ClusterSummary& c : d.clusters)
        clusters << c.cluster.name;
    const QString where = clusters.isEmpty() ? Report::tr("the measured cluster")
                                             : Report::tr("cluster %1").arg(clusters.join(QStringLiteral(", ")));
    if (!blocking)
        return overridden == 0
                   ? Decision{Report::tr("Yes: the conclusions can be used for %1 within the applicability "
                                         "conditions below — all four stages passed.")
                                  .arg(where),
                              QStringLiteral("pass")}
                   // An override is the team's word, not a measurement: never a plain yes.
                   : Decision{Report::tr("Only on the team's word: %n stage(s) stopped and went on by a written "
                                         "override. The measurements alone do not support using the conclusions "
                                         "for %1; read each override's justification below before relying on "
                                         "them.",
                                         nullptr, overridden)
                                  .arg(where),
                              QStringLiteral("warn")};
    const QString reason = blocking->state.reasons.value(0);
    if (blocking->stage == 4 && blocking->statusToken() == QLatin1String("stop"))
        return {Report::tr("Only on the source cluster: stages 1 to 3 hold there, but stage 4 stopped, so on the "
                           "target cluster the conclusions are reference only. %1")
                    .arg(reason),
                QStringLiteral("warn")};
    const QString token = blocking->statusToken();
    const QString text =
        token == QLatin1String("stop")
            ? Report::tr("Not yet: stage %1 stopped. %2 The conclusions cannot be used for %3 until it passes or "
                         "its stop is overridden with a written justification.")
            : token == QLatin1String("locked")
                  ? Report::tr("Not yet: stage %1 is locked. %2 The conclusions cannot be used for %3 until every "
                               "stage has passed.")
            : token == QLatin1String("not_evaluated")
                  ? Report::tr("Not yet: stage %1 has not been evaluated.%2 The conclusions cannot be used for %3 "
                               "until it is evaluated and passes.")
                  : Report::tr("Not yet: stage %1 is not ready. %2 The conclusions cannot be used for %3 until it "
                               "has what it needs and passes.");
    return {text.arg(blocking->stage).arg(reason, where), QStringLiteral("stop")};
}

} // namespace moewb::report
