#include "config/partitions_conf.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "config/mgid_text.h"
#include "config/partitions_section.h"
#include "config/yaml_fields.h"
#include "routing/base/hex_text.h"
#include "routing/base/result_context.h"

namespace smd {

namespace {

struct Pos {
  int line = 1;
  int column = 1;
};

/// One item between delimiters: its text (trimmed) and where it starts.
struct Item {
  std::string key;    ///< before '=' (the whole item when it has none), trimmed
  std::string value;  ///< after '=', trimmed
  bool has_value = false;
  Pos at;
  Pos value_at;
};

/// A failed conversion: where and why (the caller prefixes the source name).
struct Failure {
  Pos at;
  std::string message;
};

/// One statement as written, before statements with one P_Key are merged.
struct Statement {
  std::string name;
  std::optional<PKeyBase> pkey;
  Pos at;
  bool index0 = false;
  bool ipoib = false;
  std::optional<IpoibSpec> ipoib_flags;  ///< set when any broadcast-group flag is written
  Pos ipoib_flags_at;
  Membership defmember = Membership::kLimited;
  std::vector<PartitionMember> members;    ///< membership nullopt = this statement's defmember at that point
  std::vector<Membership> member_default;  ///< the defmember in force for each member
  std::vector<McastGroupSpec> groups;
};

bool same_word(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

/// Whether `text` is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF): a
/// name the YAML writer can carry unchanged.
bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      extra = 1, cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2, cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= text.size()) return false;  // the sequence is cut short by the end
    for (std::size_t k = 1; k <= extra; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      cp = cp << 6 | (next & 0x3f);
    }
    const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
    if (cp < least[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += extra + 1;
  }
  return true;
}

bool conf_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Numbers as OpenSM reads them (strtoul base 0), except that a leading 0 (octal there) is refused: a
// decimal GUID or key written with a leading zero would otherwise change value on the way over.
Result<std::uint64_t> number(const std::string& text, std::uint64_t max) {
  if (text.size() > 1 && text[0] == '0' && std::isdigit(static_cast<unsigned char>(text[1]))) {
    return make_error(ErrorCode::kInvalidInput,
                      "'" + text + "' has a leading zero (OpenSM reads it as octal); write it in decimal or 0x hex");
  }
  Result<std::uint64_t> value = parse_unsigned(text);
  if (!value.ok()) return value;
  if (*value > max) {
    return make_error(ErrorCode::kInvalidInput, text + " is above the largest value, " + std::to_string(max));
  }
  return value;
}

/// The parse of one file: the text with comments blanked, a cursor, and what was found so far.
class Parser {
 public:
  Parser(std::string_view text, const std::string& source) : text_(text), source_(source) {
    // '#' to the end of the line is a comment; blanked in place so positions stay those of the file.
    bool comment = false;
    for (char& c : text_) {
      if (c == '\n')
        comment = false;
      else if (c == '#')
        comment = true;
      if (comment) c = ' ';
    }
  }

  std::optional<Failure> run(std::vector<Statement>& out) {
    while (true) {
      while (i_ < text_.size() && (conf_blank(text_[i_]) || text_[i_] == '\n')) advance();
      if (i_ >= text_.size()) return std::nullopt;
      Statement statement;
      statement.at = pos_;
      if (auto failure = definition(statement)) return failure;
      if (auto failure = properties(statement)) return failure;
      out.push_back(std::move(statement));
    }
  }

  std::vector<std::string> warnings;

  void warn(Pos at, const std::string& message) { warnings.push_back(located(at, message)); }
  std::string where(Pos at) const { return source_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column); }
  std::string located(Pos at, const std::string& message) const { return where(at) + ": " + message; }

 private:
  void advance() {
    if (text_[i_] == '\n') {
      ++pos_.line;
      pos_.column = 1;
    } else {
      ++pos_.column;
    }
    ++i_;
  }

  // Read one item up to (not including) any of `stops`; key and value split at the first '='. An mgid=
  // value runs to a ',', blank, newline or ';' instead: a GID holds ':'.
  Item item(std::string_view stops) {
    Item it;
    it.at = pos_;
    std::string* field = &it.key;
    while (i_ < text_.size() && stops.find(text_[i_]) == std::string_view::npos) {
      if (text_[i_] == '=' && !it.has_value) {
        it.has_value = true;
        field = &it.value;
        advance();
        while (i_ < text_.size() && conf_blank(text_[i_])) advance();
        it.value_at = pos_;
        if (same_word(trim(it.key), "mgid")) {
          while (i_ < text_.size() && std::string_view(",;\n \t\r").find(text_[i_]) == std::string_view::npos) {
            it.value += text_[i_];
            advance();
          }
          break;
        }
        continue;
      }
      *field += text_[i_];
      advance();
    }
    it.key = trim(it.key);
    it.value = trim(it.value);
    return it;
  }

