// Study `share`: Tahoe-LAFS immutable download, eager vs coalesced Share.loop() (ticket #1268).
// Parameters, metrics, validation, the per-point encoded file and the CPU calibrations.
#include "scenarios/share/share_study.h"

#include "models/share/share.h"

namespace perflab::share_study {
namespace {

// cpu = "tahoe-1.9": calibrations, fitted together to three published figures by
// scenarios/share/fit_tahoe_costs.py (NOTES.md): #1268's 12 MiB download at k = 3 saves ~0.2 s with the
// fix and takes 4.0 s after it; #1545's 100 MB download at k = 54 takes ~414 s on trunk (coalesced).
constexpr double kTahoeSecondsPerOp = 13.735e-6;  // a counted span operation of loop()
constexpr double kTahoeCallSeconds = 2238e-6;     // a plain read() remote call, on each side
constexpr double kTahoeSecondsPerByte = 94.5e-9;  // the rest of the download, per decoded byte

// cpu = "measured": scenarios/share/calibrate.toml on the development machine.
// Five quiet runs: 9.6-10.2 ns per operation. Decoding (workload = "decode": RS from parity shares and the
// segment hash): 6.8-7.2 ns per byte, measured with the machine under load (an upper bound).
constexpr double kMeasuredNsPerOp = 10.0;
constexpr double kMeasuredNsPerByte = 7.0;
// Remote calls: the real Foolscap (21.7, Twisted 22.4, CPython 3.11, TLS on loopback) on this machine,
// scenarios/share/foolscap_calls.py (results/share/share-foolscap-calls.md): a plain read() alone in its
// turn costs 1.27 ms of CPU on the client and 1.27 ms on the server. No C++ Foolscap exists: the measured
// calibration is this model's own loop() and decode, and the real serializer's calls.
constexpr double kMeasuredCallSeconds = 1270e-6;

}  // namespace

CpuCosts cpu_costs(const Params& params) {
  bool tahoe = params.string("cpu") == "tahoe-1.9";
  double per_op = params.real("ns_per_op");
  double per_byte = params.real("decode_ns_per_byte");
  double per_call = params.real("call_cost");
  CpuCosts costs;
  costs.seconds_per_op = per_op >= 0 ? per_op * 1e-9 : (tahoe ? kTahoeSecondsPerOp : kMeasuredNsPerOp * 1e-9);
  costs.seconds_per_byte =
      per_byte >= 0 ? per_byte * 1e-9 : (tahoe ? kTahoeSecondsPerByte : kMeasuredNsPerByte * 1e-9);
  costs.seconds_per_call =
      per_call >= 0 ? per_call * 1e-6 : (tahoe ? kTahoeCallSeconds : kMeasuredCallSeconds);
  return costs;
}

Result<std::shared_ptr<const share::EncodedFile>> encoded_file(const Params& params) {
  auto size = static_cast<uint64_t>(params.real("file_size"));
  auto segment = static_cast<uint64_t>(params.real("segment_size"));
  auto file = share::encode_file(std::make_shared<share::SeededContent>(size, 1),
                                 static_cast<int>(params.integer("k")), static_cast<int>(params.integer("n")),
                                 segment);
  if (!file.ok()) return file.status();
  return std::make_shared<const share::EncodedFile>(std::move(file).value());
}

namespace {

Status validate(const Params& params) {
  auto size = static_cast<uint64_t>(params.real("file_size"));
  auto segment = static_cast<uint64_t>(params.real("segment_size"));
  int64_t k = params.integer("k");
  int64_t n = params.integer("n");
  if (params.real("segment_size_guess") < 1) return Status::Error("segment_size_guess is 0, expected > 0");
  if (k > 256 || n > 256)
    return Status::Error("k = " + std::to_string(k) + ", n = " + std::to_string(n) +
                         ": expected k <= n <= 256");
  return share::check_encoding(size, static_cast<int>(k), static_cast<int>(n), segment);
}

Study share_study() {
  Study study;
  study.name = "share";
  study.description =
      "Tahoe-LAFS immutable download: eager vs coalesced Share.loop() (ticket #1268) on real shares";
  study.params = {
      size_param("file_size", "12MiB", "bytes of the file downloaded"),
      int_param("k", "3", "shares needed to decode (needed_shares)"),
      int_param("n", "10", "shares stored, one per storage server (total_shares)"),
      size_param("segment_size", "128KiB",
                 "maximum segment size of the upload (rounded up to a multiple of k; Tahoe 1.9: 128 KiB)"),
      choice_param(
          "loop", "coalesced", share::loop_policy_names(),
          "Share.loop() scheduling: eager (before #1268), coalesced (the fix), readv (one batched read "
          "per loop)"),
      choice_param(
          "cpu", "tahoe-1.9", {"tahoe-1.9", "measured"},
          "calibration of the CPU costs (span operation, decoded byte, remote call): tahoe-1.9 (from the "
          "figures of #1268 and #1545) or measured (this C++ model's loop and decode, the real Foolscap's "
          "calls, on this machine)"),
      real_param("ns_per_op", "-1", "CPU per counted span operation, ns (-1: the cpu calibration's)")
          .at_least(-1),
      real_param("decode_ns_per_byte", "-1",
                 "CPU per byte of each decoded segment, ns (-1: the cpu calibration's)")
          .at_least(-1),
      real_param("call_cost", "-1",
                 "CPU of one plain read() remote call on each side (client, server), us; other calls in "
                 "proportion to their Banana tokens (-1: the cpu calibration's; 0: calls cost no CPU)")
          .at_least(-1),
      size_param("segment_size_guess", "128KiB",
                 "segment size the downloader guesses before it reads the UEB (Tahoe 1.9: 128 KiB, "
                 "node.py:67; Tahoe with 1 MiB segments guesses 1 MiB)"),
      duration_param("poll_window", "0ms",
                     "sim: replies arriving within this window of the first are handled in one I/O pass")
          .only(Engine::kSim),
      choice_param("workload", "loop", {"loop", "decode"},
                   "micro: what to time: loop (redundant loop() passes: ns_per_op) or decode (a segment: "
                   "ns_per_byte)")
          .only(Engine::kMicro),
      int_param("passes", "2000", "micro: redundant loop() passes, or segment decodes, timed per repetition")
          .at_least(1)
          .only(Engine::kMicro),
  };
  study.metrics = {
      {"loop_calls", "Share.loop() passes run", true},
      {"wasted_loops", "loop() passes that found nothing new (retired, consumed and asked nothing)", true},
      {"desire_calls", "desire() bitmap computations", true},
      {"reads", "byte ranges asked of the servers", true},
      {"remote_calls", "read()/readv() remote calls sent", true},
      {"bytes_read", "bytes the servers returned", true},
      {"span_ops", "span and hash-tree operations counted in loop()", true},
      {"cpu_s", "simulated CPU spent in loop()"},
      {"wasted_cpu_s", "simulated CPU spent in wasted loop() passes"},
      {"call_tokens", "Banana tokens of the remote calls and answers the client serialized and parsed", true},
      {"call_cpu_s", "simulated client CPU spent in remote calls (serializing calls, parsing answers)"},
      {"server_cpu_s", "simulated CPU the servers spent in remote calls, all servers together"},
      {"duration_s", "simulated time from the first DYHB query to the last segment delivered"},
  };
  study.micro_metrics = {
      {"seconds", "median wall time of `passes` redundant loop() passes (or segment decodes)"},
      {"span_ops", "span operations the passes counted", true},
      {"ns_per_op", "seconds / span_ops in ns: the measured cost of one span operation"},
      {"us_per_pass", "microseconds per redundant loop() pass or per segment decoded"},
      {"ns_per_byte", "decode: seconds / bytes decoded in ns, the measured cost of decoding"},
  };
  study.validate = validate;
  study.prepare = [](const Params& params) -> Result<PointInputs> {
    auto file = encoded_file(params);
    if (!file.ok()) return file.status();
    return PointInputs(*file);
  };
  study.prepare_reads = kFileParams;
  study.run_sim = run_download;
  study.setup_micro = setup_calibration;
  study.headline_report = headline_report;
  return study;
}

const StudyRegistration registration(share_study);

}  // namespace
}  // namespace perflab::share_study
