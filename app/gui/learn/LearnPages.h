#pragma once
// The Learn pages (docs/learn.md): for someone who knows dense training but not MoE.
//  - CostExplorerPage: where an MoE's cost comes from (seed 000 §2). Sliders and spin
//    boxes for the shape and the parallel layout; live total vs activated parameters,
//    memory per device, all-to-all bytes and a step-time estimate from the project's
//    stage 1 all-to-all curve (core/costs), each with a plain explanation.
//  - RoutingLabPage: how routers really balance load (seed 001). Runs Top-K,
//    Expert-Choice and sigmoid-bias routing (core/routing) off the GUI thread, with a
//    progress bar and Cancel; the results beside the seed's own table; load per
//    expert, MaxVio over bias updates and the expert-count sweep.
// The cost explorer puts its inputs beside the outputs, or above them when the page is
// too narrow for both columns (large text scaling).
// Widgets carry objectNames (listed in docs/learn.md) so tests drive the real pages.
#include <QWidget>

#include <memory>

namespace moewb::store {
class ProjectStore;
}

namespace moewb::gui {

class CostExplorerPage : public QWidget {
    Q_OBJECT
public:
    explicit CostExplorerPage(QWidget* parent = nullptr);
    ~CostExplorerPage() override;

    // Not owned; may be null. The step-time estimate uses the all-to-all curve of this
    // project's newest stage 1 run when there is one; otherwise the page says that it
    // uses no measured curve.
    void setProject(store::ProjectStore* project);
    // True while the page is too narrow for the inputs beside the outputs: then the
    // inputs sit above the outputs and the whole page scrolls vertically.
    bool isStacked() const;

signals:
    // "Use the curve measured on this computer": the window opens the reference project
    // (`moewb reference`), or offers to measure it when there is none.
    void referenceProjectRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

class RoutingLabPage : public QWidget {
    Q_OBJECT
public:
    explicit RoutingLabPage(QWidget* parent = nullptr);
    ~RoutingLabPage() override; // cancels and waits for a running experiment

    // Not owned; may be null. The lab needs no project data today; kept so the shell
    // treats both pages alike.
    void setProject(store::ProjectStore* project);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace moewb::gui
