// Byte positions as editors count them: lines and columns in UTF-16 code
// units, the default of SARIF (1-based) and of the Language Server Protocol
// (0-based; callers subtract one). Shared so both agree on every character.
#pragma once

#include <string>

namespace warplint {

// The UTF-16 column (1-based) of byte column `byteColumn` (1-based, as Clang
// counts) in `line`.
unsigned utf16Column(const std::string &line, unsigned byteColumn);

// The 1-based line and UTF-16 column of byte `offset` in `text`; false when
// the offset is past the end.
bool utf16Position(const std::string &text, unsigned offset, unsigned &line, unsigned &column);

// The byte offset of 1-based `line` and UTF-16 `column` in `text`, clamped to
// the line's end (and to the text's end for a line past it).
unsigned byteOffsetOf(const std::string &text, unsigned line, unsigned column);

} // namespace warplint
