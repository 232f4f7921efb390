// Whether a managed-memory host touch, as HostFacts records its text, reaches
// one element at a constant place: `m[0]`, `m[3u]`, `*m`. Shared by the facts
// (analyzer/host/HostFacts.cpp) and managed-memory-no-prefetch, which keep a
// contract on the text: the facts append the element's size to such a text
// when the element is larger than a page (`m[0] (a 65536-byte element)`), and
// when one line touches the buffer more than once they keep the text of a
// touch that is not one element (`m[0] + m[i]` is recorded as `m[i]`). So a
// text this accepts moves at most a page or two, whatever the buffer's size.
#pragma once

#include <regex>
#include <string>

namespace warplint::host {

inline bool isOneElementTouchText(const std::string &text) {
  static const std::regex oneElement(
      R"(^\*\s*[A-Za-z_]\w*$|^[A-Za-z_]\w*\s*\[\s*(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\s*\]$)");
  return std::regex_match(text, oneElement);
}

} // namespace warplint::host
