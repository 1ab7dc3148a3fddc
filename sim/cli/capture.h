// `perflab capture <study>`: record a program's own workload for a study and write a scenario that replays it
// (docs/your-own-workload.md). A study registers its subcommand with a static CaptureRegistration beside
// its driver (scenarios/<study>/capture_command.cpp), so the command line names no study.
//
// CaptureFolder: files are written into a hidden staging folder inside --out and moved into --out only
// when the whole capture succeeded (commit). A failed capture removes the staging folder, and --out itself
// if the capture created it: nothing is written, and nothing ever outside --out. --out must be new or
// empty (dot-files aside) unless --force: a second capture there would overwrite the first's files, or
// orphan them beside a scenario that no longer names them.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace CLI {
class App;
}

namespace perflab {

// What every capture takes: --out, --name, --force and the command after --.
struct CaptureFlags {
  std::string out;
  std::string name;                  // file names' stem; empty: the command's own name
  bool force = false;                // write into a non-empty --out, replacing files of the same name
  std::vector<std::string> command;  // after --
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

// A study's capture subcommand: its help, and `add_options`, which adds the study's own options to the
// subcommand (bound to values it keeps) and returns what runs the capture once the line is parsed.
struct CaptureCommand {
  std::string study;
  std::string help;
  std::function<std::function<int(const CaptureFlags&)>(CLI::App& subcommand)> add_options;
};
struct CaptureRegistration {
  explicit CaptureRegistration(CaptureCommand command);
};
// Every registered capture, by study name.
const std::vector<CaptureCommand>& capture_commands();

// For a capture stopped by SIGINT or SIGTERM (InterruptGuard::signal_caught()): prints that nothing was
// written, to be returned as the exit status: 130 or 143. Its CaptureFolder removes what it staged.
int capture_interrupted(const std::string& command);

}  // namespace perflab
