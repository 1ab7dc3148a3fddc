// Sim engine: the share study's download (the one driver, downloader.h) on SimGrid. The client and the n
// storage servers are nodes on their own simulated hosts (sim/engines/transport/sim_transport.h); every
// message is a SimGrid communication of the bytes the real engine sends. The nodes charge the point's CPU
// costs (charged_costs(): per counted span operation, per segment byte, per byte rebuilt, per Banana token
// of a remote call) and the real driver's own (native_*), so the client is one CPU, as in Tahoe, and every
// server has its own.
#include <string>
#include <vector>

#include "scenarios/share/downloader.h"
#include "scenarios/share/share_study.h"
#include "sim/engines/transport/sim_transport.h"

namespace perflab::share_study {

Result<DownloadResult> run_download(const RunContext& context, const ShareOptions& options) {
  const DownloadSetup setup{context.inputs.get<share::EncodedFile>(),
                            static_cast<int>(options.n),
                            options.loop,
                            options.segment_size_guess,
                            charged_costs(options),
                            options.dyhb_rtt_resolution_s,
                            options.poll_window_s,
                            context.timeline};
  std::vector<std::string> hosts = {kDownloaderName};
  for (int s = 0; s < setup.servers; ++s) hosts.push_back(server_name(s));
  DownloadResult result;
  Status ran = transport::run_on_simgrid(
      context, hosts, [&](transport::Node& node) { return run_downloader(node, setup, result); },
      transport::SimLatency::kPerLink);  // each message the latency the real engine draws for it
  if (!ran.ok()) return ran;
  return result;
}

}  // namespace perflab::share_study
