// RecordingExecutor; see recording_executor.h.
#include "models/dispatcher/recording_executor.h"

namespace perflab::dispatcher {

Status RecordingExecutor::execute(const CallPtr& call) {
  if (shut_down_) {
    return Status::Error("executor is shut down");
  }
  calls_.push_back(call);
  return Status::OK();
}

void RecordingExecutor::shutdown() {
  shut_down_ = true;
}

std::vector<CallPtr> RecordingExecutor::calls() const {
  return calls_;
}

size_t RecordingExecutor::call_count() const {
  return calls_.size();
}

CallPtr RecordingExecutor::call_at(size_t index) const {
  return calls_.at(index);
}

void RecordingExecutor::take_calls(std::vector<CallPtr>& calls) {
  calls.clear();
  calls.swap(calls_);
}

}  // namespace perflab::dispatcher
