// Differential test against the real library: random op scripts (op_script.h: enqueues to a few hosts,
// WebSocket calls among them, finishes, cancels, sync calls, limit changes, executor rejections) applied
// op by op to the real OkHttp 3.13.1 Dispatcher in a JVM (scenarios/dispatcher/jvm/DifferentialDriver.java)
// and to the C++ scan, counter and indexed strategies. After every op the calls handed to the executor,
// the failed calls, the ready, running and sync lists and the idle-callback count must agree. Skipped when
// there is no JVM or no OkHttp jar (okhttp_jvm::available() says what is missing).
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/split.h"
#include "models/dispatcher/dispatcher.h"
#include "scenarios/dispatcher/jvm/okhttp_jvm.h"
#include "tests/dispatcher/op_script.h"
#include "tests/dispatcher/test_support.h"

namespace perflab::dispatcher {
namespace {

constexpr int kScripts = 40;
constexpr int kOps = 400;
constexpr int kHosts = 6;

std::vector<std::string> names_in(const std::string& field) {
  std::vector<std::string> names;
  for (const auto& name : split(field, ' ')) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

// Where two name lists part: the first index that differs and what each holds from there on.
std::string first_difference(const std::vector<std::string>& port, const std::vector<std::string>& real) {
  size_t i = 0;
  while (i < port.size() && i < real.size() && port[i] == real[i]) ++i;
  auto from = [i](const std::vector<std::string>& list) {
    std::string text;
    for (size_t j = i; j < list.size() && j < i + 8; ++j) text += " " + list[j];
    return text.empty() ? std::string(" (end)") : text;
  };
  return "from index " + std::to_string(i) + ": port" + from(port) + "; OkHttp" + from(real);
}

// What the real Dispatcher holds after an op, accumulated over the script.
struct RealState {
  std::vector<std::string> accepted, failed, ready, running, sync;
  int idle_callbacks = 0;
};

class OkHttpJvmTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!okhttp_jvm::available().ok()) return;
    auto started = okhttp_jvm::JvmProcess::Start("perflab.dispatcher.DifferentialDriver");
    if (started.ok()) {
      jvm_ = std::move(started).value().release();
    } else {
      start_error_ = new std::string(started.status().message());
    }
  }
  static void TearDownTestSuite() {
    delete jvm_;
    jvm_ = nullptr;
  }

  void SetUp() override {
    if (Status status = okhttp_jvm::available(); !status.ok()) GTEST_SKIP() << status.message();
    ASSERT_NE(jvm_, nullptr) << (start_error_ ? *start_error_ : "the JVM did not start");
    ASSERT_TRUE(jvm_->request("reset").ok());
    for (Strategy strategy : kStrategyNames.values())
      replicas_.push_back(std::make_unique<Replica>(strategy));
  }

  // The op as a command to the driver, naming calls by the C++ reference's lists before the op.
  std::string command(const Op& op, const std::string& new_name) const {
    const Replica& reference = *replicas_.front();
    switch (op.kind) {
      case Op::kEnqueue:
        return "enqueue " + op.host + " " + new_name + (op.web_socket ? " 1" : " 0");
      case Op::kFinish:
        return "finish " + reference.dispatcher.running_async_calls().at(op.index)->name();
      case Op::kCancel: {
        std::vector<CallPtr> calls = reference.dispatcher.ready_async_calls();
        for (const CallPtr& call : reference.dispatcher.running_async_calls()) calls.push_back(call);
        return "cancel " + calls.at(op.index)->name();
      }
      case Op::kMaxRequests:
        return "max " + std::to_string(op.limit);
      case Op::kMaxPerHost:
        return "perhost " + std::to_string(op.limit);
      case Op::kExecuteSync:
        return "exec " + new_name;
      case Op::kFinishSync:
        return "finish_sync " + reference.sync_calls.at(op.index)->name();
      case Op::kRejecting:
        return std::string("reject ") + (op.rejecting ? "1" : "0");
    }
    return "";
  }

  void apply(Replica& replica, const Op& op, const std::string& new_name) {
    Replica* r = &replica;
    auto record = [r](const Call& call, const Status&) { r->failed.push_back(call.name()); };
    switch (op.kind) {
      case Op::kEnqueue:
        ASSERT_TRUE(replica.dispatcher
                        .enqueue(op.web_socket ? Call::CreateWebSocket(op.host, new_name, record)
                                               : Call::Create(op.host, new_name, record))
                        .ok());
        break;
      case Op::kFinish:
        ASSERT_TRUE(replica.dispatcher.finished(*replica.dispatcher.running_async_calls().at(op.index)).ok());
        break;
      case Op::kCancel: {
        std::vector<CallPtr> calls = replica.dispatcher.ready_async_calls();
        for (const CallPtr& call : replica.dispatcher.running_async_calls()) calls.push_back(call);
        calls.at(op.index)->cancel();
        break;
      }
      case Op::kMaxRequests:
        ASSERT_TRUE(replica.dispatcher.set_max_requests(op.limit).ok());
        break;
      case Op::kMaxPerHost:
        ASSERT_TRUE(replica.dispatcher.set_max_requests_per_host(op.limit).ok());
        break;
      case Op::kExecuteSync:
        replica.sync_calls.push_back(Call::Create("s", new_name));
        ASSERT_TRUE(replica.dispatcher.executed(replica.sync_calls.back()).ok());
        break;
      case Op::kFinishSync:
        ASSERT_TRUE(replica.dispatcher.finished_sync(*replica.sync_calls.at(op.index)).ok());
        replica.sync_calls.erase(replica.sync_calls.begin() + static_cast<std::ptrdiff_t>(op.index));
        break;
      case Op::kRejecting:
        replica.executor.rejecting = op.rejecting;
        break;
    }
  }