  static std::string trim(const std::string& s) {
    std::size_t b = 0;
    std::size_t e = s.size();
    while (b < e && (conf_blank(s[b]) || s[b] == '\n')) ++b;
    while (e > b && (conf_blank(s[e - 1]) || s[e - 1] == '\n')) --e;
    return s.substr(b, e - b);
  }

  std::optional<Failure> definition(Statement& s) {
    bool first = true;
    while (true) {
      while (i_ < text_.size() && (conf_blank(text_[i_]) || text_[i_] == '\n')) advance();
      Item it = item(",:;");
      if (first) {
        if (!valid_utf8(it.key)) return Failure{it.at, "the partition name is not valid UTF-8"};
        if (!partition_name_printable(it.key)) return Failure{it.at, "the partition name holds a control character"};
        s.name = it.key;
        if (it.has_value) {
          if (it.value.empty()) return Failure{it.value_at, "'=' with no P_Key after it"};
          Result<std::uint64_t> pkey = number(it.value, 0xffff);
          if (!pkey.ok()) return Failure{it.value_at, "P_Key " + pkey.error().message};
          if (*pkey & kPKeyFullBit) {
            warn(it.value_at, "P_Key " + it.value + ": bit 15 is not part of a P_Key (membership sets it); using " +
                                  hex_text(*pkey & 0x7fff, 4));
          }
          if ((*pkey & 0x7fff) == 0) return Failure{it.value_at, "P_Key " + it.value + ": 0 is not a valid P_Key"};
          s.pkey = static_cast<PKeyBase>(*pkey & 0x7fff);
        }
        first = false;
      } else if (auto failure = definition_flag(s, it)) {
        return failure;
      }
      if (i_ >= text_.size()) return Failure{s.at, "partition '" + s.name + "' has no ':' and no ';' after it"};
      const char c = text_[i_];
      advance();
      if (c == ':') return std::nullopt;
      if (c == ';') return Failure{s.at, "partition '" + s.name + "' has no ':' before its ';'"};
    }
  }

  std::optional<Failure> definition_flag(Statement& s, const Item& it) {
    if (it.key.empty()) return Failure{it.at, "empty flag (two commas in a row?)"};
    if (same_word(it.key, "indx0") && !it.has_value) {
      s.index0 = true;
      return std::nullopt;
    }
    if (same_word(it.key, "ipoib") && !it.has_value) {
      s.ipoib = true;
      return std::nullopt;
    }
    if (same_word(it.key, "defmember")) return defmember(s, it);
    if (!s.ipoib_flags) {
      s.ipoib_flags = IpoibSpec{};
      s.ipoib_flags->scopes.clear();
      s.ipoib_flags_at = it.at;
    }
    IpoibSpec& b = *s.ipoib_flags;
    std::uint8_t scope = 0;
    McastGroupSpec g;
    if (auto failure = group_flag(it, g, scope, /*for_ipoib=*/true)) return failure;
    if (same_word(it.key, "scope")) {
      if (std::find(b.scopes.begin(), b.scopes.end(), scope) == b.scopes.end()) b.scopes.push_back(scope);
    } else if (same_word(it.key, "rate")) {
      b.rate = g.rate;
    } else if (same_word(it.key, "mtu")) {
      b.mtu = g.mtu;
    } else if (same_word(it.key, "sl")) {
      b.sl = g.sl;
    } else if (same_word(it.key, "Q_Key")) {
      b.q_key = g.q_key;
    } else if (same_word(it.key, "TClass")) {
      b.tclass = g.tclass;
    } else {
      b.flow_label = g.flow_label;
    }
    return std::nullopt;
  }

  static std::optional<Failure> defmember(Statement& s, const Item& it) {
    for (auto [word, m] : {std::pair{"full", Membership::kFull}, std::pair{"limited", Membership::kLimited},
                           std::pair{"both", Membership::kBoth}}) {
      if (same_word(it.value, word)) {
        s.defmember = m;
        return std::nullopt;
      }
    }
    return Failure{it.value_at, "defmember='" + it.value + "': expected full, limited or both"};
  }

