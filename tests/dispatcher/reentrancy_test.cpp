// What OkHttp's Dispatcher promises its callbacks, for every strategy: none of them (executor hand-off,
// failure callback, idle callback, lock observer and entry hook) runs with the dispatcher's lock held, so
// each may call back into the Dispatcher: an idle or failure callback that enqueues new calls, an executor
// that runs a call inline and finishes it before returning. And a finish that promotes a queued call
// leaves the dispatcher busy, so it does not fire the idle callback.
#include <functional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "models/dispatcher/dispatcher.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using Names = std::vector<std::string>;

// An executor whose behaviour each test chooses: record the call (run it later), run it inline and
// finish it before returning, or reject it. Every hand-off checks that the dispatcher's lock is free.
class ScriptedExecutor : public Executor {
 public:
  enum class Mode { kRecord, kRunInline, kReject };

  Status execute(const CallPtr& call) override {
    EXPECT_TRUE(dispatcher_lock_is_free(*dispatcher)) << "executor got " << call->name() << " under the lock";
    handed.push_back(call->name());
    switch (mode) {
      case Mode::kRecord:
        recorded.push_back(call);
        return Status::OK();
      case Mode::kRunInline: {
        // OkHttp's AsyncCall.execute(): run, then `finally { client.dispatcher().finished(this); }`.
        Status finished = dispatcher->finished(*call);
        EXPECT_TRUE(finished.ok()) << finished.message();
        return Status::OK();
      }
      case Mode::kReject:
        return Status::Error("executor shut down");
    }
    return Status::OK();
  }

  Dispatcher* dispatcher = nullptr;  // the Dispatcher that hands calls to this executor
  Mode mode = Mode::kRecord;
  Names handed;                   // every call offered, accepted or not, in order
  std::vector<CallPtr> recorded;  // accepted and not run yet (kRecord)
};

class DispatcherReentrancyTest : public ::testing::TestWithParam<Strategy> {
 protected:
  DispatcherReentrancyTest() : dispatcher_(executor_, GetParam()) {
    executor_.dispatcher = &dispatcher_;
    EXPECT_TRUE(dispatcher_.set_max_requests(20).ok());
    EXPECT_TRUE(dispatcher_.set_max_requests_per_host(10).ok());
    dispatcher_.set_idle_callback([this] { on_idle(); });
  }

  CallPtr make(const std::string& host, const std::string& path) {
    return Call::Create(host, host + "/" + path, [this](const Call& call, const Status& error) {
      EXPECT_TRUE(dispatcher_lock_is_free(dispatcher_)) << "failure callback under the lock";
      EXPECT_EQ(error.message().rfind("interrupted I/O", 0), 0u) << error.message();
      failed_.push_back(call.name());
      if (on_failure_) on_failure_(call);
    });
  }
  CallPtr enqueue(const std::string& host, const std::string& path) {
    CallPtr call = make(host, path);
    EXPECT_TRUE(dispatcher_.enqueue(call).ok()) << call->name();
    return call;
  }
  void finish(const CallPtr& call) { ASSERT_TRUE(dispatcher_.finished(*call).ok()) << call->name(); }
  // Finishes the recorded call `name`, like OkHttp's RecordingExecutor.finishJob().
  void finish_job(const std::string& name) {
    auto& recorded = executor_.recorded;
    for (auto it = recorded.begin(); it != recorded.end(); ++it) {
      if ((*it)->name() == name) {
        CallPtr call = *it;
        recorded.erase(it);
        finish(call);
        return;
      }
    }
    ADD_FAILURE() << "no such job: " << name;
  }
  void on_idle() {
    EXPECT_TRUE(dispatcher_lock_is_free(dispatcher_)) << "idle callback under the lock";
    ++idle_;
    if (on_idle_) on_idle_();
  }

  Names running() const { return names_of(dispatcher_.running_async_calls()); }
  Names ready() const { return names_of(dispatcher_.ready_async_calls()); }

