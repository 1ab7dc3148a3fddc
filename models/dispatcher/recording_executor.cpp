// RecordingExecutor; see recording_executor.h.
#include "models/dispatcher/recording_executor.h"

namespace perflab::dispatcher {

Status RecordingExecutor::execute(const CallPtr& call) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shut_down_) {
    return Status::Error("executor is shut down");
  }
  calls_.push_back(call);
  return Status::OK();
}

void RecordingExecutor::shutdown() {
  std::lock_guard<std::mutex> lock(mutex_);
  shut_down_ = true;
}

std::vector<CallPtr> RecordingExecutor::calls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_;
}

size_t RecordingExecutor::call_count() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_.size();
}

CallPtr RecordingExecutor::call_at(size_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return calls_.at(index);
}

void RecordingExecutor::take_calls(std::vector<CallPtr>& calls) {
  calls.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  calls.swap(calls_);
}

}  // namespace perflab::dispatcher