  static bool is_group_flag(const std::string& key) {
    for (const char* flag : {"rate", "mtu", "sl", "scope", "Q_Key", "TClass", "FlowLabel"}) {
      if (same_word(key, flag)) return true;
    }
    return false;
  }

  // One group flag into `g` (or `scope`); unknown flags are an error naming the known ones.
  static std::optional<Failure> group_flag(const Item& it, McastGroupSpec& g, std::uint8_t& scope, bool for_ipoib) {
    if (!is_group_flag(it.key)) {
      return Failure{it.at, "unknown flag '" + it.key + "'; expected " +
                                (for_ipoib ? std::string("indx0, ipoib, defmember=, ") : std::string()) +
                                "rate=, mtu=, sl=, scope=, Q_Key=, TClass=, FlowLabel="};
    }
    if (!it.has_value || it.value.empty()) return Failure{it.at, it.key + " needs a value (" + it.key + "=N)"};
    struct Range {
      const char* name;
      std::uint64_t lo, hi;
    };
    const Range ranges[] = {{"rate", 2, 24},
                            {"mtu", 1, 5},
                            {"sl", 0, 15},
                            {"scope", 1, 15},
                            {"Q_Key", 0, 0xffffffffULL},
                            {"TClass", 0, 255},
                            {"FlowLabel", 0, 0xfffff}};
    for (const Range& r : ranges) {
      if (!same_word(it.key, r.name)) continue;
      Result<std::uint64_t> v = number(it.value, 0xffffffffULL);
      if (!v.ok()) return Failure{it.value_at, it.key + ": " + v.error().message};
      if (*v < r.lo || *v > r.hi) {
        return Failure{it.value_at, it.key + "=" + it.value + " is out of range " + std::to_string(r.lo) + ".." +
                                        std::to_string(r.hi)};
      }
      const std::string name = r.name;
      if (name == "rate") g.rate = static_cast<std::uint8_t>(*v);
      if (name == "mtu") g.mtu = static_cast<std::uint8_t>(*v);
      if (name == "sl") g.sl = static_cast<std::uint8_t>(*v);
      if (name == "scope") scope = static_cast<std::uint8_t>(*v);
      if (name == "Q_Key") g.q_key = static_cast<std::uint32_t>(*v);
      if (name == "TClass") g.tclass = static_cast<std::uint8_t>(*v);
      if (name == "FlowLabel") g.flow_label = static_cast<std::uint32_t>(*v);
    }
    return std::nullopt;
  }

  /// A group being read: its spec, whether a Q_Key was written, and its scope= flags.
  struct OpenGroup {
    McastGroupSpec group;
    bool q_key_given = false;
    std::vector<std::uint8_t> scopes;
  };

  // The group's line ended: one group per scope= (each with the MGID's scope nibble replaced), or the
  // group as written when it names no scope.
  void close_group(Statement& s, std::optional<OpenGroup>& open) {
    if (!open) return;
    if (!open->q_key_given) open->group.q_key = default_group_q_key(open->group.mgid);
    if (open->scopes.empty()) open->scopes.push_back(open->group.mgid[1] & 0x0f);
    for (std::uint8_t scope : open->scopes) {
      McastGroupSpec g = open->group;
      g.mgid[1] = static_cast<std::uint8_t>((g.mgid[1] & 0xf0) | scope);
      s.groups.push_back(g);
    }
    open.reset();
  }

  std::optional<Failure> properties(Statement& s) {
    std::optional<OpenGroup> open;
    while (true) {
      while (i_ < text_.size() && conf_blank(text_[i_])) advance();
      if (i_ >= text_.size()) return Failure{s.at, "partition '" + s.name + "' is not ended by ';'"};
      const char c = text_[i_];
      if (c == '\n' || c == ':' || c == ';' || c == ',') {
        advance();
        if (c != ',') close_group(s, open);
        if (c == ';') return std::nullopt;
        continue;
      }
      Item it = item(",:;\n");
      if (it.key.empty()) return Failure{it.at, "'=' with nothing before it"};
      if (same_word(it.key, "mgid")) {
        close_group(s, open);
        Result<Mgid> mgid = parse_mgid(it.value);
        if (!mgid.ok()) return Failure{it.value_at, "mgid: " + mgid.error().message};
        open = OpenGroup{};
        open->group.mgid = *mgid;
        open->group.where = where(it.at);
        continue;
      }
      if (is_group_flag(it.key)) {
        if (!open) {
          return Failure{it.at, "'" + it.key +
                                    "=' outside an mgid= line (a group's flags follow its mgid= on the "
                                    "same line; the broadcast group's go before the ':')"};
        }
        std::uint8_t scope = 0;
        if (auto failure = group_flag(it, open->group, scope, false)) return failure;
        if (same_word(it.key, "scope") &&
            std::find(open->scopes.begin(), open->scopes.end(), scope) == open->scopes.end()) {
          open->scopes.push_back(scope);
        }
        if (same_word(it.key, "Q_Key")) open->q_key_given = true;
        continue;
      }
      close_group(s, open);
      if (same_word(it.key, "defmember")) {
        if (auto failure = defmember(s, it)) return failure;
        continue;
      }
      if (auto failure = port(s, it)) return failure;
    }
  }

