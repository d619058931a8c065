#include "routing/engines/torus_2qos/torus_conf.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace smd {
namespace {

/// One whitespace-separated token and the 1-based column it starts at.
struct Token {
  std::string_view text;
  std::size_t column;
};

/// The tokens of one line, a '#' and what follows it left out.
std::vector<Token> tokens_of(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size() || line[i] == '#') break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    out.push_back({line.substr(start, i - start), start + 1});
  }
  return out;
}

class ConfParser {
 public:
  explicit ConfParser(std::string_view name) : name_(name) {}

  Error error(std::size_t line, std::size_t column, const std::string& message) const {
    return make_error(ErrorCode::kInvalidInput,
                      std::string(name_) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message);
  }

  Result<TorusGeometry> parse(std::string_view text) {
    TorusGeometry g;
    bool have_shape = false;
    std::size_t line_no = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      ++line_no;
      const std::vector<Token> tok = tokens_of(text.substr(start, end - start));
      start = end + 1;
      if (tok.empty()) continue;
      const std::string_view key = tok[0].text;
      if (key == "torus" || key == "mesh") {
        if (tok.size() < 4) return error(line_no, tok[0].column, std::string(key) + " needs three radixes (x y z)");
        for (unsigned d = 0; d < kTorusDims; ++d) {
          std::string_view r = tok[d + 1].text;
          bool ring = key == "torus";
          if (!r.empty() && (r.back() == 't' || r.back() == 'T')) {
            ring = true;
            r.remove_suffix(1);
          } else if (!r.empty() && (r.back() == 'm' || r.back() == 'M')) {
            ring = false;
            r.remove_suffix(1);
          }
          unsigned v = 0;
          const auto [p, ec] = std::from_chars(r.data(), r.data() + r.size(), v);
          if (ec != std::errc{} || p != r.data() + r.size() || v == 0 || v > 255) {
            return error(line_no, tok[d + 1].column,
                         "radix '" + std::string(tok[d + 1].text) + "' is not 1..255 with an optional m/M/t/T");
          }
          g.radix[d] = v;
          g.ring[d] = ring;
        }
        have_shape = true;
        continue;
      }
      if (!have_shape) return error(line_no, tok[0].column, "the first keyword must be torus or mesh");
      if (g.seeds.empty()) g.seeds.emplace_back();
      if (key == "next_seed") {
        g.seeds.emplace_back();
        continue;
      }
      if (key.size() == 7 && key.substr(2) == "_link" && (key[0] >= 'x' && key[0] <= 'z') &&
          (key[1] == 'p' || key[1] == 'm')) {
        if (tok.size() < 3) return error(line_no, tok[0].column, std::string(key) + " needs two switch GUIDs");
        Guid from = 0;
        Guid to = 0;
        if (auto st = guid(tok[1], line_no, from); !st) return st.error();
        if (auto st = guid(tok[2], line_no, to); !st) return st.error();
        TorusSeed& seed = g.seeds.back();
        if (seed.origin != 0 && seed.origin != from) {
          return error(line_no, tok[1].column, "every link of a seed must start at the same switch (this seed's is " +
                                                   guid_text(seed.origin) + ")");
        }
        seed.origin = from;
        seed.neighbour[2 * static_cast<unsigned>(key[0] - 'x') + (key[1] == 'p' ? 1 : 0)] = to;
        continue;
      }
      if (key == "x_dateline" || key == "y_dateline" || key == "z_dateline") {
        if (tok.size() < 2) return error(line_no, tok[0].column, std::string(key) + " needs a position");
        int v = 0;
        const std::string_view t = tok[1].text;
        const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc{} || p != t.data() + t.size() || v < -255 || v > 255) {
          return error(line_no, tok[1].column, "dateline position '" + std::string(t) + "' is not an integer -255..255");
        }
        g.seeds.back().dateline[static_cast<unsigned>(key[0] - 'x')] = v;
        continue;
      }
      if (key == "port_order") {
        for (std::size_t i = 1; i < tok.size(); ++i) {
          unsigned v = 0;
          if (!number(tok[i], 1, 254, v)) return error(line_no, tok[i].column, "port '" + std::string(tok[i].text) + "' is not 1..254");
          const auto port = static_cast<PortNum>(v);
          if (std::find(g.port_order.begin(), g.port_order.end(), port) == g.port_order.end()) g.port_order.push_back(port);
        }
        continue;
      }
      if (key == "portgroup_max_ports" || key == "max_changes") {
        unsigned v = 0;
        if (tok.size() < 2 || !number(tok[1], 1, std::numeric_limits<int>::max(), v)) {
          return error(line_no, tok.size() < 2 ? tok[0].column : tok[1].column, std::string(key) + " needs a positive count");
        }
        continue;
      }
      return error(line_no, tok[0].column, "unknown keyword '" + std::string(key) + "'");
    }
    if (!have_shape) return error(1, 1, "no torus or mesh line");
    // A trailing next_seed leaves an empty seed: dropped, as it names nothing.
    while (!g.seeds.empty() && g.seeds.back().origin == 0) g.seeds.pop_back();
    return g;
  }

 private:
  static std::string guid_text(Guid g) {
    char buf[19];
    const auto [p, ec] = std::to_chars(buf + 2, buf + sizeof buf, g, 16);
    buf[0] = '0';
    buf[1] = 'x';
    return std::string(buf, p);
  }

  static bool number(const Token& t, unsigned lo, unsigned hi, unsigned& out) {
    unsigned v = 0;
    const auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc{} || p != t.text.data() + t.text.size() || v < lo || v > hi) return false;
    out = v;
    return true;
  }

  Status guid(const Token& t, std::size_t line, Guid& out) const {
    std::string_view s = t.text;
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      s.remove_prefix(2);
      base = 16;
    }
    Guid v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || v == 0) {
      return error(line, t.column, "'" + std::string(t.text) + "' is not a non-zero switch GUID");
    }
    out = v;
    return Ok{};
  }

  std::string_view name_;
};

}  // namespace

Result<TorusGeometry> parse_torus_conf(std::string_view text, std::string_view name) {
  return ConfParser(name).parse(text);
}

}  // namespace smd
