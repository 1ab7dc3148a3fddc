// The TOML text of a list of names, for knob meanings; see knobs.h.
#include "sim/study/knobs.h"

namespace perflab {

std::string toml_string_list(const std::vector<std::string>& items) {
  std::string text = "[";
  for (const auto& item : items) text += (text.size() > 1 ? ", \"" : "\"") + item + "\"";
  return text + "]";
}

}  // namespace perflab