  ScriptedExecutor executor_;
  Dispatcher dispatcher_;
  int idle_ = 0;
  Names failed_;
  std::function<void()> on_idle_;
  std::function<void(const Call&)> on_failure_;
};

// Every kind of callback, each checking that the lock is free: hand-offs accepted and rejected, failure
// callbacks, the idle callback, and the lock observer and entry hook around every section.
TEST_P(DispatcherReentrancyTest, NoCallbackRunsWithTheLockHeld) {
  const uint64_t sections_before = dispatcher_.locked_sections();
  int entries = 0;
  int exits = 0;
  dispatcher_.set_lock_entry_hook([&] {
    EXPECT_TRUE(dispatcher_lock_is_free(dispatcher_)) << "entry hook under the lock";
    ++entries;
  });
  dispatcher_.set_lock_observer([&](const LockedSectionReport&) {
    EXPECT_TRUE(dispatcher_lock_is_free(dispatcher_)) << "lock observer under the lock";
    ++exits;
  });
  ASSERT_TRUE(dispatcher_.set_max_requests(2).ok());
  ASSERT_TRUE(dispatcher_.set_max_requests_per_host(1).ok());
  enqueue("a", "1");
  enqueue("a", "2");
  enqueue("b", "1");
  enqueue("c", "1");
  CallPtr sync = make("s", "sync");
  ASSERT_TRUE(dispatcher_.executed(sync).ok());
  dispatcher_.cancel_all();
  finish_job("a/1");  // promotes a/2
  executor_.mode = ScriptedExecutor::Mode::kReject;
  finish_job("b/1");  // promotes c/1, rejected
  finish_job("a/2");
  ASSERT_TRUE(dispatcher_.finished_sync(*sync).ok());

  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "b/1", "a/2", "c/1"));
  EXPECT_THAT(failed_, ElementsAre("c/1"));
  EXPECT_EQ(idle_, 1);
  EXPECT_EQ(entries, exits);
  EXPECT_EQ(static_cast<uint64_t>(exits), dispatcher_.locked_sections() - sections_before);
}

// An idle callback that enqueues a call: the call runs, and the dispatcher is busy again.
TEST_P(DispatcherReentrancyTest, IdleCallbackEnqueuesACall) {
  CallPtr follow_up = make("b", "1");
  on_idle_ = [&] {
    if (!follow_up->is_executed()) {
      EXPECT_TRUE(dispatcher_.enqueue(follow_up).ok());
    }
  };
  enqueue("a", "1");
  finish_job("a/1");
  EXPECT_EQ(idle_, 1);
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "b/1"));
  EXPECT_THAT(running(), ElementsAre("b/1"));

  finish_job("b/1");
  EXPECT_EQ(idle_, 2);
  EXPECT_EQ(dispatcher_.running_calls_count(), 0u);
}

// A failure callback that enqueues a retry. The failed call keeps its slot until it is finished (OkHttp's
// executeOn() calls onFailure before finished()), so with maxRequests 1 the retry waits for it.
TEST_P(DispatcherReentrancyTest, FailureCallbackEnqueuesARetryThatWaitsForTheFailedCallsSlot) {
  ASSERT_TRUE(dispatcher_.set_max_requests(1).ok());
  std::vector<CallPtr> retries;
  on_failure_ = [&](const Call& failed) {
    EXPECT_THAT(running(), ElementsAre(failed.name()));
    retries.push_back(make(failed.host(), "retry"));
    EXPECT_TRUE(dispatcher_.enqueue(retries.back()).ok());
    EXPECT_THAT(ready(), ElementsAre(failed.host() + "/retry"));
    executor_.mode = ScriptedExecutor::Mode::kRecord;
  };
  enqueue("a", "1");
  enqueue("b", "1");
  executor_.mode = ScriptedExecutor::Mode::kReject;
  finish_job("a/1");  // promotes b/1, rejected; its retry runs once b/1 is finished

  EXPECT_THAT(failed_, ElementsAre("b/1"));
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "b/1", "b/retry"));
  EXPECT_THAT(running(), ElementsAre("b/retry"));
  EXPECT_THAT(ready(), IsEmpty());
  EXPECT_EQ(idle_, 0);
}

