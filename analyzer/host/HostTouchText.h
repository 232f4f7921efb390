// Whether a managed-memory host touch, as HostFacts records its text, reaches
// one element at a constant place: `m[0]`, `m[3u]`, `*m`. Shared by the facts
// (analyzer/host/HostFacts.cpp) and managed-memory-no-prefetch, which keep a
// contract on the text: the facts append the element's size to such a text
// when the element is larger than a page (`m[0] (a 65536-byte element)`), and
// when one line touches the buffer more than once they keep the text of a
// touch that is not one element (`m[0] + m[i]` is recorded as `m[i]`). So a
// text this accepts moves at most a page or two, whatever the buffer's size.
#pragma once

#include <cstdint>
#include <regex>
#include <string>

namespace warplint::host {

inline bool isOneElementTouchText(const std::string &text) {
  static const std::regex oneElement(
      R"(^\*\s*[A-Za-z_]\w*$|^[A-Za-z_]\w*\s*\[\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\]$)");
  return std::regex_match(text, oneElement);
}

// The text the facts give a touch indexed by the counter of a loop with
// constant bounds whose elements fit in a page (`for (int i = 0; i < 4; ++i)
// printf("%f", m[i]);`): `m[i] (a constant loop: 4 elements, 16 bytes)`.
// The facts write it only for at most kPageBytes (4096) bytes, so a text of
// this form moves at most a page or two, as a one-element touch does.
inline std::string smallLoopTouchText(const std::string &touch, int64_t elements, int64_t bytes) {
  return touch + " (a constant loop: " + std::to_string(elements) + " element" + (elements == 1 ? "" : "s") + ", " +
         std::to_string(bytes) + " bytes)";
}

inline bool isSmallLoopTouchText(const std::string &text) {
  static const std::regex smallLoop(R"(^[A-Za-z_]\w*\s*\[\s*[A-Za-z_]\w*\s*\] \(a constant loop: [0-9]+ elements?, [0-9]+ bytes\)$)");
  return std::regex_match(text, smallLoop);
}

// A touch that moves at most a page or two: one element at a constant place,
// or a constant loop's few elements.
inline bool isOnePageTouchText(const std::string &text) {
  return isOneElementTouchText(text) || isSmallLoopTouchText(text);
}

} // namespace warplint::host
