// printable(): text from a file or the command line made safe to put in a message. Control characters
// and bytes that are not valid UTF-8 are written as escapes (\r, \t, \x07, \xff), and long text is cut, so
// a garbage input never sends raw bytes to a terminal or a log.
#pragma once

#include <cstdio>
#include <string>

namespace perflab {

// The length of the valid UTF-8 sequence of two to four bytes starting at text[i], or 0.
inline size_t utf8_sequence(const std::string& text, size_t i) {
  auto byte = static_cast<unsigned char>(text[i]);
  size_t length = byte >= 0xf0 && byte <= 0xf4 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 && byte <= 0xdf ? 2 : 0;
  if (byte >= 0xf5) length = 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return 0;
  }
  return length;
}

// `text` with control characters (newlines too, unless keep_newlines) and invalid UTF-8 escaped, cut after
// max_chars with the full length said.
inline std::string printable(const std::string& text, size_t max_chars = 120, bool keep_newlines = false) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= max_chars) {
      out += "… (" + std::to_string(text.size()) + " bytes)";
      break;
    }
    auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      if (size_t length = utf8_sequence(text, i); length > 0) {
        out.append(text, i, length);
        i += length - 1;
        continue;
      }
    }
    if (byte == '\n' && keep_newlines) {
      out += '\n';
    } else if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte >= 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Whether printable() leaves `text` (a single line) as it is.
inline bool is_printable(const std::string& text) {
  return printable(text, text.size() + 1) == text;
}

}  // namespace perflab
