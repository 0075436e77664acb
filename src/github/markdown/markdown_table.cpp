#include "github/markdown/markdown_table.h"

namespace lw::github {

std::string tableCell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';  // a line break ends a table row
    else if (c != '\r')
      out += c;
  }
  return out;
}

}  // namespace lw::github