  std::optional<Failure> port(Statement& s, const Item& it) {
    PartitionMember m;
    m.where = where(it.at);
    const std::pair<const char*, MemberSelector> keywords[] = {{"ALL", MemberSelector::kAll},
                                                               {"ALL_CAS", MemberSelector::kAllCas},
                                                               {"ALL_SWITCHES", MemberSelector::kAllSwitches},
                                                               {"ALL_ROUTERS", MemberSelector::kAllRouters},
                                                               {"SELF", MemberSelector::kSelf}};
    bool keyword = false;
    for (auto [word, selector] : keywords) {
      if (it.key == word) {
        m.selector = selector;
        keyword = true;
      }
    }
    if (!keyword) {
      if (!std::isdigit(static_cast<unsigned char>(it.key[0]))) {
        return Failure{
            it.at, "'" + it.key + "' is neither a port GUID nor one of ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF"};
      }
      Result<std::uint64_t> guid = number(it.key, ~0ULL);
      if (!guid.ok()) return Failure{it.at, "port GUID " + guid.error().message};
      if (*guid == 0) return Failure{it.at, "GUID 0 is not a valid port GUID"};
      m.selector = MemberSelector::kPortGuid;
      m.guid = *guid;
    }
    if (it.has_value && !it.value.empty()) {
      if (same_word(it.value, "full")) {
        m.membership = Membership::kFull;
      } else if (same_word(it.value, "limited")) {
        m.membership = Membership::kLimited;
      } else if (same_word(it.value, "both")) {
        m.membership = Membership::kBoth;
      } else {
        warn(it.value_at, "membership '" + it.value + "' of " + it.key +
                              " is not full, limited or both; taken as limited (as OpenSM)");
        m.membership = Membership::kLimited;
      }
      if (m.membership == Membership::kBoth) {
        warn(it.value_at, it.key +
                              "=both needs partitions.allow_both_pkeys: true (OpenSM's allow_both_pkeys); "
                              "without it the port is a full member");
      }
    } else if (s.defmember == Membership::kBoth) {
      warn(it.at, it.key + " is a member by defmember=both, which needs partitions.allow_both_pkeys: true");
    }
    s.members.push_back(std::move(m));
    s.member_default.push_back(s.defmember);
    return std::nullopt;
  }

  std::string text_;
  const std::string& source_;
  std::size_t i_ = 0;
  Pos pos_;
};

}  // namespace

