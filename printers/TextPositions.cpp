#include "printers/TextPositions.h"

namespace warplint {

namespace {

// UTF-16 code units a UTF-8 sequence starting with byte `c` takes; 0 for a
// continuation byte. Four-byte sequences need a surrogate pair.
unsigned utf16Units(unsigned char c) {
  if ((c & 0xC0) == 0x80)
    return 0;
  return c >= 0xF0 ? 2 : 1;
}

} // namespace

unsigned utf16Column(const std::string &line, unsigned byteColumn) {
  unsigned column = 1;
  for (unsigned i = 0; i + 1 < byteColumn && i < line.size(); ++i)
    column += utf16Units(static_cast<unsigned char>(line[i]));
  return column;
}

bool utf16Position(const std::string &text, unsigned offset, unsigned &line, unsigned &column) {
  if (offset > text.size())
    return false;
  line = 1;
  column = 1;
  for (unsigned i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else {
      column += utf16Units(c);
    }
  }
  return true;
}

unsigned byteOffsetOf(const std::string &text, unsigned line, unsigned column) {
  unsigned i = 0;
  for (unsigned l = 1; l < line && i < text.size(); ++i)
    if (text[i] == '\n')
      ++l;
  for (unsigned c = 1; i < text.size() && text[i] != '\n';) {
    unsigned units = utf16Units(static_cast<unsigned char>(text[i]));
    if (units && c + units > column)
      break;
    c += units;
    ++i;
  }
  return i;
}

} // namespace warplint
