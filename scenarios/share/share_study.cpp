// Study `share`: Tahoe-LAFS immutable download, eager vs coalesced Share.loop() (ticket #1268).
// The knobs, each bound to the member it sets, the metrics, validation, the per-point encoded file and the
// CPU calibrations.
#include "scenarios/share/share_study.h"

#include <filesystem>
#include <map>
#include <optional>
#include <system_error>

#include "models/share/content.h"

namespace perflab::share_study {
namespace {

// The shares' counters both engines report, bound through `shares` (the ShareStats inside the result).
// Exact: counts, compared seed by seed.
template <class R, class Shares>
void bind_share_counts(MetricBindings<R>& m, Shares shares) {
  const auto count = [shares](auto member) {
    return [shares, member](const R& r) { return shares(r).*member; };
  };
  using S = share::ShareStats;
  m.count("loop_calls", count(&S::loop_calls), "Share.loop() passes run").exactly();
  m.count("wasted_loops", count(&S::wasted_loops),
          "loop() passes that found nothing new (retired, consumed and asked nothing)")
      .exactly();
  m.count("desire_calls", count(&S::desire_calls), "desire() bitmap computations").exactly();
  m.count("reads", count(&S::reads), "byte ranges asked of the servers").exactly();
  m.count("remote_calls", count(&S::remote_calls), "read()/readv() remote calls sent").exactly();
  m.bytes("bytes_read", count(&S::bytes_read), "bytes the servers returned").exactly();
  m.count("span_ops", count(&S::span_ops), "span and hash-tree operations counted in loop()").exactly();
}

// The driver's count of call messages, both engines (what the real client's own cost per message is
// fitted against: calibration_fit.cpp).
template <class R, class TotalsOf>
void bind_call_messages(MetricBindings<R>& m, TotalsOf totals) {
  m.count(
       "call_messages", [totals](const R& r) { return totals(r).call_messages; },
       "messages of remote calls the client sent (one per server per turn with calls)")
      .exactly();
}

}  // namespace

const MetricBindings<DownloadResult>& sim_metrics() {
  static const MetricBindings<DownloadResult> metrics = [] {
    using R = DownloadResult;
    MetricBindings<R> m;
    bind_share_counts(m, [](const R& r) -> const share::ShareStats& { return r.shares; });
    m.seconds(
        "cpu_s", [](const R& r) { return r.totals.cpu_s; }, "simulated CPU spent in loop()");
    m.seconds(
        "wasted_cpu_s", [](const R& r) { return r.totals.wasted_cpu_s; },
        "simulated CPU spent in wasted loop() passes");
    m.count(
         "call_tokens", [](const R& r) { return r.totals.tokens; },
         "Banana tokens of the remote calls and answers the client serialized and parsed")
        .exactly();
    bind_call_messages(m, [](const R& r) -> const Totals& { return r.totals; });
    m.count(
         "waits", [](const R& r) { return r.totals.waits; },
         "the client's I/O passes that waited for answers (none was due yet): about one per round trip")
        .exactly();
    m.seconds(
        "call_cpu_s", [](const R& r) { return r.totals.call_cpu_s; },
        "simulated client CPU spent in remote calls (serializing calls, parsing answers)");
    m.seconds(
        "server_cpu_s", [](const R& r) { return r.totals.server_cpu_s; },
        "simulated CPU the servers spent in remote calls, all servers together");
    m.seconds(
        "decode_cpu_s", [](const R& r) { return r.totals.decode_cpu_s; },
        "simulated client CPU spent hashing segments and rebuilding blocks from parity");
    m.count(
         "rebuilt_blocks", [](const R& r) { return r.totals.rebuilt_blocks; },
         "blocks decoding rebuilt from parity shares (0 when the k shares used are the primary ones)")
        .exactly();
    m.seconds(
        "duration_s", [](const R& r) { return r.totals.done_at; },
        "simulated time from the first DYHB query to the last segment delivered");
    return m;
  }();
  return metrics;
}

const MetricBindings<RealDownloadResult>& real_metrics() {
  static const MetricBindings<RealDownloadResult> metrics = [] {
    using R = RealDownloadResult;
    MetricBindings<R> m;
    bind_share_counts(m, [](const R& r) -> const share::ShareStats& { return r.download.shares; });
    bind_call_messages(m, [](const R& r) -> const Totals& { return r.download.totals; });
    m.seconds(
        "duration_s", [](const R& r) { return r.download.totals.done_at; },
        "wall-clock time from the first DYHB query to the last segment delivered (real engine)");
    m.count(
        "dead_shares", [](const R& r) { return r.download.dead_shares; },
        "shares abandoned because their server's connection was lost");
    m.count(
         "rebuilt_blocks", [](const R& r) { return r.download.totals.rebuilt_blocks; },
         "blocks decoding rebuilt from parity shares (0 when the k shares used are the primary ones)")
        .exactly();
    bind_oversleep(m, "timer waits on a due time in the future (every node's event loop)");
    return m;
  }();
  return metrics;
}

const MetricBindings<CalibrationReport>& micro_metrics() {
  static const MetricBindings<CalibrationReport> metrics = [] {
    using R = CalibrationReport;
    MetricBindings<R> m;
    m.seconds("seconds", &R::seconds,
              "median wall time of `passes` redundant loop() passes (or segment decodes)");
    m.count("span_ops", &R::span_ops, "span operations the passes counted").exactly();
    m.number(
        "measured_ns_per_op", &R::measured_ns_per_op, "ns",
        "seconds / span_ops in ns: the measured cost of one span operation (what params.ns_per_op sets)");
    m.number("us_per_pass", &R::us_per_pass, "us",
             "microseconds per redundant loop() pass or per segment decoded");
    m.number("ns_per_byte", &R::ns_per_byte, "ns",
             "decode: seconds / bytes decoded in ns, the measured cost of decoding");
    return m;
  }();
  return metrics;
}

namespace {

// cpu = "tahoe-1.9": calibrations, fitted together to three published figures by
// scenarios/share/fit_tahoe_costs.py (NOTES.md): #1268's 12 MiB download at k = 3 saves ~0.2 s with the
// fix and takes 4.0 s after it; #1545's 100 MB download at k = 54 takes ~414 s on trunk (coalesced).
constexpr double kTahoeSecondsPerOp = 13.735e-6;  // a counted span operation of loop()
constexpr double kTahoeCallSeconds = 2238e-6;     // a plain read() remote call, on each side
constexpr double kTahoeSecondsPerByte = 94.5e-9;  // the rest of the download, per byte of each segment

// cpu = "measured": scenarios/share/calibrate.toml on the development machine.
// Five quiet runs: 9.6-10.2 ns per operation. A segment's bytes (workload = "decode", 128 KiB segments,
// medians of 5, load 0.8-2.0, 2026-12-03): 1.06-1.07 ns per segment byte from primary shares (k = n = 3
// and 10: the block and segment hashes and the copy), 1.10 and 1.27 from all-parity shares (k = 3 of 10,
// 10 of 20), so 0.012-0.021 ns per byte multiplied in rebuilding (AVX-512 split tables): hashing is the
// cost, decoding nearly free. Tahoe 1.9 has no figure that separates its decode (zfec, C) from the rest of
// its per-byte cost, which the headline's fit measured with primary shares only (nothing rebuilt): it is
// charged this machine's decode as well, an assumption.
constexpr double kMeasuredNsPerOp = 10.0;
constexpr double kMeasuredHashNsPerByte = 1.1;
constexpr double kMeasuredDecodeNsPerByte = 0.02;
// Remote calls: the real Foolscap (21.7, Twisted 22.4, CPython 3.11, TLS on loopback) on this machine,
// scenarios/share/foolscap_calls.py (results/share/share-foolscap-calls.md): a plain read() alone in its
// turn costs 1.27 ms of CPU on the client and 1.27 ms on the server. No C++ Foolscap exists: the measured
// calibration is this model's own loop() and decode, and the real serializer's calls.
constexpr double kMeasuredCallSeconds = 1270e-6;

}  // namespace

CpuCosts cpu_costs(const ShareOptions& options) {
  if (options.cpu == CpuCalibration::kNone) {
    CpuCosts none{0, 0, 0, 0};
    if (options.ns_per_op >= 0) none.seconds_per_op = options.ns_per_op * 1e-9;
    if (options.hash_ns_per_byte >= 0) none.seconds_per_hashed_byte = options.hash_ns_per_byte * 1e-9;
    if (options.decode_ns_per_byte >= 0) none.seconds_per_decoded_byte = options.decode_ns_per_byte * 1e-9;
    if (options.call_cost_us >= 0) none.seconds_per_call = options.call_cost_us * 1e-6;
    return none;
  }
  const bool tahoe = options.cpu == CpuCalibration::kTahoe19;
  // A cost set (>= 0) in `unit` seconds, else the calibration's.
  const auto cost = [](double set, double unit, double calibrated) {
    return set >= 0 ? set * unit : calibrated;
  };
  CpuCosts costs;
  costs.seconds_per_op = cost(options.ns_per_op, 1e-9, tahoe ? kTahoeSecondsPerOp : kMeasuredNsPerOp * 1e-9);
  costs.seconds_per_hashed_byte =
      cost(options.hash_ns_per_byte, 1e-9, tahoe ? kTahoeSecondsPerByte : kMeasuredHashNsPerByte * 1e-9);
  costs.seconds_per_decoded_byte = cost(options.decode_ns_per_byte, 1e-9, kMeasuredDecodeNsPerByte * 1e-9);
  costs.seconds_per_call = cost(options.call_cost_us, 1e-6, tahoe ? kTahoeCallSeconds : kMeasuredCallSeconds);
  return costs;
}

Result<std::shared_ptr<const share::EncodedFile>> encoded_file(const ShareOptions& options) {
  std::shared_ptr<const share::ContentSource> content;
  if (options.file.empty()) {
    content = std::make_shared<share::SeededContent>(options.file_size, 1);
  } else {
    auto opened = share::FileContent::open(options.file);
    if (!opened.ok()) return opened.status();
    content = std::move(opened).value();
  }
  // Generated content's whole-file hash depends on its size alone: the points of a k or segment-size sweep
  // hash it once between them (a `file` is hashed each time: it may change between two scenarios).
  static std::map<uint64_t, std::string> generated_crypttext_hashes;
  std::optional<std::string> crypttext_hash;
  const bool generated = options.file.empty();
  if (auto known = generated_crypttext_hashes.find(options.file_size);
      generated && known != generated_crypttext_hashes.end())
    crypttext_hash = known->second;
  auto file = share::encode_file(std::move(content), static_cast<int>(options.k), static_cast<int>(options.n),
                                 options.segment_size, std::move(crypttext_hash));
  if (!file.ok()) return file.status();
  if (generated) generated_crypttext_hashes[options.file_size] = file->crypttext_hash;
  return std::make_shared<const share::EncodedFile>(std::move(file).value());
}

const Knobs<ShareOptions>& knobs() {
  static const Knobs<ShareOptions> knobs = [] {
    using O = ShareOptions;
    Knobs<O> k;
    k.path("file", &O::file,
           "a file whose real bytes are encoded, hashed and downloaded (read piecewise, never held whole); "
           "empty: file_size bytes of deterministic generated content");
    k.size("file_size", &O::file_size, "bytes of the file downloaded (with `file`: the file's size)");
    k.integer("k", &O::k, "shares needed to decode (needed_shares)");
    k.integer("n", &O::n, "shares stored, one per storage server (total_shares)");
    k.size("segment_size", &O::segment_size,
           "maximum segment size of the upload (rounded up to a multiple of k; Tahoe 1.9: 128 KiB)");
    k.choice("loop", &O::loop, share::kLoopPolicyNames,
             "Share.loop() scheduling: eager (before #1268), coalesced (the fix), readv (one batched read "
             "per loop)");
    k.choice("cpu", &O::cpu, kCpuCalibrationNames,
             "calibration of the CPU costs (span operation, segment byte, rebuilt byte, remote call): "
             "tahoe-1.9 (from the figures of #1268 and #1545), measured (this C++ model's loop and decode, "
             "the real Foolscap's calls, on this machine) or none (nothing charged). The sim charges them; "
             "the real engine burns the same charges as CPU on its loop beside its own code's");
    k.real("ns_per_op", &O::ns_per_op, "CPU per counted span operation, ns (-1: the cpu calibration's)")
        .at_least(-1);
    k.real("hash_ns_per_byte", &O::hash_ns_per_byte,
           "CPU per byte of each segment (its k blocks and itself hashed, the segment assembled), ns (-1: "
           "the cpu calibration's)")
        .at_least(-1);
    k.real("decode_ns_per_byte", &O::decode_ns_per_byte,
           "CPU per byte multiplied in rebuilding a block from parity (k x the block size for each primary "
           "block not among the k shares used: zfec's work), ns (-1: the cpu calibration's)")
        .at_least(-1);
    k.real("call_cost", &O::call_cost_us,
           "CPU of one plain read() remote call on each side (client, server), us; other calls in "
           "proportion to their Banana tokens (-1: the cpu calibration's; 0: calls cost no CPU)")
        .at_least(-1);
    k.real("native_message_cost", &O::native_message_cost_us,
           "sim: the real client's own CPU per message of calls it writes and the answer it parses (one per "
           "server per turn with calls, whatever calls it holds), us, charged beside the cpu table (its "
           "framing, syscalls and wake-ups: a calibration, perflab calibrate share)")
        .at_least(0)
        .only(Engine::kSim);
    k.real("native_ns_per_byte", &O::native_ns_per_byte,
           "sim: the real client's own CPU per segment byte, ns, charged beside the cpu table (its "
           "hashing and copying: a calibration, perflab calibrate share)")
        .at_least(0)
        .only(Engine::kSim);
    k.real("native_wait_cost", &O::native_wait_cost_us,
           "sim: the real run's own time per I/O pass of the client that waited for answers (the wake-ups "
           "of a round trip, its servers' and its client's, paid once per round however many messages it "
           "holds), us (a calibration, perflab calibrate share)")
        .at_least(0)
        .only(Engine::kSim);
    k.duration("dyhb_rtt_resolution", &O::dyhb_rtt_resolution_s,
               "DYHB round-trip times are compared at this resolution, ties going to the lower share "
               "number (fetcher.py's sort key): the rule both engines share, so they take the same shares "
               "where their round trips differ by microseconds")
        .at_least(1e-9);
    k.size("segment_size_guess", &O::segment_size_guess,
           "segment size the downloader guesses before it reads the UEB (Tahoe 1.9: 128 KiB, "
           "node.py:67; Tahoe with 1 MiB segments guesses 1 MiB)");
    k.duration("poll_window", &O::poll_window_s,
               "sim: replies arriving within this window of the first are handled in one I/O pass")
        .only(Engine::kSim);
    k.choice("workload", &O::workload, kCalibrationWorkloadNames,
             "micro: what to time: loop (redundant loop() passes: measured_ns_per_op) or decode (a segment: "
             "ns_per_byte)")
        .only(Engine::kMicro);
    k.integer("passes", &O::passes,
              "micro: redundant loop() passes, or segment decodes, timed per repetition")
        .at_least(1)
        .only(Engine::kMicro);
    return k;
  }();
  return knobs;
}

void DeliveredBytes::add(const std::string& segment) {
  if (!equal_ || offset_ + segment.size() > file_.cap.size) {
    equal_ = false;
    return;
  }
  expected_.resize(segment.size());
  file_.content->read(offset_, segment.size(), expected_.data());
  equal_ = segment == expected_;
  offset_ += segment.size();
}

std::string download_failure(const share::DownloadResult& result, const share::EncodedFile& file,
                             const DeliveredBytes& delivered) {
  if (!result.error.empty()) return result.error;
  if (!result.done) return "the download stalled: no loop queued and no read in flight";
  if (result.bytes != file.cap.size || !delivered.equal_so_far())
    return "the downloaded bytes differ from the file";
  return "";
}

Status complete_file_size(Params& params) {
  const ShareOptions o = knobs().options(params);
  if (o.file.empty()) return Status::OK();
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(o.file, error);
  if (error) return Status::Error("file \"" + o.file + "\": cannot read its size (" + error.message() + ")");
  if (size == 0) return Status::Error("file \"" + o.file + "\" is empty, expected at least 1 byte to upload");
  if (o.file_size != ShareOptions().file_size && o.file_size != size) {
    return Status::Error("file_size = " + std::to_string(o.file_size) + " B conflicts with file \"" + o.file +
                         "\" of " + std::to_string(size) +
                         " B, expected file_size left out (it is the file's)");
  }
  const std::string label = format_quantity(static_cast<double>(size), Quantity::kSize, Spelling::kLiteral);
  params.set("file_size", ParamValue{static_cast<double>(size), label});
  return Status::OK();
}

namespace {

Status validate(const Params& params) {
  const ShareOptions o = knobs().options(params);
  if (o.segment_size_guess < 1) return Status::Error("segment_size_guess is 0, expected > 0");
  if (o.k > 256 || o.n > 256)
    return Status::Error("k = " + std::to_string(o.k) + ", n = " + std::to_string(o.n) +
                         ": expected k <= n <= 256");
  return share::check_encoding(o.file_size, static_cast<int>(o.k), static_cast<int>(o.n), o.segment_size);
}

Study share_study() {
  Study study;
  study.name = "share";
  study.description =
      "Tahoe-LAFS immutable download: eager vs coalesced Share.loop() (ticket #1268) on real shares";
  study.params = knobs().specs();
  study.validate = validate;
  study.complete = complete_file_size;
  study.prepare = [](const Params& params) -> Result<PointInputs> {
    auto file = encoded_file(knobs().options(params));
    if (!file.ok()) return file.status();
    return PointInputs(*file);
  };
  study.prepare_reads = kFileParams;
  bind_sim(study, sim_metrics(),
           [](const RunContext& context) { return run_download(context, knobs().options(context.params)); });
  bind_micro(study, micro_metrics(), setup_calibration);
  study.calibration = calibration_fit();
  bind_real(study, real_metrics(), [](const RunContext& context) {
    return run_real_download(context, knobs().options(context.params));
  });
  return study;
}

const StudyRegistration registration(share_study);

}  // namespace
}  // namespace perflab::share_study