namespace {

// Explicit P_Keys are reserved first, so a generated one never collides with a later statement's; a
// statement without one takes the lowest P_Key no statement names (said).
Status assign_missing_pkeys(std::vector<Statement>& statements, Parser& parser) {
  std::set<PKeyBase> used;
  for (const Statement& s : statements) {
    if (s.pkey) used.insert(*s.pkey);
  }
  PKeyBase next = 1;
  for (Statement& s : statements) {
    if (s.pkey) continue;
    while (next <= 0x7fff && used.count(next) != 0) ++next;
    if (next > 0x7fff) {
      return make_error(ErrorCode::kInvalidInput,
                        parser.located(s.at, "partition '" + s.name + "' has no P_Key and none is left"));
    }
    s.pkey = next;
    used.insert(next);
    parser.warn(s.at, "partition '" + s.name + "' has no P_Key; assigned " + hex_text(next, 4) +
                          " (the lowest P_Key no other statement of the file names)");
  }
  return Ok{};
}

// The partition a statement adds to: the one already holding its P_Key (statements of one P_Key merge,
// as in OpenSM), else a new one. OpenSM lets two P_Keys share a name; smd's policy names one partition per
// name (QoS port groups and smctl refer to partitions by name), so the later one is renamed after its P_Key.
PartitionSpec& partition_for(const Statement& s, PartitionsSpec& spec, Parser& parser) {
  auto same = std::find_if(spec.partitions.begin(), spec.partitions.end(),
                           [&](const PartitionSpec& p) { return p.pkey == *s.pkey; });
  if (same != spec.partitions.end()) {
    if (!s.name.empty() && s.name != same->name) {
      parser.warn(s.at, "P_Key " + hex_text(*s.pkey, 4) + " is partition '" + same->name + "' (" + same->where +
                            "); merged into it under that name");
    }
    return *same;
  }
  const auto named = [&](const std::string& n) {
    return std::any_of(spec.partitions.begin(), spec.partitions.end(),
                       [&](const PartitionSpec& q) { return q.name == n; });
  };
  PartitionSpec p;
  p.name = s.name;
  if (!p.name.empty() && named(p.name)) {
    std::string renamed = s.name + "_" + hex_text(*s.pkey, 4);
    while (named(renamed)) renamed += "_";
    parser.warn(s.at, "partition name '" + s.name + "' is already used by another P_Key; P_Key " +
                          hex_text(*s.pkey, 4) + " is named '" + renamed + "'");
    p.name = std::move(renamed);
  }
  p.pkey = *s.pkey;
  p.default_membership = s.defmember;
  p.where = parser.where(s.at);
  spec.partitions.push_back(std::move(p));
  return spec.partitions.back();
}

// The multicast groups of a statement into its partition `p`. The policy refuses a second declaration of
// a group (a group belongs to one partition): the first one in the file is kept, as a reader of the file
// would expect, and the later one named.
Status add_groups(Statement& s, PartitionSpec& p, const PartitionsSpec& spec, Parser& parser) {
  for (McastGroupSpec& g : s.groups) {
    SMD_RETURN_IF_ERROR(complete_group(g, p.pkey)) << g.where << ": mgid " << format_mgid(g.mgid);
    const auto owner = std::find_if(spec.partitions.begin(), spec.partitions.end(), [&](const auto& q) {
      return std::any_of(q.groups.begin(), q.groups.end(), [&](const auto& h) { return h.mgid == g.mgid; });
    });
    if (owner != spec.partitions.end()) {
      parser.warnings.push_back(g.where + ": mgid " + format_mgid(g.mgid) + " is already a group of partition '" +
                                owner->name + "'; this declaration is left out");
      continue;
    }
    p.groups.push_back(std::move(g));
  }
  return Ok{};
}

// One statement merged into its partition: index0 and ipoib add up, the later broadcast-group flags win
// (scopes only when given), members keep the membership their own statement gave them.
void merge_statement(Statement& s, PartitionSpec& p) {
  p.index0 = p.index0 || s.index0;
  p.ipoib.enabled = p.ipoib.enabled || s.ipoib;
  if (s.ipoib_flags) {
    std::vector<std::uint8_t> scopes = s.ipoib_flags->scopes.empty() ? p.ipoib.scopes : s.ipoib_flags->scopes;
    const bool enabled = p.ipoib.enabled;
    p.ipoib = *s.ipoib_flags;
    p.ipoib.enabled = enabled;
    p.ipoib.scopes = std::move(scopes);
  }
  for (std::size_t k = 0; k < s.members.size(); ++k) {
    PartitionMember m = std::move(s.members[k]);
    // A member written without a membership took its statement's defmember; the merged partition's
    // default is the first statement's, so a different one is written out.
    if (!m.membership && s.member_default[k] != p.default_membership) m.membership = s.member_default[k];
    p.members.push_back(std::move(m));
  }
}

}  // namespace

Result<PartitionsImport> parse_partitions_conf(std::string_view text, const std::string& source_name) {
  Parser parser(text, source_name);
  std::vector<Statement> statements;
  if (std::optional<Failure> failure = parser.run(statements)) {
    return make_error(ErrorCode::kInvalidInput, parser.located(failure->at, failure->message));
  }
  SMD_RETURN_IF_ERROR(assign_missing_pkeys(statements, parser));
  PartitionsImport result;
  for (Statement& s : statements) {
    if (s.ipoib_flags && !s.ipoib) {
      parser.warn(s.ipoib_flags_at, "partition '" + s.name + "': broadcast-group flags without ipoib have no effect");
    }
    PartitionSpec& p = partition_for(s, result.spec, parser);
    merge_statement(s, p);
    SMD_RETURN_IF_ERROR(add_groups(s, p, result.spec, parser));
  }
  result.warnings = std::move(parser.warnings);
  return result;
}

}  // namespace smd
