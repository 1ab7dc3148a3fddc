// A child process run to its end, as `perflab history` and the captures run git and the captured program:
// its exit, SIGINT and SIGTERM passed on to it, and the words of its command line for messages and files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

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

// argv as a shell would take it back: words with anything but [A-Za-z0-9_./:=@%+-] in single quotes.
std::string shell_words(const std::vector<std::string>& argv);

// `text` on one line, each line break written \n: a command line in a file's comment.
std::string on_one_line(const std::string& text);

// The last `count` lines of a file, each prefixed with "  | ", for an error message.
std::string last_lines(const std::filesystem::path& file, int count);

}  // namespace perflab
