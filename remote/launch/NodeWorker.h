#pragma once
// One thread per node that owns that node's SSH session (sessions belong to the
// thread that opened them). Jobs run in order on the worker's thread; post() returns a
// future the caller polls or waits on. Internal to remote/launch.
#include "../ssh/SshSession.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

namespace moewb::remote {

class NodeWorker {
public:
    NodeWorker() : m_thread([this] { loop(); }) {}
    ~NodeWorker() {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    NodeWorker(const NodeWorker&) = delete;
    NodeWorker& operator=(const NodeWorker&) = delete;

    // job(session slot): the slot holds this node's session once a job has opened it.
    std::future<void> post(std::function<void(std::unique_ptr<SshSession>&)> job) {
        auto task = std::make_shared<std::packaged_task<void()>>([this, job = std::move(job)] { job(m_session); });
        std::future<void> f = task->get_future();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_jobs.push_back([task] { (*task)(); });
        }
        m_cv.notify_all();
        return f;
    }

private:
    void loop() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_cv.wait(lock, [this] { return m_stop || !m_jobs.empty(); });
                if (m_jobs.empty())
                    break;  // stopping and nothing left
                job = std::move(m_jobs.front());
                m_jobs.pop_front();
            }
            job();
        }
        m_session.reset();  // closed on its own thread
    }

    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::function<void()>> m_jobs;
    bool m_stop = false;
    std::unique_ptr<SshSession> m_session;
    std::thread m_thread;  // last: started once the members above exist
};

} // namespace moewb::remote
