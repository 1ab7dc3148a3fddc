// Where an uploaded file's bytes come from, read piece by piece so that no file has to be held in memory:
//   SeededContent  deterministic pseudo-random bytes (splitmix64 of the word index), random access
//   FileContent    a file on disk, read with pread
//   StringContent  bytes held in memory (tests, small files)
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "models/common/status.h"

namespace perflab::share {

class ContentSource {
 public:
  virtual ~ContentSource() = default;
  virtual uint64_t size() const = 0;
  // Copies bytes [offset, offset + length) to out; the range lies inside the file.
  virtual void read(uint64_t offset, uint64_t length, char* out) const = 0;
  std::string read(uint64_t offset, uint64_t length) const;
};

class SeededContent : public ContentSource {
 public:
  SeededContent(uint64_t size, uint64_t seed) : size_(size), seed_(seed) {}
  uint64_t size() const override { return size_; }
  void read(uint64_t offset, uint64_t length, char* out) const override;
  using ContentSource::read;

 private:
  uint64_t size_;
  uint64_t seed_;
};

class FileContent : public ContentSource {
 public:
  static Result<std::shared_ptr<const FileContent>> open(const std::string& path);
  ~FileContent() override;
  uint64_t size() const override { return size_; }
  void read(uint64_t offset, uint64_t length, char* out) const override;
  using ContentSource::read;

 private:
  FileContent(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_;
  uint64_t size_;
};

class StringContent : public ContentSource {
 public:
  explicit StringContent(std::string bytes) : bytes_(std::move(bytes)) {}
  uint64_t size() const override { return bytes_.size(); }
  void read(uint64_t offset, uint64_t length, char* out) const override;
  using ContentSource::read;

 private:
  std::string bytes_;
};

}  // namespace perflab::share
