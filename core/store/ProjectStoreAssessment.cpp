// The assessment sheet (schema version 3): saved as a whole in one transaction.
#include "store/ProjectStore.h"

#include "store/SqlSupport.h"

#include <QHash>
#include <QSet>
#include <QSqlQuery>

namespace moewb::store {

QString evidenceKindName(EvidenceKind kind) {
    return kind == EvidenceKind::Run ? QStringLiteral("run") : QStringLiteral("stage");
}

std::optional<EvidenceKind> evidenceKindFromName(const QString& name) {
    for (EvidenceKind k : {EvidenceKind::Run, EvidenceKind::Stage})
        if (evidenceKindName(k) == name)
            return k;
    return std::nullopt;
}

Expected<Ok, StoreError> ProjectStore::saveAssessment(const AssessmentSheetRow& sheet) {
    if (m_readOnly)
        return unexpected(readOnlyError());
    // Validate everything before touching the file.
    QSet<QString> keys, categories;
    for (const AssessmentDimensionRow& d : sheet.dimensions) {
        if (d.key.trimmed().isEmpty())
            return unexpected(error(StoreTr::tr("an assessment dimension needs a key")));
        if (keys.contains(d.key))
            return unexpected(error(StoreTr::tr("the assessment dimension %1 is given twice").arg(d.key)));
        keys.insert(d.key);
        for (const EvidenceLink& e : d.evidence) {
            if (e.kind == EvidenceKind::Stage && (e.stage < 1 || e.stage > 4))
                return unexpected(
                    error(StoreTr::tr("evidence of dimension %1 names stage %2 (stages are 1 to 4)")
                              .arg(d.key)
                              .arg(e.stage)));
            if (e.kind == EvidenceKind::Run && e.run.trimmed().isEmpty())
                return unexpected(error(StoreTr::tr("evidence of dimension %1 names no run").arg(d.key)));
        }
    }
    for (const CostEstimateRow& c : sheet.costs) {
        if (c.category.trimmed().isEmpty())
            return unexpected(error(StoreTr::tr("a cost estimate row needs a category")));
        if (categories.contains(c.category))
            return unexpected(error(StoreTr::tr("the cost category %1 is given twice").arg(c.category)));
        categories.insert(c.category);
    }

    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QString err;
    sql::Transaction tx(db);
    if (!tx.begin(&err))
        return unexpected(error(StoreTr::tr("cannot save the assessment sheet: %1").arg(err)));

    // Run names -> ids, read inside the write lock.
    QHash<QString, qint64> runIds;
    {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.exec(QStringLiteral("SELECT name, id FROM run")))
            return unexpected(
                error(StoreTr::tr("cannot save the assessment sheet: %1").arg(sql::errorText(q))));
        while (q.next())
            runIds.insert(sql::nameFromDb(q.value(0)), q.value(1).toLongLong()); // as runs() names them
    }
    for (const AssessmentDimensionRow& d : sheet.dimensions)
        for (const EvidenceLink& e : d.evidence)
            if (e.kind == EvidenceKind::Run && !runIds.contains(e.run))
                return unexpected(
                    error(StoreTr::tr("evidence of dimension %1 names run %2, which does not exist")
                              .arg(d.key, e.run)));

    for (const char* statement : {"DELETE FROM assessment_evidence", "DELETE FROM assessment_dimension",
                                  "DELETE FROM cost_estimate", "DELETE FROM assessment"})
        if (!sql::exec(db, QString::fromLatin1(statement), &err))
            return unexpected(error(StoreTr::tr("cannot save the assessment sheet: %1").arg(err)));

    QSqlQuery head(db);
    head.prepare(QStringLiteral("INSERT INTO assessment (id, author, updated) VALUES (1, ?, ?)"));
    head.bindValue(0, sql::toDbText(sheet.author));
    head.bindValue(1, sql::toDbTime(QDateTime::currentDateTimeUtc()));
    if (!sql::exec(head, &err))
        return unexpected(error(StoreTr::tr("cannot save the assessment sheet: %1").arg(err)));

