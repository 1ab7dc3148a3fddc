// Share (see share.h): the loop, satisfaction and desire of downloader/share.py, with the three loop
// policies. Line references are to tahoe-lafs master, src/allmydata/immutable/downloader/share.py.
#include "models/share/share.h"

#include "models/share/hashes.h"

namespace perflab::share {

Share::Share(DownloadNode& node, int shnum, RemoteBucket& bucket, EventualQueue& queue, LoopPolicy policy,
             double dyhb_rtt)
    : node_(node),
      common_(node.common_share(shnum)),
      shnum_(shnum),
      bucket_(bucket),
      queue_(queue),
      policy_(policy),
      dyhb_rtt_(dyhb_rtt) {
  // _guess_offsets (share.py:116): the layout a file of this size would have with the guessed segment size.
  const VerifyCap& cap = node.cap();
  Sizes guess = node.calculate_sizes(node.guessed_segment_size());
  guessed_offsets_ = share_offsets(guess, cap.size, cap.needed_shares, num_share_hashes(cap.total_shares));
  bucket_.set_error_handler([this](const std::string& why) { got_error(why); });
}

int Share::get_block(uint64_t segnum, Observer observer) {
  int handle = next_handle_++;
  requested_blocks_.push_back(Request{handle, segnum, std::move(observer)});
  schedule_loop();
  return handle;
}

void Share::cancel(int handle) {
  for (auto it = requested_blocks_.begin(); it != requested_blocks_.end(); ++it) {
    if (it->handle == handle) {
      requested_blocks_.erase(it);
      return;
    }
  }
}

void Share::schedule_loop() {
  if (policy_ != LoopPolicy::kEager) {
    if (loop_scheduled_) return;
    loop_scheduled_ = true;
  }
  queue_.eventually([this] { loop(); });
}

void Share::loop() {
  loop_scheduled_ = false;  // first: safe against re-entry, and an error cannot leave it set
  if (!alive_) return;
  ++stats_.loop_calls;
  LoopReport report;
  report.shnum = shnum_;
  uint64_t ops_start = ops_.count();
  call();
  Spans held = received_.spans();
  log_dump({&pending_, &held, &unavailable_});  // "%s.loop, reqs=[%s], pending=%s, ..." (share.py:204)
  report.satisfaction_ops += ops_.count() - ops_start;
  Status status = do_loop(report);
  uint64_t ops_end = ops_.count();
  held = received_.spans();
  log_dump({&pending_, &held, &unavailable_});  // "%s.loop done, ..." (share.py:242)
  report.desire_ops += ops_.count() - ops_end;
  if (!status.ok()) fail(status.message());
  if (report.wasted) ++stats_.wasted_loops;
  stats_.span_ops = ops_.count();
  if (loop_hook_) loop_hook_(report);
}

Status Share::do_loop(LoopReport& report) {
  uint64_t held_before = received_.len();
  size_t requests_before = requested_blocks_.size();
  uint64_t ops_start = ops_.count();
  bool retired = false;
  for (;;) {
    ++stats_.satisfaction_calls;
    ++report.satisfaction_passes;
    auto satisfied = get_satisfaction();
    if (!satisfied.ok()) {
      report.satisfaction_ops += ops_.count() - ops_start;
      return satisfied.status();
    }
    if (!*satisfied) break;
    retired = true;
  }
  uint64_t ops_mid = ops_.count();
  report.satisfaction_ops += ops_mid - ops_start;

  ++stats_.desire_calls;
  Desire desired = desire();
  report.reads_sent = send_requests(desired.want + desired.need);
  Spans disappointment = desired.need & unavailable_;
  report.desire_ops += ops_.count() - ops_mid;
  report.wasted = !retired && report.reads_sent == 0 && received_.len() == held_before &&
                  requested_blocks_.size() == requests_before;
  if (!disappointment.empty()) {
    had_corruption_ = true;
    return Status::Error("DataUnavailable: need data the server will never return");
  }
  return Status::OK();
}

Result<bool> Share::get_satisfaction() {
  call();
  if (!actual_offsets_) {
    auto got = satisfy_offsets();
    if (!got.ok() || !*got) return got;
  }
  if (!node_.have_ueb()) {
    auto got = satisfy_ueb();
    if (!got.ok() || !*got) return got;
  }
  std::optional<uint64_t> segnum;
  if (!requested_blocks_.empty()) segnum = requested_blocks_.front().segnum;
  if (segnum && *segnum >= node_.num_segments()) {
    Observer observer = requested_blocks_.front().observer;
    requested_blocks_.erase(requested_blocks_.begin());
    observer(BlockState::kBadSegnum, nullptr);
    return true;
  }
  if (!node_.share_hash_tree().needed_hashes(static_cast<size_t>(shnum_), false, &ops_).empty()) {
    auto got = satisfy_share_hash_tree();
    if (!got.ok() || !*got) return got;
  }
  if (common_.need_block_hash_root()) {
    const auto& root = node_.share_hash_tree().leaf(static_cast<size_t>(shnum_));
    if (!root) return Status::Error("NotEnoughHashesError: no block hash root for this share");
    Status set = common_.set_block_hash_root(*root);
    if (!set.ok()) return set;
  }
  if (!segnum) return false;
  auto block_hashes = common_.get_needed_block_hashes(*segnum, &ops_);
  if (!block_hashes.empty()) {
    auto got = satisfy_hashes(actual_offsets_->block_hashes, block_hashes, true);
    if (!got.ok() || !*got) return got;
  }
  auto ciphertext_hashes = node_.get_needed_ciphertext_hashes(*segnum, &ops_);
  if (!ciphertext_hashes.empty()) {
    auto got = satisfy_hashes(actual_offsets_->crypttext_hash_tree, ciphertext_hashes, false);
    if (!got.ok() || !*got) return got;
  }
  return satisfy_data_block(requested_blocks_.front());
}

// share.py:351 _satisfy_offsets
Result<bool> Share::satisfy_offsets() {
  call();
  auto version = received_.get(0, 4);
  if (!version) return false;
  if (read_be32(*version, 0) != 1) {
    had_corruption_ = true;
    return Status::Error("LayoutInvalid: unknown share version (this model reads v1)");
  }
  auto table = received_.pop(0x0c, 24);
  if (!table) return false;
  auto offsets = parse_offsets(std::string(0x0c, '\0') + *table);
  if (!offsets.ok()) return offsets.status();
  received_.remove(0, 4);
  const Offsets& o = *offsets;
  if (o.uri_extension < o.share_hashes || (o.uri_extension - o.share_hashes) % (2 + kHashSize) != 0 ||
      o.share_hashes < o.block_hashes || (o.share_hashes - o.block_hashes) % kHashSize != 0) {
    had_corruption_ = true;
    return Status::Error("LayoutInvalid: share hashes or block hashes malformed");
  }
  actual_offsets_ = o;
  return true;
}

// share.py:408 _satisfy_UEB
Result<bool> Share::satisfy_ueb() {
  call();
  uint64_t at = actual_offsets_->uri_extension;
  auto length = received_.get(at, 4);
  if (!length) return false;
  auto ueb = received_.pop(at + 4, read_be32(*length, 0));
  if (!ueb) return false;
  received_.remove(at, 4);
  Status valid = node_.validate_and_store_ueb(*ueb);
  if (!valid.ok()) {
    had_corruption_ = true;
    return valid;
  }
  return true;
}

// share.py:431 _satisfy_share_hash_tree: the whole section, (2-byte index, hash) pairs.
Result<bool> Share::satisfy_share_hash_tree() {
  call();
  const Offsets& o = *actual_offsets_;
  uint64_t length = o.uri_extension - o.share_hashes;
  auto data = received_.get(o.share_hashes, length);
  if (!data) return false;
  std::map<size_t, std::string> hashes;
  for (uint64_t i = 0; i + 2 + kHashSize <= length; i += 2 + kHashSize) {
    size_t index =
        (static_cast<size_t>(static_cast<uint8_t>((*data)[i])) << 8) | static_cast<uint8_t>((*data)[i + 1]);
    hashes[index] = data->substr(i + 2, kHashSize);
  }
  Status valid = node_.process_share_hashes(hashes, &ops_);
  if (!valid.ok()) {
    had_corruption_ = true;
    return valid;
  }
  received_.remove(o.share_hashes, length);
  return true;
}

// share.py:474 _satisfy_block_hash_tree and :504 _satisfy_ciphertext_hash_tree: all the nodes or none.
Result<bool> Share::satisfy_hashes(uint64_t section, const std::vector<size_t>& needed, bool block_tree) {
  call();
  std::map<size_t, std::string> hashes;
  for (size_t node : needed) {
    auto data = received_.get(section + node * kHashSize, kHashSize);
    if (!data) return false;
    hashes[node] = *data;
  }
  Status valid = block_tree ? common_.process_block_hashes(hashes, &ops_)
                            : node_.process_ciphertext_hashes(hashes, &ops_);
  if (!valid.ok()) {
    had_corruption_ = true;
    return valid;
  }
  for (size_t node : needed) received_.remove(section + node * kHashSize, kHashSize);
  return true;
}

// share.py:532 _satisfy_data_block
bool Share::satisfy_data_block(Request& active) {
  call();
  const uint64_t segnum = active.segnum;
  const Sizes& sizes = node_.sizes();
  bool tail = segnum + 1 == sizes.num_segments;
  uint64_t start = actual_offsets_->data + segnum * sizes.block_size;
  uint64_t length = tail ? sizes.tail_block_size : sizes.block_size;
  auto block = received_.pop(start, length);
  if (!block) return false;
  Observer observer = std::move(active.observer);      // `active` is the front request, popped here
  requested_blocks_.erase(requested_blocks_.begin());  // retired either way
  if (common_.check_block(segnum, *block, &ops_).ok()) {
    received_.clear();  // "to dodge the #1170 spans.py complexity bug" (share.py:553)
    observer(BlockState::kComplete, &*block);
  } else {
    had_corruption_ = true;
    observer(BlockState::kCorrupt, nullptr);
  }
  return true;
}

// share.py:580 _desire. Servers tolerate read overrun, so guessed offsets are used until the table
// arrives and only then does "want" become "need".
Share::Desire Share::desire() {
  call();
  Spans want(&ops_);
  Spans need(&ops_);
  Spans gotta(&ops_);
  ops_.add(3);  // the three Spans, and _calculate_sizes below
  ops_.add(1);
  const Offsets& o = offsets();
  std::optional<uint64_t> segnum;
  if (!requested_blocks_.empty()) segnum = requested_blocks_.front().segnum;
  if (!actual_offsets_) want.add(0, 1024);  // version, sizes and the offsets table
  if (!node_.have_ueb()) {
    want.add(o.uri_extension, 2048);
    need.add(o.uri_extension, 4);
    if (actual_offsets_) {
      if (auto length = received_.get(o.uri_extension, 4))
        need.add(o.uri_extension + 4, read_be32(*length, 0));
    }
  }
  if (!node_.share_hash_tree().needed_hashes(static_cast<size_t>(shnum_), false, &ops_).empty()) {
    need.add(o.share_hashes, o.uri_extension - o.share_hashes);
  }
  if (segnum) {
    for (size_t node : common_.get_desired_block_hashes(*segnum, &ops_)) {
      need.add(o.block_hashes + node * kHashSize, kHashSize);
    }
    for (size_t node : node_.get_desired_ciphertext_hashes(*segnum, &ops_)) {
      need.add(o.crypttext_hash_tree + node * kHashSize, kHashSize);
    }
    Sizes r = node_.have_ueb() ? node_.sizes() : node_.calculate_sizes(node_.guessed_segment_size());
    if (*segnum <= r.num_segments) {  // share.py:704: a segnum past the guessed end asks no data
      bool tail = *segnum + 1 == r.num_segments;
      need.add(o.data + *segnum * r.block_size, tail ? r.tail_block_size : r.block_size);
    }
  }
  log_dump({&want, &need, &gotta});  // "end _desire: want_it=%s need_it=%s gotta=%s" (share.py:623)
  if (actual_offsets_) return Desire{want, need + gotta};
  return Desire{want + need, gotta};
}

// share.py:729 _send_requests: one read per contiguous span not already pending or received.
size_t Share::send_requests(const Spans& desired) {
  call();
  Spans ask = desired - pending_ - received_.spans();
  log_dump(
      {&desired, &pending_, &ask});  // "%s._send_requests, desired=%s, pending=%s, ask=%s" (share.py:731)
  if (ask.empty()) return 0;
  for (const Span& span : ask) pending_.add(span.start, span.length);
  stats_.reads += ask.spans().size();
  if (policy_ == LoopPolicy::kReadv) {
    ++stats_.remote_calls;
    const std::vector<Span>& spans = ask.spans();
    bucket_.readv(spans, [this, spans](std::vector<std::string> replies) {
      for (size_t i = 0; i < spans.size() && i < replies.size(); ++i) {
        got_data(spans[i].start, spans[i].length, std::move(replies[i]));
      }
      if (alive_) schedule_loop();
    });
  } else {
    for (const Span& span : ask) {
      ++stats_.remote_calls;
      bucket_.read(span.start, span.length, [this, span](std::string data) {
        got_data(span.start, span.length, std::move(data));
        if (alive_) schedule_loop();  // _trigger_loop (share.py:818)
      });
    }
  }
  return ask.spans().size();
}

void Share::log_dump(std::initializer_list<const Spans*> spans) {
  ops_.add(1);
  for (const Spans* s : spans) ops_.add(1 + s->spans().size());
}

// share.py:764 _got_data
void Share::got_data(uint64_t start, uint64_t length, std::string data) {
  const uint64_t got = data.size();
  stats_.bytes_read += got;
  if (!alive_) return;
  pending_.remove(start, length);
  received_.add(start, std::move(data));
  if (got < length) unavailable_.add(start + got, length - got);
}

// share.py:807 _got_error: a failed read (each of a lost server's outstanding calls errbacks) abandons the
// share; its observers hear DEAD and the fetcher moves on to another share. _trigger_loop follows, but
// finds the share dead (share.py:818).
void Share::got_error(const std::string& why) { fail("error requesting data: " + why); }

// share.py:823 _fail
void Share::fail(const std::string& why) {
  alive_ = false;
  last_failure_ = why;
  std::vector<Request> requests = std::move(requested_blocks_);
  requested_blocks_.clear();
  for (const Request& request : requests) request.observer(BlockState::kDead, nullptr);
}

ShareStats& operator+=(ShareStats& a, const ShareStats& b) {
  a.loop_calls += b.loop_calls;
  a.wasted_loops += b.wasted_loops;
  a.desire_calls += b.desire_calls;
  a.satisfaction_calls += b.satisfaction_calls;
  a.reads += b.reads;
  a.remote_calls += b.remote_calls;
  a.bytes_read += b.bytes_read;
  a.span_ops += b.span_ops;
  return a;
}

}  // namespace perflab::share
