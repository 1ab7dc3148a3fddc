// A systematic Reed-Solomon code over GF(2^8), standing in for zfec: share i < k holds the i-th slice of
// the (padded) segment, share i >= k a Cauchy-matrix combination of the slices; any k distinct shares
// decode. Erasure coding is not what the study measures (decoding is charged by the
// driver per block rebuilt); it is here so that a download from any k shares yields the original bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::share {

class ErasureCode {
 public:
  ErasureCode(int k, int n);  // 1 <= k <= n <= 256
  // `segment` has a length that is a multiple of k; returns n blocks of segment.size() / k bytes.
  std::vector<std::string> encode(const std::string& segment) const;
  // Block `share` of the segment's encoding, block_size = segment_size / k bytes written to out.
  void encode_block(const char* segment, size_t segment_size, int share, char* out) const;
  // Any k blocks by share number (all of one length) -> the segment they encode: a primary block given is
  // copied, each other slice rebuilt from the k blocks (zfec's fec_decode does the same work).
  Result<std::string> decode(const std::map<int, std::string>& blocks) const;
  // The same into `segment`, its buffer reused: a download decodes one segment after another, and a fresh
  // 128 KiB string each time is fresh pages from the kernel each time.
  Status decode_into(const std::map<int, std::string>& blocks, std::string& segment) const;

 private:
  uint8_t coefficient(int share, int slice) const;
  // The inverse of the k x k matrix of these shares' rows (every segment of a download uses the same
  // shares, so decode keeps the last one).
  Result<std::vector<std::vector<uint8_t>>> invert(const std::vector<int>& rows) const;
  mutable std::vector<int> inverse_rows_;
  mutable std::vector<std::vector<uint8_t>> inverse_;
  int k_;
  int n_;
};

}  // namespace perflab::share