    QSqlQuery dim(db);
    dim.prepare(QStringLiteral(
        "INSERT INTO assessment_dimension (key, position, rating, notes) VALUES (?, ?, ?, ?)"));
    QSqlQuery ev(db);
    ev.prepare(QStringLiteral("INSERT INTO assessment_evidence (dimension_key, position, kind, run_id, stage, "
                              "note) VALUES (?, ?, ?, ?, ?, ?)"));
    for (qsizetype i = 0; i < sheet.dimensions.size(); ++i) {
        const AssessmentDimensionRow& d = sheet.dimensions[i];
        dim.bindValue(0, d.key);
        dim.bindValue(1, int(i));
        dim.bindValue(2, sql::toDbText(d.rating));
        dim.bindValue(3, sql::toDbText(d.notes));
        if (!sql::exec(dim, &err))
            return unexpected(error(StoreTr::tr("cannot save assessment dimension %1: %2").arg(d.key, err)));
        for (qsizetype j = 0; j < d.evidence.size(); ++j) {
            const EvidenceLink& e = d.evidence[j];
            ev.bindValue(0, d.key);
            ev.bindValue(1, int(j));
            ev.bindValue(2, evidenceKindName(e.kind));
            ev.bindValue(3, e.kind == EvidenceKind::Run ? QVariant(runIds.value(e.run)) : QVariant());
            ev.bindValue(4, e.kind == EvidenceKind::Stage ? QVariant(e.stage) : QVariant());
            ev.bindValue(5, sql::toDbText(e.note));
            if (!sql::exec(ev, &err))
                return unexpected(
                    error(StoreTr::tr("cannot save the evidence of dimension %1: %2").arg(d.key, err)));
        }
    }

    QSqlQuery cost(db);
    cost.prepare(QStringLiteral("INSERT INTO cost_estimate (category, position, estimate, drivers, notes) "
                                "VALUES (?, ?, ?, ?, ?)"));
    for (qsizetype i = 0; i < sheet.costs.size(); ++i) {
        const CostEstimateRow& c = sheet.costs[i];
        cost.bindValue(0, c.category);
        cost.bindValue(1, int(i));
        cost.bindValue(2, sql::toDbText(c.estimate));
        cost.bindValue(3, sql::toDbText(c.drivers));
        cost.bindValue(4, sql::toDbText(c.notes));
        if (!sql::exec(cost, &err))
            return unexpected(
                error(StoreTr::tr("cannot save the cost estimate %1: %2").arg(c.category, err)));
    }
    dim.finish();
    ev.finish();
    cost.finish();
    head.finish();
    if (!tx.commit(&err))
        return unexpected(error(StoreTr::tr("cannot save the assessment sheet: %1").arg(err)));
    return Ok{};
}

AssessmentSheetRow ProjectStore::assessment() const {
    AssessmentSheetRow sheet;
    QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (q.exec(QStringLiteral("SELECT author, updated FROM assessment WHERE id = 1")) && q.next()) {
        sheet.author = sql::nameFromDb(q.value(0));
        sheet.updated = sql::fromDbTime(q.value(1));
    }
    QHash<QString, qsizetype> index;
    if (!q.exec(QStringLiteral("SELECT key, rating, notes FROM assessment_dimension ORDER BY position")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next()) {
        index.insert(q.value(0).toString(), sheet.dimensions.size());
        sheet.dimensions.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), {}});
    }
    if (!q.exec(QStringLiteral("SELECT e.dimension_key, e.kind, r.name, e.stage, e.note "
                               "FROM assessment_evidence e LEFT JOIN run r ON r.id = e.run_id "
                               "ORDER BY e.dimension_key, e.position")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next()) {
        const auto at = index.constFind(q.value(0).toString());
        const auto kind = evidenceKindFromName(q.value(1).toString());
        if (at == index.constEnd() || !kind)
            continue;
        EvidenceLink e;
        e.kind = *kind;
        e.run = sql::nameFromDb(q.value(2));
        e.stage = q.value(3).isNull() ? 0 : q.value(3).toInt();
        e.note = q.value(4).toString();
        sheet.dimensions[*at].evidence.append(e);
    }
    if (!q.exec(QStringLiteral(
            "SELECT category, estimate, drivers, notes FROM cost_estimate ORDER BY position")))
        qWarning("%s", qPrintable(error(sql::errorText(q)).text()));
    while (q.next())
        sheet.costs.append(
            {q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString()});
    return sheet;
}

} // namespace moewb::store
