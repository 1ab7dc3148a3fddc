// A real thread-pool Executor, as OkHttp's ExecutorService: `execute` queues the call, `threads` worker
// threads pop calls and hand each to the runner its owner supplies (which plays the call and then tells the
// Dispatcher it finished). The stress test uses it; the incident's driver has its own over a transport's
// channel (incident_driver.cpp), the same queue on both engines. Once destruction starts it rejects new
// calls; the destructor drains the queue and joins every worker.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "models/dispatcher/executor.h"

namespace perflab::dispatcher {

class ThreadPoolExecutor : public Executor {
 public:
  using Runner = std::function<void(const CallPtr&)>;

  // `on_start` (may be empty) runs first on each worker thread, before it waits for calls.
  ThreadPoolExecutor(int threads, Runner runner, std::function<void()> on_start = {})
      : runner_(std::move(runner)), on_start_(std::move(on_start)) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }
  ~ThreadPoolExecutor() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  Status execute(const CallPtr& call) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return Status::Error("thread pool is shut down");
      queue_.push_back(call);
    }
    wake_.notify_one();
    return Status::OK();
  }

 private:
  void work() {
    if (on_start_) on_start_();
    for (;;) {
      CallPtr call;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        call = std::move(queue_.front());
        queue_.pop_front();
      }
      runner_(call);
    }
  }

  const Runner runner_;
  const std::function<void()> on_start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<CallPtr> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace perflab::dispatcher
