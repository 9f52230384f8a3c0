#pragma once
// Long work off the GUI thread: runs `work` on a thread of its own and hands its
// result to `done` on `context`'s thread once the work is over (not at all when
// `context` is gone by then). The thread deletes itself when finished. Returns the
// thread so a caller that must wait (closing the window) can.
#include <QThread>

#include <functional>
#include <memory>
#include <optional>

namespace moewb::gui {

template <typename Result>
QThread* runInWorker(QObject* context, std::function<Result()> work, std::function<void(Result)> done) {
    auto result = std::make_shared<std::optional<Result>>();
    QThread* thread = QThread::create([result, work = std::move(work)] { result->emplace(work()); });
    // finished is emitted from the worker; the connection queues the call to the
    // context's thread and disappears with the context.
    QObject::connect(thread, &QThread::finished, context, [result, done = std::move(done)] {
        if (result->has_value())
            done(std::move(**result));
    });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
    return thread;
}

} // namespace moewb::gui
