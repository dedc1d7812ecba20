// HTML escaping: see html_escape.hpp. Five characters, no library needed (fmt and nlohmann-json have none).
#include "roofline/report/html_escape.hpp"

namespace roofline {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// Markdown cells: GitHub renders inline HTML and emphasis, so names from the input are escaped (shared by
// compare's and fleet's Markdown).
std::string markdown_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\n': case '\r': out += ' '; break;
      case '|': case '\\': case '`': case '*': case '_': case '[': case ']': case '#': case '~':
        out += '\\';
        out += ch;
        break;
      default: out += ch;
    }
  }
  return out;
}

}  // namespace roofline
