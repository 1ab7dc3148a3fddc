// Real engine: the share study's download (the one driver, downloader.h) in real time. This process is the
// client; each storage server is a forked process on its own loopback link (127.0.0.1 only), shaped in
// both directions as [network] says (sim/engines/transport/real_transport.h). Hashing, decoding and the
// loop's bookkeeping cost this machine's real CPU: nothing is charged, the code runs.
#include "scenarios/share/downloader.h"
#include "scenarios/share/share_study.h"
#include "sim/engines/transport/real_transport.h"

namespace perflab::share_study {

Result<RealDownloadResult> run_real_download(const RunContext& context, const ShareOptions& options) {
  if (options.cpu != CpuCalibration::kMeasured || options.ns_per_op >= 0 || options.decode_ns_per_byte >= 0 ||
      options.call_cost_us >= 0) {
    return Status::Error(
        "cpu, ns_per_op, decode_ns_per_byte and call_cost charge simulated CPU; the real engine spends "
        "this machine's own: expected cpu = \"measured\" and the costs left at -1");
  }
  const DownloadSetup setup{context.inputs.get<share::EncodedFile>(),
                            static_cast<int>(options.n),
                            options.loop,
                            options.segment_size_guess,
                            ChargedCosts{},  // nothing is charged: the code runs
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
