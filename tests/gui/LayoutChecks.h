#pragma once
// Layout checks shared by the GUI tests: which widgets a layout placed, and which of
// them overlap a sibling or stick out of their parent.
#include <QAbstractItemView>
#include <QBoxLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLayout>
#include <QList>
#include <QStringList>
#include <QWidget>

namespace moewb::testing {

// The widgets a box or grid layout places (nested layouts included).
inline void laidOutWidgets(QLayout* layout, QList<QWidget*>& out) {
    for (int i = 0; i < layout->count(); ++i) {
        QLayoutItem* item = layout->itemAt(i);
        if (QWidget* w = item->widget())
            out << w;
        else if (QLayout* inner = item->layout())
            laidOutWidgets(inner, out);
    }
}

// Visible widgets under `root` that overlap a sibling their layout placed beside them
// (a widget that keeps its minimum height in a slot smaller than that spills over the
// next one), each pair described with both geometries.
inline QStringList overlappingWidgets(QWidget* root) {
    QStringList found;
    auto text = [](const QWidget* w) {
        const QRect r = w->geometry();
        const auto* l = qobject_cast<const QLabel*>(w);
        return QStringLiteral("%1 %2%3 (%4,%5 %6x%7)")
            .arg(QLatin1String(w->metaObject()->className()), w->objectName(),
                 l ? QStringLiteral(" \"%1\"").arg(l->text().left(30)) : QString())
            .arg(r.x())
            .arg(r.y())
            .arg(r.width())
            .arg(r.height());
    };
    QList<QWidget*> parents = root->findChildren<QWidget*>();
    parents.prepend(root);
    for (QWidget* p : parents) {
        if (!p->isVisible() || !p->layout() || !(qobject_cast<QBoxLayout*>(p->layout()) || qobject_cast<QGridLayout*>(p->layout())))
            continue;
        QList<QWidget*> placed;
        laidOutWidgets(p->layout(), placed);
        placed.removeIf([](QWidget* w) { return !w->isVisible(); });
        for (int a = 0; a < placed.size(); ++a) {
            if (!p->rect().contains(placed[a]->geometry()))
                found << QStringLiteral("%1 sticks out of %2").arg(text(placed[a]), text(p));
            for (int b = a + 1; b < placed.size(); ++b)
                if (placed[a]->geometry().intersects(placed[b]->geometry()))
                    found << QStringLiteral("%1 overlaps %2").arg(text(placed[a]), text(placed[b]));
        }
    }
    return found;
}

} // namespace moewb::testing
