// The UTF-8 byte-order mark that some editors (Excel's "CSV UTF-8") write before a file's first byte.
// Every CSV reader drops it, so the first column's name reads as the user wrote it.
#pragma once

#include <string>
#include <string_view>

namespace perflab {

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// `text` without a leading byte-order mark.
inline std::string_view without_utf8_bom(std::string_view text) {
  return text.substr(0, kUtf8Bom.size()) == kUtf8Bom ? text.substr(kUtf8Bom.size()) : text;
}

}  // namespace perflab
