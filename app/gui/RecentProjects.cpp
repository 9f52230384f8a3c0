#include "RecentProjects.h"

#include <QFileInfo>
#include <QSettings>

namespace moewb::gui {

namespace {
const QString kKey = QStringLiteral("recentProjects");

QString normalized(const QString& path) { return QFileInfo(path).absoluteFilePath(); }
} // namespace

QStringList RecentProjects::list() { return QSettings().value(kKey).toStringList(); }

void RecentProjects::add(const QString& path) {
    QStringList paths = list();
    const QString p = normalized(path);
    paths.removeAll(p);
    paths.prepend(p);
    while (paths.size() > kMax)
        paths.removeLast();
    QSettings().setValue(kKey, paths);
}

void RecentProjects::remove(const QString& path) {
    QStringList paths = list();
    paths.removeAll(normalized(path));
    QSettings().setValue(kKey, paths);
}

void RecentProjects::clear() { QSettings().remove(kKey); }

} // namespace moewb::gui
