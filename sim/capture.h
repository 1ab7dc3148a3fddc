// What the `perflab capture` commands share (scenarios/prefetch/capture_command.cpp,
// scenarios/pipe/capture_command.cpp): an output folder that only ever receives a finished capture, and a
// child process run to its end.
//
// CaptureFolder: files are written into a hidden staging folder inside --out and moved into --out only
// when the whole capture succeeded (commit). A failed capture removes the staging folder, and --out itself
// if the capture created it: nothing is written, and nothing ever outside --out. --out must be new or
// empty (dot-files aside) unless --force: a second capture there would overwrite the first's files, or
// orphan them beside a scenario that no longer names them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

struct CaptureFlags {
  std::string out;
  std::string name;                  // file names' stem; empty: the command's own name
  bool force = false;                // write into a non-empty --out, replacing files of the same name
  std::vector<std::string> command;  // after --
  // pipe only
  std::vector<std::string> pipe_sizes;  // asked with F_SETPIPE_SZ, e.g. 64KiB; empty: 64KiB
  int runs = 1;
  std::string gap = "0s";
  std::string stdin_file;
};

class CaptureFolder {
 public:
  // Checks --out and --name (a plain file name: letters, digits, '.', '_', '+', '-'; not a path).
  static Result<CaptureFolder> Create(const CaptureFlags& flags);
  CaptureFolder(CaptureFolder&& other) noexcept;
  CaptureFolder& operator=(CaptureFolder&&) = delete;
  CaptureFolder(const CaptureFolder&) = delete;
  ~CaptureFolder();

  const std::filesystem::path& out() const { return out_; }
  // Where `file` is written until commit().
  std::filesystem::path staged(const std::string& file) const { return staging_ / file; }
  // Moves the staged files into --out (replacing files of the same name); returns their final paths.
  Result<std::vector<std::filesystem::path>> commit();

 private:
  CaptureFolder(std::filesystem::path out, std::filesystem::path staging, bool created_out)
      : out_(std::move(out)), staging_(std::move(staging)), created_out_(created_out) {}
  std::filesystem::path out_;
  std::filesystem::path staging_;  // empty once moved from or committed
  bool created_out_;
};

struct ChildExit {
  bool exited = false;  // else killed by `signal`
  int status = -1;
  int signal = 0;
  int interrupted = 0;  // SIGINT or SIGTERM came while it ran: it was stopped (run_child)
  bool ok() const { return exited && status == 0 && interrupted == 0; }
  std::string describe() const;  // "exited with status 3", "was killed by signal 9"
};

// Runs argv (argv[0] looked up in PATH) with stdout and stderr sent to the given files (empty: inherited),
// and waits for it. An error if it cannot be started. While an InterruptGuard lives, SIGINT or SIGTERM
// sent to perflab alone stops the child too: it is sent the same signal, then SIGKILL if it has not ended
// within 2 s, and the exit says `interrupted`.
Result<ChildExit> run_child(const std::vector<std::string>& argv, const std::string& stdout_file,
                            const std::string& stderr_file);

// For a capture stopped by SIGINT or SIGTERM (InterruptGuard::signal_caught()): prints that nothing was
// written, to be returned as the exit status: 130 or 143. Its CaptureFolder removes what it staged.
int capture_interrupted(const std::string& command);

// argv as a shell would take it back: words with anything but [A-Za-z0-9_./:=@%+-] in single quotes.
std::string shell_words(const std::vector<std::string>& argv);

// `text` on one line, each line break written \n: a command line in a file's comment.
std::string on_one_line(const std::string& text);

// The last `count` lines of a file, each prefixed with "  | ", for an error message.
std::string last_lines(const std::filesystem::path& file, int count);

}  // namespace perflab
