// Tests of the pipe model: one pipeline run to its end on the real-time-free EventLoop, its options
// checked first and the run expected to finish.
#pragma once

#include <gtest/gtest.h>

#include "models/pipe/event_loop.h"
#include "models/pipe/pipeline.h"

namespace perflab::pipe {

inline PipelineResult run(const PipelineOptions& options) {
  EXPECT_TRUE(validate(options).ok()) << validate(options).message();
  EventLoop loop;
  Pipeline pipeline(options, loop, nullptr);
  auto end = loop.run(pipeline.processes());
  EXPECT_TRUE(end.ok()) << end.status().message();
  return pipeline.result();
}

}  // namespace perflab::pipe