  static inline okhttp_jvm::JvmProcess* jvm_ = nullptr;
  static inline std::string* start_error_ = nullptr;
  std::vector<std::unique_ptr<Replica>> replicas_;
};

class OkHttpDifferentialTest : public OkHttpJvmTest, public ::testing::WithParamInterface<uint64_t> {};

TEST_P(OkHttpDifferentialTest, PortsBehaveAsTheRealOkHttp) {
  OpScript script(GetParam(), kHosts);
  RealState real;
  int next_call = 0;
  for (int step = 0; step < kOps; ++step) {
    const Replica& reference = *replicas_.front();
    Op op = script.next(reference.dispatcher.running_async_calls().size(),
                        reference.dispatcher.queued_calls_count(), reference.sync_calls.size());
    // WebSocket calls go to hosts of their own: where an ordinary call shares a host with one, 3.13.1
    // differs from the ports on purpose (WebSocketCountsPerHostWhenAnOrdinaryCallAdoptsItsCounter).
    if (op.web_socket) op.host = "ws-" + op.host;
    const std::string new_name = op.kind == Op::kExecuteSync ? "sync/" + std::to_string(step)
                                                             : op.host + "/" + std::to_string(next_call);
    if (op.kind == Op::kEnqueue) ++next_call;
    const std::string line = command(op, new_name);
    auto reply = jvm_->request(line);
    ASSERT_TRUE(reply.ok()) << "step " << step << " \"" << line << "\": " << reply.status().message();
    const std::vector<std::string> fields = split(*reply, '|');
    ASSERT_EQ(fields.size(), 6u) << "reply \"" << *reply << "\"";
    for (auto& name : names_in(fields[0])) real.accepted.push_back(name);
    for (auto& name : names_in(fields[1])) real.failed.push_back(name);
    real.ready = names_in(fields[2]);
    real.running = names_in(fields[3]);
    real.sync = names_in(fields[4]);
    real.idle_callbacks = std::stoi(fields[5]);

    for (auto& replica : replicas_) {
      apply(*replica, op, new_name);
      if (HasFatalFailure()) return;
      const std::string where = "step " + std::to_string(step) + " (\"" + line + "\"), strategy " +
                                std::string(kStrategyNames.name(replica->dispatcher.strategy())) +
                                " vs OkHttp 3.13.1";
      ASSERT_EQ(replica->executor.accepted, real.accepted)
          << where << ", executed " << first_difference(replica->executor.accepted, real.accepted);
      ASSERT_EQ(replica->failed, real.failed)
          << where << ", failed " << first_difference(replica->failed, real.failed);
      ASSERT_EQ(names_of(replica->dispatcher.ready_async_calls()), real.ready) << where;
      ASSERT_EQ(names_of(replica->dispatcher.running_async_calls()), real.running) << where;
      ASSERT_EQ(names_of(replica->dispatcher.running_sync_calls()), real.sync) << where;
      ASSERT_EQ(replica->idle_callbacks, real.idle_callbacks) << where;
    }
  }
  EXPECT_GT(real.accepted.size(), 20u) << "the script should exercise promotion";
  RecordProperty("executed", static_cast<int>(real.accepted.size()));
  RecordProperty("failed", static_cast<int>(real.failed.size()));
  RecordProperty("idle_callbacks", real.idle_callbacks);
}

// The one deliberate difference (models/dispatcher/counter_tracker.h): 3.13.1's findExistingCallWithHost
// does not skip WebSocket calls, so an ordinary call to a WebSocket's host adopts the WebSocket's
// counter, and the running WebSocket counts against the per-host limit. The ports keep WebSockets exempt.
TEST_F(OkHttpJvmTest, WebSocketCountsPerHostWhenAnOrdinaryCallAdoptsItsCounter) {
  ASSERT_TRUE(jvm_->request("perhost 1").ok());
  ASSERT_TRUE(jvm_->request("enqueue a a/ws 1").ok());
  auto reply = jvm_->request("enqueue a a/1 0");
  ASSERT_TRUE(reply.ok()) << reply.status().message();
  const std::vector<std::string> fields = split(*reply, '|');
  ASSERT_EQ(fields.size(), 6u);
  EXPECT_EQ(names_in(fields[2]), std::vector<std::string>{"a/1"}) << "OkHttp 3.13.1 keeps a/1 ready";
  EXPECT_EQ(names_in(fields[3]), std::vector<std::string>{"a/ws"});
  for (auto& replica : replicas_) {
    ASSERT_TRUE(replica->dispatcher.set_max_requests_per_host(1).ok());
    ASSERT_TRUE(replica->dispatcher.enqueue(Call::CreateWebSocket("a", "a/ws")).ok());
    ASSERT_TRUE(replica->dispatcher.enqueue(Call::Create("a", "a/1")).ok());
    EXPECT_EQ(names_of(replica->dispatcher.running_async_calls()), (std::vector<std::string>{"a/ws", "a/1"}))
        << kStrategyNames.name(replica->dispatcher.strategy());
  }
}

INSTANTIATE_TEST_SUITE_P(Scripts, OkHttpDifferentialTest, ::testing::Range<uint64_t>(1, kScripts + 1));

}  // namespace
}  // namespace perflab::dispatcher
