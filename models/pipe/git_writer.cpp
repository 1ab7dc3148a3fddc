// pack-objects and upload-pack's relay loop (see git_writer.h).
#include "models/pipe/git_writer.h"

#include <algorithm>
#include <cstdio>

namespace perflab::pipe {

PackObjects::PackObjects(ProcessId id, Pipe& out, PackObjectsOptions options, SpanSink* spans)
    : id_(id), out_(out), options_(options), spans_(spans) {}

Action PackObjects::step(double now) {
  for (;;) {
    switch (state_) {
      case State::kProduce:
        if (produced_ == options_.total_bytes) {
          out_.close_write(now);
          state_ = State::kDone;
          return Finished{};
        }
        next_ =
            static_cast<size_t>(std::min<uint64_t>(options_.flush_size, options_.total_bytes - produced_));
        state_ = State::kWrite;
        return Compute{static_cast<double>(next_) / options_.rate};
      case State::kWrite: {
        Bytes data = content(options_.content_seed, produced_, next_);
        produced_ += next_;
        stats_.checksum.add(data);
        ++stats_.writes;
        if (out_.write(id_, std::move(data), now)) {
          state_ = State::kProduce;
          break;
        }
        blocked_since_ = now;
        state_ = State::kBlocked;
        return Wait{};
      }
      case State::kBlocked:
        if (out_.writer_blocked()) return Wait{};
        stats_.blocked_s += now - blocked_since_;
        if (spans_ != nullptr) spans_->span(name_, "blocked on full pipe", blocked_since_, now);
        state_ = State::kProduce;
        break;
      case State::kDone:
        return Finished{};
    }
  }
}

UploadPack::UploadPack(ProcessId id, Pipe& in, Pipe& out, UploadPackOptions options, SpanSink* spans)
    : id_(id), in_(in), out_(out), options_(options), spans_(spans), buffer_(options_.relay_buffer + 1) {}

void UploadPack::queue_packet(const uint8_t* payload, size_t size) {
  char header[6];
  std::snprintf(header, sizeof(header), "%04zx", size + 5);
  Bytes hdr(header, header + 4);
  hdr.push_back(1);  // band 1: pack data
  queue_write(std::move(hdr));
  queue_write(Bytes(payload, payload + size));
  stats_.payload.append(to_write_.back().checksum);
}

void UploadPack::queue_write(Bytes data) {
  Checksum checksum;
  checksum.add(data);
  to_write_.push_back(QueuedWrite{std::move(data), checksum});
}

bool UploadPack::write(QueuedWrite queued, double now) {
  stats_.checksum.append(queued.checksum);
  ++stats_.writes;
  return out_.write(id_, std::move(queued.data), now);
}

Action UploadPack::step(double now) {
  for (;;) {
    switch (state_) {
      case State::kPoll:
        if (in_.available() > 0 || in_.closed()) {
          state_ = State::kRelay;
          break;
        }
        if (options_.poll_tick) {  // SleepEx(1, TRUE); goto restart
          ++stats_.poll_sleeps;
          since_ = now;
          state_ = State::kSleeping;
          return SleepUntil{options_.poll_tick->wake_time(now)};
        }
        in_.notify_when_readable(id_);
        return Wait{};
      case State::kSleeping:
        if (spans_ != nullptr) spans_->span(name_, "poll sleep", since_, now);
        state_ = State::kPoll;
        break;
      case State::kRelay: {
        const size_t got = in_.read_into(buffer_.data() + used_, buffer_.size() - used_, now);
        ++stats_.relays;
        to_write_.clear();
        next_write_ = 0;
        if (got == 0) {  // EOF: flush the kept byte, then the flush packet
          at_eof_ = true;
          if (used_ > 0) queue_packet(buffer_.data(), used_);
          queue_write(Bytes{'0', '0', '0', '0'});
        } else {
          used_ += got;
          if (used_ > 1) {
            queue_packet(buffer_.data(), used_ - 1);
            buffer_[0] = buffer_[used_ - 1];
            used_ = 1;
          } else {
            queue_packet(buffer_.data(), used_);
            used_ = 0;
          }
        }
        state_ = State::kWriting;
        if (options_.relay_cost > 0) return Compute{options_.relay_cost};
        break;
      }
      case State::kWriting:
        if (blocked_) {
          if (out_.writer_blocked()) return Wait{};
          blocked_ = false;
          stats_.blocked_s += now - since_;
          if (spans_ != nullptr) spans_->span(name_, "blocked on full pipe", since_, now);
        }
        while (next_write_ < to_write_.size()) {
          if (!write(std::move(to_write_[next_write_++]), now)) {
            blocked_ = true;
            since_ = now;
            return Wait{};
          }
        }
        if (at_eof_) {
          out_.close_write(now);
          state_ = State::kDone;
          return Finished{};
        }
        state_ = State::kPoll;
        break;
      case State::kDone:
        return Finished{};
    }
  }
}

}  // namespace perflab::pipe
