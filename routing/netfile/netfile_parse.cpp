#include "routing/netfile/netfile_parse.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "routing/netfile/netfile.h"

namespace smd::netfile {
namespace {

// ibsim nests includes without a limit; a cycle would recurse forever, so stop at a depth no real file needs,
// refuse a file that includes itself (directly or through others), and bound the files read in all: a file
// that includes another one ten times, which includes the next one ten times, ... would otherwise be read
// 10^16 times.
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxIncludedFiles = 4096;

// Reads one line left to right and remembers the column (1-based) for messages.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& file, int line) : text_(text), file_(file), line_(line) {}

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool take(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool take_word(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  Location here() const { return Location{file_, line_, static_cast<int>(pos_) + 1}; }
  std::string_view rest() const { return text_.substr(std::min(pos_, text_.size())); }

  Error fail(const std::string& what) const { return make_error(ErrorCode::kInvalidInput, here().str() + ": " + what); }

  // Decimal unsigned number: every digit is read (leading zeros too, as ibsim's strtoul does); a value above
  // kNumberCap reads as kNumberCap, which no field accepts. number_text() is the digits as written, for
  // error messages.
  static constexpr unsigned long kNumberCap = 0xFFFFFFFFul;
  std::optional<unsigned long> number() {
    std::size_t start = pos_;
    unsigned long v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      v = std::min(kNumberCap, v * 10 + static_cast<unsigned>(text_[pos_] - '0'));
      ++pos_;
    }
    number_text_ = text_.substr(start, pos_ - start);
    if (pos_ == start) return std::nullopt;
    return v;
  }
  std::string number_text() const { return std::string(number_text_); }

  // Hex number with or without "0x"; ibnetdiscover prints port GUIDs in parentheses without it.
  std::optional<std::uint64_t> hex() {
    if (text_.substr(pos_, 2) == "0x" || text_.substr(pos_, 2) == "0X") pos_ += 2;
    std::size_t start = pos_;
    std::uint64_t v = 0;
    while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_])) && pos_ - start < 16) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
      v = v * 16 + static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'a' + 10);
      ++pos_;
    }
    if (pos_ == start) return std::nullopt;
    return v;
  }

  // "text" without escapes (neither ibsim nor ibnetdiscover escapes quotes).
  std::optional<std::string> quoted() {
    if (peek() != '"') return std::nullopt;
    const std::size_t close = text_.find('"', pos_ + 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::string s(text_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
    return s;
  }

  // Whitespace-delimited token.
  std::string_view token() {
    std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return text_.substr(start, pos_ - start);
  }

 private:
  std::string_view text_;
  const std::string& file_;
  int line_;
  std::size_t pos_ = 0;
  std::string_view number_text_;  // the digits of the last number()
};

// "4xQDR" -> LinkRate with one width bit and one speed bit; nullopt if the token is not of that shape.
std::optional<LinkRate> parse_rate_token(std::string_view tok) {
  const std::size_t x = tok.find('x');
  if (x == std::string_view::npos || x == 0) return std::nullopt;
  const std::string_view w = tok.substr(0, x);
  const std::string_view s = tok.substr(x + 1);
  LinkRate r;
  if (w == "1")
    r.width_mask = 1;
  else if (w == "4")
    r.width_mask = 2;
  else if (w == "8")
    r.width_mask = 4;
  else if (w == "12")
    r.width_mask = 8;
  else if (w == "2")
    r.width_mask = 16;
  else
    return std::nullopt;
  if (s == "SDR")
    r.speed_mask = 1;
  else if (s == "DDR")
    r.speed_mask = 2;
  // Extended speeds live in LinkSpeedExtActive, which Port does not carry: keep the best base speed.
  else if (s == "QDR" || s == "FDR10" || s == "FDR" || s == "EDR" || s == "HDR" || s == "NDR")
    r.speed_mask = 4;
  else
    return std::nullopt;
  return r;
}

// Reads "... lid N ... lmc M ..." words of an ibnetdiscover comment up to the first quote.
void scan_lid_lmc(std::string_view text, Lid& lid, std::uint8_t& lmc) {
  const std::size_t quote = text.find('"');
  std::string_view head = text.substr(0, quote);
  auto value_after = [&](std::string_view word) -> std::optional<unsigned long> {
    const std::size_t at = head.find(word);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + word.size();
    unsigned long v = 0;
    bool any = false;
    while (i < head.size() && std::isdigit(static_cast<unsigned char>(head[i])) && v < 0x10000) {
      v = v * 10 + static_cast<unsigned>(head[i++] - '0');
      any = true;
    }
    return any ? std::optional<unsigned long>(v) : std::nullopt;
  };
  if (auto v = value_after("lid "); v && *v <= 0xFFFF) lid = static_cast<Lid>(*v);
  if (auto v = value_after("lmc "); v && *v <= 7) lmc = static_cast<std::uint8_t>(*v);
}

class Parser {
 public:
  Parser(const NetfileIncludeReader& read_include, std::vector<NodeRecord>& out)
      : read_include_(read_include), out_(out) {}

  Status parse_top(std::string_view text, const std::string& name) {
    open_.push_back(name);
    return parse(text, name, 0);
  }

 private:
  // Lines end at '\n' (a last line may lack it); a '\r' before it is dropped (files written on Windows).
  Status parse(std::string_view text, const std::string& name, int depth) {
    int number = 0;
    for (std::size_t pos = 0; pos < text.size();) {
      const std::size_t end = std::min(text.find('\n', pos), text.size());
      std::string_view line = text.substr(pos, end - pos);
      pos = end + 1;
      ++number;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      Cursor c(line, name, number);
      c.skip_space();
      if (c.at_end() || c.peek() == '#') continue;
      Status st = parse_line(c, name, depth);
      if (!st.ok()) return st;
    }
    return Ok{};
  }

  Status parse_line(Cursor& c, const std::string& name, int depth) {
    if (c.peek() == '[') return parse_port_line(c);
    if (c.take_word("switchguid=")) return pending_guid(c, NodeType::kSwitch);
    if (c.take_word("caguid=")) return pending_guid(c, NodeType::kCa);
    if (c.take_word("rtguid=")) return pending_guid(c, NodeType::kRouter);
    // Vendor/device ids and the system image GUID do not shape the graph (ibsim ignores them too).
    // They also mark ibnetdiscover output (ibsim's own netfiles carry none; ibnetdiscover writes them before
    // its first node): the printed port GUIDs of the nodes from there on are their real ones.
    if (c.take_word("vendid=") || c.take_word("devid=") || c.take_word("sysimgguid=")) {
      discovered_ = true;
      return Ok{};
    }
    if (c.take_word("include")) return parse_include(c, name, depth);
    if (c.take_word("do ") || c.take_word("do\t")) return Ok{};  // console command run at start-up
    if (c.take_word("Switch")) return parse_header(c, NodeType::kSwitch);
    if (c.take_word("Hca") || c.take_word("Ca")) return parse_header(c, NodeType::kCa);
    if (c.take_word("Rt")) return parse_header(c, NodeType::kRouter);
    return c.fail("unrecognised line (expected Switch, Hca, Ca, Rt, [port], include, do or a *guid= line)");
  }

  Status pending_guid(Cursor& c, NodeType type) {
    auto g = c.hex();
    if (!g) return c.fail("expected a hex GUID");
    // ibsim reads the number with strtoull and ignores what follows; a digit past the 16th or other text
    // there is a mistake that would otherwise give the next node a GUID nobody wrote.
    if (std::isxdigit(static_cast<unsigned char>(c.peek()))) return c.fail("a GUID has at most 16 hex digits");
    // ibnetdiscover repeats the GUID in parentheses: "switchguid=0x2c9030011a2b0(2c9030011a2b0)".
    if (c.take('(') && (!c.hex() || !c.take(')'))) return c.fail("expected (GUID)");
    c.skip_space();
    if (!c.at_end() && c.peek() != '#') return c.fail("unexpected text after the GUID");
    guids_.restart_at(type, *g);
    return Ok{};
  }

  Status parse_include(Cursor& c, const std::string& name, int depth) {
    c.skip_space();
    const Location at = c.here();
    auto file = c.quoted();
    if (!file) return c.fail("expected include \"file\"");
    if (depth >= kMaxIncludeDepth) return c.fail("includes nested deeper than 16 (a cycle?)");
    if (++included_ > kMaxIncludedFiles) {
      return make_error(ErrorCode::kInvalidInput, at.str() + ": more than 4096 included files in all");
    }
    std::string path = *file;
    if (!path.empty() && path[0] != '/') {
      const std::size_t slash = name.rfind('/');
      if (slash != std::string::npos) path = name.substr(0, slash + 1) + path;
    }
    for (const std::string& open : open_) {
      if (open == path) {
        return make_error(ErrorCode::kInvalidInput, at.str() + ": include cycle: " + path + " is already being read");
      }
    }
    if (!read_include_) {
      return make_error(
          ErrorCode::kInvalidInput,
          at.str() + ": include \"" + path + "\": this text was given without a way to read the files it includes");
    }
    auto text = read_include_(path);
    if (!text) return text.error().with_context(at.str() + ": include");
    open_.push_back(path);
    Status st = parse(*text, path, depth + 1);
    open_.pop_back();
    return st;
  }

  Status parse_header(Cursor& c, NodeType type) {
    NodeRecord rec;
    rec.type = type;
    rec.discovered = discovered_;
    c.skip_space();
    const Location ports_at = c.here();
    auto ports = c.number();
    if (!ports) return c.fail("expected the number of ports");
    if (*ports < 1 || *ports > 254) {
      return make_error(ErrorCode::kInvalidInput,
                        ports_at.str() + ": port count " + c.number_text() + " outside 1..254");
    }
    rec.num_ports = static_cast<unsigned>(*ports);
    c.skip_space();
    rec.at = c.here();
    auto id = c.quoted();
    if (!id || id->empty()) return c.fail("expected a quoted, non-empty node id");
    rec.id = *id;
    rec.description = *id;
    c.skip_space();
    if (c.take('#')) {
      c.skip_space();
      if (auto desc = c.quoted()) rec.description = *desc;
      // ibnetdiscover: "enhanced port 0 lid 3 lmc 0" / "base port 0 lid 3 lmc 0" on switches.
      scan_lid_lmc(c.rest(), rec.port0_lid, rec.port0_lmc);
    } else if (!c.at_end()) {
      return c.fail("unexpected text after the node id");
    }
    Node scratch;
    scratch.type = type;
    scratch.num_ports = static_cast<PortNum>(rec.num_ports);
    scratch.ports.resize(rec.num_ports + 1);
    guids_.assign(scratch);
    rec.guid = scratch.guid;
    out_.push_back(std::move(rec));
    return Ok{};
  }

  Status parse_port_line(Cursor& c) {
    if (out_.empty()) return c.fail("port line before any node header");
    PortLine pl;
    pl.at = c.here();
    c.take('[');
    auto port = c.number();
    if (!port || !c.take(']')) return c.fail("expected [port]");
    // Ports are checked against the node's port count later; only a number too long for that is refused here.
    if (*port >= Cursor::kNumberCap) {
      return make_error(ErrorCode::kInvalidInput, pl.at.str() + ": port " + c.number_text() + " outside 1..254");
    }
    pl.port = static_cast<unsigned>(*port);
    if (c.take('(')) {
      const auto guid = c.hex();
      if (!guid || !c.take(')')) return c.fail("expected (port GUID)");
      pl.port_guid = *guid;
    }
    c.skip_space();
    pl.peer_at = c.here();
    auto peer = c.quoted();
    if (!peer) return c.fail("expected the quoted id of the peer node");
    pl.peer_id = *peer;
    pl.peer_port_at = c.here();
    if (!c.take('[')) return c.fail("expected [peer port]");
    auto peer_port = c.number();
    if (!peer_port || !c.take(']')) return c.fail("expected [peer port]");
    if (*peer_port >= Cursor::kNumberCap) {
      return make_error(ErrorCode::kInvalidInput,
                        pl.peer_port_at.str() + ": port " + c.number_text() + " outside 1..254");
    }
    pl.peer_port = static_cast<unsigned>(*peer_port);
    if (c.take('(') && (!c.hex() || !c.take(')'))) return c.fail("expected (peer port GUID)");
    Status tail = parse_port_tail(c, pl);
    if (!tail.ok()) return tail;
    out_.back().lines.push_back(std::move(pl));
    return Ok{};
  }

  // Either `w=<mask> s=<mask>` (ibsim) or `# [lid N lmc M] "desc" lid N 4xQDR` (ibnetdiscover).
  Status parse_port_tail(Cursor& c, PortLine& pl) {
    for (;;) {
      c.skip_space();
      if (c.at_end()) return Ok{};
      if (c.take('#')) break;
      const bool width = c.take_word("w=");
      if (!width && !c.take_word("s=")) return c.fail("unexpected text after the peer port (expected w=, s= or #)");
      auto mask = c.number();
      if (!mask || *mask == 0 || *mask > 0x1F) return c.fail("expected a link width/speed bit mask 1..31");
      (width ? pl.rate.width_mask : pl.rate.speed_mask) = static_cast<unsigned>(*mask);
    }
    scan_lid_lmc(c.rest(), pl.own_lid, pl.own_lmc);
    c.skip_space();
    if (c.peek() != '"') {
      // CA lines start with the local "lid N lmc M" before the peer's quoted description.
      while (!c.at_end() && c.peek() != '"') c.token(), c.skip_space();
    } else {
      pl.own_lid = 0;  // a switch line: the lid after the description is the peer's
      pl.own_lmc = 0;
    }
    c.quoted();
    while (!c.at_end()) {
      c.skip_space();
      const Location at = c.here();
      const std::string_view tok = c.token();
      if (tok.empty() || tok.find('x') == std::string_view::npos || !std::isdigit(static_cast<unsigned char>(tok[0]))) {
        continue;
      }
      auto rate = parse_rate_token(tok);
      if (!rate) {
        return make_error(ErrorCode::kInvalidInput,
                          at.str() + ": unknown link width/speed \"" + std::string(tok) + "\"");
      }
      pl.rate = *rate;
    }
    return Ok{};
  }

  const NetfileIncludeReader& read_include_;
  std::vector<NodeRecord>& out_;
  IbsimGuidCounter guids_;
  bool discovered_ = false;        // a vendid=/devid=/sysimgguid= line came: ibnetdiscover output
  std::vector<std::string> open_;  // files being read, outermost first (cycle check)
  int included_ = 0;
};

}  // namespace

Status parse_records(std::string_view text, const std::string& name, const NetfileIncludeReader& read_include,
                     std::vector<NodeRecord>& out) {
  Parser parser(read_include, out);
  return parser.parse_top(text, name);
}

}  // namespace smd::netfile
