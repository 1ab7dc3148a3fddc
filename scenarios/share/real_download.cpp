// Real engine: the share study's download (the one driver, downloader.h) in real time. This process is the
// client; each storage server is a forked process on its own loopback link (127.0.0.1 only), shaped in
// both directions as [network] says (sim/engines/transport/real_transport.h). The code runs (hashing,
// decoding, the loop's bookkeeping cost this machine's CPU) and the client burns the same charges the sim
// makes, from the same table and hooks (charged_costs(): a `cpu = "tahoe-1.9"` download spends Tahoe's
// costs on a real loop); a server waits its charges out (downloader.h).
#include "scenarios/share/downloader.h"
#include "scenarios/share/share_study.h"
#include "sim/engines/transport/real_transport.h"

namespace perflab::share_study {

Result<RealDownloadResult> run_real_download(const RunContext& context, const ShareOptions& options) {
  const DownloadSetup setup{context.inputs.get<share::EncodedFile>(),
                            static_cast<int>(options.n),
                            options.loop,
                            options.segment_size_guess,
                            charged_costs(options),  // the sim's table, burnt beside the code's own CPU
                            options.dyhb_rtt_resolution_s,
                            /*poll_window_s=*/0,
                            context.timeline};
  RealDownloadResult result;
  auto run = transport::run_on_real(context, kDownloaderName, [&](transport::Node& node) {
    return run_downloader(node, setup, result.download);
  });
  if (!run.ok()) return run.status();
  result.sleeps = run->oversleep.sleeps;
  result.oversleep_mean_s = run->oversleep.mean_s();
  result.oversleep_max_s = static_cast<double>(run->oversleep.max_ns) * 1e-9;
  result.realtime = run->realtime;
  return result;
}

}  // namespace perflab::share_study
