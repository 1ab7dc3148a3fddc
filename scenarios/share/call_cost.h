// What one Foolscap remote call costs the share study's download: counted Banana tokens.
//
// The rule (NOTES.md, "Remote calls"): one op per Banana token of the call and of its answer, on each side
// (the client serializes the call and parses the answer, the server parses the call and serializes the
// answer; banana.py sendToken/handleData handle one token at a time, each with its own transport.write
// calls). The tokens, from foolscap 0.6.1 call.py (CallSlicer :129-144, ArgumentSlicer :104-121,
// AnswerSlicer :570-581):
//   read(start, length): OPEN "call" reqID clid "read" OPEN "arguments" 2 start length CLOSE CLOSE = 12;
//                        answer OPEN "answer" reqID data CLOSE = 5
//   readv([(s, l)] x m): OPEN "call" reqID clid "readv" OPEN "arguments" 1 OPEN "list"
//                        m x (OPEN "tuple" s l CLOSE) CLOSE CLOSE CLOSE = 14 + 5m;
//                        answer OPEN "answer" reqID OPEN "list" m x data CLOSE CLOSE = 7 + m
// A call's bytes on the wire are not here: they are the encoded messages' (protocol.h), on both engines.
#pragma once

#include <cstddef>

namespace perflab::share_study {

constexpr double kReadTokens = 12 + 5;  // one plain read(): the unit `call_cost` is given in

inline double call_tokens(bool readv, size_t spans) {
  return readv ? 14.0 + 5.0 * static_cast<double>(spans) : 12.0;
}
inline double answer_tokens(bool readv, size_t spans) {
  return readv ? 7.0 + static_cast<double>(spans) : 5.0;
}

}  // namespace perflab::share_study
