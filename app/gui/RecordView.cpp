#include "RecordView.h"

#include "PageWidgets.h"

#include "record/RecordFields.h"
#include "record/RecordValidation.h"
#include "store/ProjectStore.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QHash>
#include <QMap>
#include <QTableWidget>
#include <QVBoxLayout>

namespace moewb::gui {

namespace {

void flatten(const QJsonObject& object, const QString& prefix, QMap<QString, QString>* out) {
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        const QJsonValue v = it.value();
        if (v.isObject()) {
            flatten(v.toObject(), path, out);
        } else if (v.isString()) {
            out->insert(path, v.toString());
        } else if (v.isNull()) {
            out->insert(path, QStringLiteral("none"));
        } else if (v.isArray()) {
            out->insert(path, QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)));
        } else if (v.isBool()) {
            out->insert(path, v.toBool() ? QStringLiteral("yes") : QStringLiteral("no"));
        } else {
            out->insert(path, QString::number(v.toDouble(), 'g', 12));
        }
    }
}

} // namespace

RecordView::RecordView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("recordView"));
    auto* layout = new QVBoxLayout(this);
    m_title = makePageTitle(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("recordStatus"));
    m_table = makeReadOnlyTable(this, {tr("Field"), tr("Value"), tr("Problem")});
    layout->addWidget(m_title);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
}

QString RecordView::statusText() const { return m_status->text(); }

void RecordView::showRecord(const store::ConfigRecordRow& row) {
    m_title->setText(tr("Config record · %1").arg(row.name));
    const auto issues = record::validateJson(row.json);
    if (issues.isEmpty()) {
        m_status->setText(tr("✔ Complete: every field is present and valid; runs using this record can be compared."));
    } else {
        m_status->setText(tr("! Incomplete: %n field(s) missing or invalid. Any comparison that includes a run "
                             "with this record is refused until they are fixed.",
                             "", int(issues.size())));
    }
    QMap<QString, QString> values;
    flatten(row.json, QString(), &values);
    QMap<QString, QString> problems;
    for (const auto& i : issues) {
        const QString field = i.field.isEmpty() ? QStringLiteral("(record)") : i.field;
        // The Field column already names the field; keep the message's explanation.
        QString message = i.message;
        if (message.startsWith(field + QLatin1Char(' ')))
            message = message.mid(field.size() + 1);
        if (problems.contains(field))
            problems[field] += QStringLiteral("; ");
        problems[field] += message;
    }
    QHash<QString, int> documentOrder;
    for (const auto& f : record::recordFields())
        documentOrder.insert(f.path, int(documentOrder.size()));

    QStringList fields = values.keys();
    for (auto it = problems.cbegin(); it != problems.cend(); ++it)
        if (!values.contains(it.key()))
            fields << it.key();
    // Problems first, so what blocks a comparison is what the eye meets; then the
    // record's own field order (cluster, moe, model, parallelism, batch, ...).
    std::stable_sort(fields.begin(), fields.end(), [&](const QString& a, const QString& b) {
        const bool pa = problems.contains(a), pb = problems.contains(b);
        if (pa != pb)
            return pa;
        const int oa = documentOrder.value(a, 1 << 20), ob = documentOrder.value(b, 1 << 20);
        return oa != ob ? oa < ob : a < b;
    });
    m_table->setRowCount(int(fields.size()));
    const QBrush problemBrush(QColor(0xF5, 0xD0, 0x8C));  // Okabe-Ito orange, light
    for (int r = 0; r < fields.size(); ++r) {
        const QString& f = fields[r];
        const bool hasProblem = problems.contains(f);
        auto* fieldItem = new QTableWidgetItem(hasProblem ? QStringLiteral("! ") + f : f);
        auto* valueItem = new QTableWidgetItem(values.value(f, tr("— missing —")));
        auto* problemItem = new QTableWidgetItem(problems.value(f));
        if (hasProblem)
            for (auto* item : {fieldItem, valueItem, problemItem})
                item->setBackground(problemBrush);
        m_table->setItem(r, 0, fieldItem);
        m_table->setItem(r, 1, valueItem);
        m_table->setItem(r, 2, problemItem);
    }
}

} // namespace moewb::gui
