#pragma once
// The frame around one stage's page: the gate banner on top — when the stage is
// locked it says why and what unlocks it; otherwise the stage's state in words —
// and below it the stage page itself (app/gui/stages, when this build has it).
#include "StageStatus.h"

#include <QWidget>

class QLabel;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class StageFrame : public QWidget {
    Q_OBJECT
public:
    // page: the stage page (may be null); the frame takes it as a child.
    StageFrame(int stage, QWidget* page, QWidget* parent = nullptr);
    int stage() const { return m_stage; }
    QWidget* page() const { return m_page; }
    void setState(const StageState& state);
    bool isLocked() const { return m_locked; }
    QString bannerText() const;

private:
    int m_stage;
    QWidget* m_page;
    QLabel* m_banner;
    bool m_locked = false;
};

} // namespace moewb::gui
