// The share study's one driver, for both engines: one immutable download as nodes of a transport
// (sim/engines/transport/transport.h). The downloader (the hub, node "client") is Tahoe's client on a Twisted
// reactor running the model's Share, SegmentFetcher and Download; each of the n storage servers is a
// spawned node "server-<s>" serving share s of the point's real encoded file. The messages are
// protocol.h's, so the sim charges the bytes the real engine sends. download.cpp runs it on SimGrid,
// real_download.cpp in forked processes on shaped loopback links.
#pragma once

#include <string>

#include "models/common/status.h"
#include "models/share/layout.h"
#include "models/share/share.h"
#include "scenarios/share/share_study.h"
#include "sim/engines/transport/transport.h"

namespace perflab {
class Timeline;
}

namespace perflab::share_study {

// The CPU the nodes charge for the work they do: the point's cost table (cpu_costs()). The client spends
// it on its loop (simulated CPU, or real CPU burnt: sim/engines/real/deadline_sleeper.h burn_cpu); a server
// waits it out before it answers, as a host of its own whose CPU nothing else uses (the real engine's
// servers are processes sharing this machine's cores: burning there would serialise what the sim runs in
// parallel).
struct ChargedCosts {
  double seconds_per_op = 0;            // a counted span operation of loop()
  double seconds_per_hashed_byte = 0;   // a byte of a segment (its blocks and itself hashed, assembled)
  double seconds_per_decoded_byte = 0;  // a byte multiplied in rebuilding a block (share::DecodeWork)
  double seconds_per_token = 0;         // a Banana token of a remote call, on each side (call_cost.h)
  // sim: the real run's own time per message of calls and its answer (native_message_cost), beside the
  // table, charged as the message is written: on the path of every later message of the turn, as the
  // calibration measures it (calibration_fit.cpp).
  double client_seconds_per_message = 0;
  // sim: the real run's own time per I/O pass that waited for answers (native_wait_cost): the wake-ups of a
  // round trip (its servers', its client's) that the real engine pays once per round, however many messages
  // the round holds; charged as the client takes up the answers.
  double client_seconds_per_wait = 0;
};

// The point's table (cpu_costs()) as the nodes charge it, plus, on the sim, the real driver's own CPU
// (`native_*`: what the real engine spends running this code besides what it burns).
ChargedCosts charged_costs(const ShareOptions& options);

struct DownloadSetup {
  const share::EncodedFile& file;
  int servers = 0;  // n: server s holds share s
  share::LoopPolicy loop = share::LoopPolicy::kCoalesced;
  std::uint64_t segment_size_guess = share::kGuessedSegmentSize;
  ChargedCosts costs;
  // DYHB round-trip times are compared at this resolution (a tie goes to the lower share number, as the
  // fetcher's sort key does): the rule both engines share, so that round trips µs apart in real, tied in
  // the sim, choose the same shares.
  double dyhb_rtt_resolution_s = 1e-3;
  double poll_window_s = 0;      // sim: answers due within this window of the first share one I/O pass
  Timeline* timeline = nullptr;  // loops, passes, reads, decodes and segments, when given
};

inline constexpr const char* kDownloaderName = "client";
// Storage server s's node name ("server-3").
std::string server_name(int server);

// The downloader's body: spawns the servers (peers 1..n, in server order), asks every one DYHB, downloads
// the file, then says bye to the servers still connected and collects their reports. `result` gets the
// counts, the charged CPU, the duration (totals.done_at: from the first DYHB query to the last segment
// delivered, on node.now()) and the bytes each message kind put on the wire. An error when the download
// failed, stalled or delivered other bytes than the file's.
Status run_downloader(transport::Node& node, const DownloadSetup& setup, DownloadResult& result);

}  // namespace perflab::share_study
