// See check_record.h.
#include "sim/gate/check_record.h"

#include <fstream>
#include <string>

#include "sim/gate/provenance.h"

namespace perflab {
namespace fs = std::filesystem;

Status write_check_record(const fs::path& results, int exit_status, bool quick, bool full) {
  const Provenance& build = current_provenance();
  std::string scope = quick ? "quick" : full ? "full" : "headline";
  const char* result = exit_status == 0 ? "passed" : exit_status == 1 ? "failed" : "not run to the end";
  fs::path file = results / "check.txt";
  {
    std::ofstream out(file);
    out << "result = " << result << "\nexit = " << exit_status << "\nscope = " << scope << ", every study\n";
    for (const auto& [key, value] : build.fields()) {
      if (key == "commit" || key == "dirty" || key == "date" || key == "host")
        out << key << " = " << value << "\n";
    }
    if (!out) return Status::Error(file.string() + ": cannot write");
  }
  return Status::OK();
}

}  // namespace perflab
