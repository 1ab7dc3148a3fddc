// The real git children the Linux pump runs: a deterministic repository made by scenarios/pipe/make_repo.sh,
// then `git pack-objects --stdout --all` over it, or `git upload-pack` serving a clone of it (fed the v0
// request a client sends: one want with side-band-64k, a flush, "done").
#pragma once

#include <filesystem>
#include <string>

#include "models/common/status.h"
#include "models/pipe/real_pump.h"

namespace perflab::pipe {

// Runs `script DIR SIZE_MIB` (make_repo.sh) and returns the commit id of the repository's HEAD.
Result<std::string> make_repo(const std::filesystem::path& script, const std::filesystem::path& dir,
                              int size_mib);

// The version of git on this machine ("2.39.5"), "?" when `git --version` does not say: a real run's .meta
// records it, since the relay it measures is git's.
std::string git_version();

RealPumpOptions pack_objects_child(const std::filesystem::path& repo);
RealPumpOptions upload_pack_child(const std::filesystem::path& repo, const std::string& head);

}  // namespace perflab::pipe