// With the executor shut down, the retry is promoted and rejected inside the first call's failure
// callback; the idle callback fires once, after the outer call is finished.
TEST_P(DispatcherReentrancyTest, FailureCallbackEnqueuesARetryThatIsRejectedToo) {
  on_failure_ = [&](const Call& failed) {
    if (failed.name() == "a/1") {
      EXPECT_TRUE(dispatcher_.enqueue(make("a", "retry")).ok());
    }
  };
  executor_.mode = ScriptedExecutor::Mode::kReject;
  enqueue("a", "1");
  EXPECT_THAT(failed_, ElementsAre("a/1", "a/retry"));
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "a/retry"));
  EXPECT_EQ(dispatcher_.running_calls_count(), 0u);
  EXPECT_EQ(dispatcher_.queued_calls_count(), 0u);
  EXPECT_EQ(idle_, 1);
}

// An executor that runs each call inline and finishes it before execute() returns: every enqueue runs
// its call to completion and leaves the dispatcher idle.
TEST_P(DispatcherReentrancyTest, InlineExecutorFinishesEachCallBeforeEnqueueReturns) {
  executor_.mode = ScriptedExecutor::Mode::kRunInline;
  ASSERT_TRUE(dispatcher_.set_max_requests(1).ok());
  for (int i = 1; i <= 5; ++i) {
    enqueue("a", std::to_string(i));
    EXPECT_EQ(dispatcher_.running_calls_count(), 0u);
  }
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "a/2", "a/3", "a/4", "a/5"));
  EXPECT_EQ(idle_, 5);
}

// A finish that promotes queued calls onto an inline executor: each inline finish promotes the next
// (nested, in FIFO order, per-host limits kept), and only the innermost finish, which leaves nothing
// running, fires the idle callback.
TEST_P(DispatcherReentrancyTest, InlineExecutorDrainsTheQueueFromOneFinish) {
  ASSERT_TRUE(dispatcher_.set_max_requests(2).ok());
  ASSERT_TRUE(dispatcher_.set_max_requests_per_host(1).ok());
  enqueue("a", "1");
  enqueue("b", "1");
  enqueue("a", "2");
  enqueue("b", "2");
  enqueue("a", "3");
  executor_.mode = ScriptedExecutor::Mode::kRunInline;
  finish_job("a/1");
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "b/1", "a/2", "a/3"));
  EXPECT_THAT(running(), ElementsAre("b/1"));
  EXPECT_THAT(ready(), ElementsAre("b/2"));
  EXPECT_EQ(idle_, 0);

  finish_job("b/1");
  EXPECT_THAT(executor_.handed, ElementsAre("a/1", "b/1", "a/2", "a/3", "b/2"));
  EXPECT_EQ(dispatcher_.running_calls_count(), 0u);
  EXPECT_EQ(idle_, 1);
}

TEST_P(DispatcherReentrancyTest, FinishThatPromotesAQueuedCallDoesNotFireIdle) {
  ASSERT_TRUE(dispatcher_.set_max_requests(1).ok());
  enqueue("a", "1");
  enqueue("b", "1");
  finish_job("a/1");
  EXPECT_EQ(idle_, 0);
  EXPECT_THAT(running(), ElementsAre("b/1"));
  finish_job("b/1");
  EXPECT_EQ(idle_, 1);
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, DispatcherReentrancyTest,
                         ::testing::ValuesIn(kStrategyNames.values()), strategy_test_name);

}  // namespace
}  // namespace perflab::dispatcher
