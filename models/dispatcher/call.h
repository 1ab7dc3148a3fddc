// A call the Dispatcher schedules: OkHttp's RealCall/AsyncCall reduced to what the Dispatcher looks at.
// A Call names its host (the per-host limit is keyed on it), says whether it is a WebSocket (exempt from
// the per-host limit), carries a cancel flag and the callback told when the call fails before running.
// The Dispatcher never runs a call: it hands it to an Executor, and whoever runs it calls
// Dispatcher::finished(call) when it is done.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/common/status.h"

namespace perflab::dispatcher {

class Call;
using CallPtr = std::shared_ptr<Call>;

class Call {
 public:
  // Told (outside the dispatcher lock) when the call fails without running, e.g. the executor rejected it.
  using FailureCallback = std::function<void(const Call& call, const Status& error)>;

  // `name` identifies the call in logs and tests, e.g. "a/1" for http://a/1; it defaults to the host.
  static CallPtr Create(std::string host);  // no name, no failure callback: what the micro workloads make
  static CallPtr Create(std::string host, std::string name, FailureCallback on_failure = nullptr);
  static CallPtr CreateWebSocket(std::string host, std::string name = {},
                                 FailureCallback on_failure = nullptr);

  // For subclasses that carry more (tests, simulators).
  Call(std::string host, std::string name, bool for_web_socket, FailureCallback on_failure);
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  virtual ~Call() = default;

  const std::string& host() const { return host_; }
  const std::string& name() const { return extras_ && !extras_->name.empty() ? extras_->name : host_; }
  bool for_web_socket() const { return for_web_socket_; }

  // Like OkHttp, cancelling only sets a flag: a queued call stays queued and a running call keeps its slot
  // until whoever runs it calls finished().
  void cancel() { canceled_.store(true, std::memory_order_relaxed); }
  bool is_canceled() const { return canceled_.load(std::memory_order_relaxed); }
  // OkHttp's Call.isExecuted(): the call was enqueued or executed (a call is submitted once).
  bool is_executed() const { return submitted_.load(std::memory_order_relaxed); }

 private:
  friend class Dispatcher;
  friend class IndexedTracker;
  friend class CounterTracker;
  // Tells the failure callback that the call failed without running.
  void fail(const Status& error) const {
    if (extras_ && extras_->on_failure) {
      extras_->on_failure(*this, error);
    }
  }
  // A call is enqueued or executed once; returns false if it already was.
  bool mark_submitted() { return !submitted_.exchange(true, std::memory_order_relaxed); }

  // What the micro workloads leave out, kept apart so that their tens of thousands of calls stay small
  // (64 bytes instead of 128: with 50,000 calls to distinct hosts the run is bound by memory traffic).
  struct Extras {
    std::string name;  // empty: the name is the host
    FailureCallback on_failure;
  };

  struct Key {  // only Create() makes one
    explicit Key() = default;
  };
  static std::unique_ptr<const Extras> make_extras(std::string name, FailureCallback on_failure);

 public:
  // Create()'s constructor: moves the host in and takes ready-made extras.
  Call(Key key, std::string&& host, std::unique_ptr<const Extras> extras, bool for_web_socket);

 private:
  const std::string host_;
  const std::unique_ptr<const Extras> extras_;  // null: no name, no failure callback
  const bool for_web_socket_;
  std::atomic<bool> canceled_{false};
  std::atomic<bool> submitted_{false};
  // What the call's tracker keeps on the call itself, as OkHttp's AsyncCall keeps its callsPerHost counter;
  // a Dispatcher has one tracker, so a call uses one of these, and they share one word to keep the Call in
  // one 64-byte line (the micro workloads' tens of thousands of calls, lock_cost_model.h's bytes per call):
  //   IndexedTracker  the call's index in its running list: finishing it finds it without a search or a hash
  //   CounterTracker  while the call runs, the address of its callsPerHost counter, which OkHttp's
  //                   finished(AsyncCall) decrements before taking the lock (counter_tracker.h); else 0
  // Written under the dispatcher lock (counter's decrement reads it without); atomic so that neither that
  // read nor a call wrongly passed to another Dispatcher is a data race.
  std::atomic<std::uintptr_t> tracker_word_{0};
};

}  // namespace perflab::dispatcher
