#pragma once
// The recently opened projects, most recent first, kept in QSettings
// ("recentProjects"; at most kMax, absolute paths, no duplicates).
#include <QStringList>

namespace moewb::gui {

class RecentProjects {
public:
    static constexpr int kMax = 10;
    static QStringList list();
    // Moves (or adds) the path to the front.
    static void add(const QString& path);
    static void remove(const QString& path);
    static void clear();
};

} // namespace moewb::gui
