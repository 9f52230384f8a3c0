#pragma once
// The project at a glance: where it is, what it holds, and what to do next.
#include <QWidget>

class QLabel;

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class ProjectOverview : public QWidget {
    Q_OBJECT
public:
    explicit ProjectOverview(QWidget* parent = nullptr);
    void showProject(store::ProjectStore* project);
    QString text() const;

private:
    QLabel* m_title;
    QLabel* m_body;
};

} // namespace moewb::gui
