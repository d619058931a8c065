// svg_stack: see svg_stack.h.
#include "routing/roce/svg_stack.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <string_view>
#include <vector>

namespace smd::roce {
namespace {

/// The numeric value of attribute `name` in the root tag `tag`; false when absent or not a number.
bool attribute(std::string_view tag, std::string_view name, double& value) {
  const std::string key = " " + std::string(name) + "=\"";
  const std::size_t at = tag.find(key);
  if (at == std::string_view::npos) return false;
  const char* first = tag.data() + at + key.size();
  const char* last = tag.data() + tag.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  return ec == std::errc{} && ptr != last && *ptr == '"';
}

struct Piece {
  std::string_view body;  // the chart from its root <svg ...> tag on
  double width = 0;
  double height = 0;
};

}  // namespace

Result<std::string> svg_stack(std::span<const std::string> charts) {
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < charts.size(); ++i) {
    const std::string_view doc = charts[i];
    const std::size_t open = doc.find("<svg ");
    const std::size_t close = open == std::string_view::npos ? open : doc.find('>', open);
    Piece piece;
    if (close == std::string_view::npos || !attribute(doc.substr(open, close - open), "width", piece.width) ||
        !attribute(doc.substr(open, close - open), "height", piece.height)) {
      return make_error(ErrorCode::kInvalidInput,
                        "chart " + std::to_string(i + 1) + ": no root <svg> with numeric width and height");
    }
    piece.body = doc.substr(open);
    pieces.push_back(piece);
  }
  double width = 0, height = 0;
  for (const Piece& p : pieces) {
    width = std::max(width, p.width);
    height += p.height;
  }
  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height << "\">\n";
  double y = 0;
  for (const Piece& p : pieces) {
    // A nested <svg> is a new viewport: x and y place it, its own viewBox scales nothing (same size).
    s << "<svg x=\"0\" y=\"" << y << "\"" << p.body.substr(4);
    y += p.height;
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace smd::roce
