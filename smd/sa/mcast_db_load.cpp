// McastDb::load_json: the groups file read back (the format of mcast_db_text.cpp). Everything is checked
// before anything is taken: a file edited by hand or damaged is refused as a whole, naming the entry, so a
// join never answers values that are not IBA's own codes.
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "smd/sa/mcast_db.h"
#include "smd/sa/mcast_rules.h"
#include "smd/sa/rate.h"
#include "smd/sa/state_json.h"

namespace smd::sa {

using namespace mad::sa;
using namespace mcast;

namespace {

std::optional<Gid> gid_from_hex(const std::string& s) {
  if (s.size() != 32) return std::nullopt;
  Gid g{};
  for (std::size_t i = 0; i < 16; ++i) {
    unsigned v = 0;
    for (std::size_t k = 0; k < 2; ++k) {
      const char c = s[2 * i + k];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return std::nullopt;
      v = v << 4 | static_cast<unsigned>(d);
    }
    g[i] = static_cast<std::uint8_t>(v);
  }
  return g;
}

Error bad(const std::string& where, const std::string& what) {
  return make_error(ErrorCode::kInvalidInput, where + ": " + what);
}

/// The group's numeric fields, each within the range its record field holds.
Status read_values(const nlohmann::json& e, const std::string& where, McastGroup& g) {
  static constexpr const char* kKeys[11] = {"mlid",   "q_key",     "mtu",   "rate", "sl",         "flow_label",
                                            "tclass", "hop_limit", "scope", "pkey", "packet_life"};
  static constexpr std::uint64_t kMax[11] = {kMlidLast, 0xFFFFFFFFull, 63, 63, 15, 0xFFFFF, 255, 255, 15, 0xFFFF, 63};
  std::uint64_t v[11] = {};
  for (int k = 0; k < 11; ++k) {
    const auto f = e.find(kKeys[k]);
    if (f == e.end() || !f->is_number_unsigned() || f->get<std::uint64_t>() > kMax[k])
      return bad(where, std::string("\"") + kKeys[k] + "\" missing or out of range");
    v[k] = f->get<std::uint64_t>();
  }
  g.mlid = static_cast<Lid>(v[0]);
  if (g.mlid < kMlidFirst) return bad(where, "\"mlid\" below 0xc000");
  g.q_key = static_cast<std::uint32_t>(v[1]);
  g.mtu = static_cast<std::uint8_t>(v[2]);
  g.rate = static_cast<std::uint8_t>(v[3]);
  g.sl = static_cast<std::uint8_t>(v[4]);
  g.flow_label = static_cast<std::uint32_t>(v[5]);
  g.tclass = static_cast<std::uint8_t>(v[6]);
  g.hop_limit = static_cast<std::uint8_t>(v[7]);
  g.scope = static_cast<std::uint8_t>(v[8]);
  g.pkey = static_cast<std::uint16_t>(v[9]);
  g.packet_life = static_cast<std::uint8_t>(v[10]);
  // What a join answers must be IBA's own codes.
  if (g.mtu < 1 || g.mtu > 5) return bad(where, "\"mtu\" is not an MTU code 1..5");
  if (rate_half_gbps(g.rate) == 0) return bad(where, "\"rate\" is not an IBA rate code (2..24)");
  return Ok{};
}

/// One member entry: {"guid": hex, "join_state": 1..15, "self": bool (optional)}, into `g` with its bit counts.
Status read_member(const nlohmann::json& m, const std::string& where, McastGroup& g) {
  if (!m.is_object() || !m.contains("guid") || !m["guid"].is_string() || !m.contains("join_state") ||
      !m["join_state"].is_number_unsigned() || m["join_state"].get<unsigned>() == 0 ||
      m["join_state"].get<unsigned>() > 15)
    return bad(where, "a member needs \"guid\" and \"join_state\" 1..15");
  Guid guid = 0;
  try {
    std::size_t used = 0;
    const std::string s = m["guid"].get<std::string>();
    guid = std::stoull(s, &used, 16);
    if (used != s.size()) throw std::invalid_argument(s);
  } catch (const std::exception&) {
    return bad(where, "a member's \"guid\" is not hexadecimal");
  }
  if (g.members.count(guid)) return bad(where, "a member is listed twice");
  const auto js = static_cast<std::uint8_t>(m["join_state"].get<unsigned>());
  g.members[guid] = js;
  if (m.contains("self")) {
    if (!m["self"].is_boolean()) return bad(where, "a member's \"self\" is not true or false");
    if (m["self"].get<bool>()) g.self_joined.insert(guid);
  }
  for (unsigned b = 0; b < 4; ++b) g.bit_count[b] += (js >> b) & 1u;
  return Ok{};
}

/// One entry of "groups": the group with its members.
Result<McastGroup> read_group(const nlohmann::json& e, const std::string& where) {
  if (!e.is_object() || !e.contains("mgid") || !e["mgid"].is_string())
    return bad(where, "needs \"mgid\" (32 hex digits)");
  const std::optional<Gid> mgid = gid_from_hex(e["mgid"].get<std::string>());
  if (!mgid) return bad(where, "\"mgid\" is not 32 hex digits");
  McastGroup g;
  g.mgid = *mgid;
  if (Status s = read_values(e, where, g); !s) return s.error();
  if (!e.contains("well_known") || !e["well_known"].is_boolean())
    return bad(where, "\"well_known\" is not true or false");
  g.well_known = e["well_known"].get<bool>();
  if (!e.contains("members") || !e["members"].is_array()) return bad(where, "no \"members\" array");
  for (const nlohmann::json& m : e["members"]) {
    if (Status s = read_member(m, where, g); !s) return s.error();
  }
  return g;
}

}  // namespace

Status McastDb::load_json(const std::string& text) {
  Result<nlohmann::json> doc = parse_state_document(text, "groups");
  if (!doc) return doc.error();
  const nlohmann::json& list = (*doc)["groups"];
  const auto counter = doc->find("next_mgid");
  if (counter == doc->end() || !counter->is_number_unsigned() || counter->get<std::uint64_t>() > 0xFFFFFFFFull)
    return make_error(ErrorCode::kInvalidInput, "\"next_mgid\" is not a 32-bit count");
  std::map<Gid, McastGroup> groups;
  MlidPool mlids;
  std::map<Lid, Gid> first_on;  // the first group read on each MLID
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "groups[" + std::to_string(i) + "]";
    Result<McastGroup> g = read_group(list[i], where);
    if (!g) return g.error();
    if (groups.count(g->mgid)) return bad(where, "MGID listed twice");
    // Only IPv6 SNM groups of one family with equal properties share an MLID (what consolidation made).
    if (const auto other = first_on.find(g->mlid);
        other != first_on.end() && !may_share_mlid(groups.at(other->second), *g))
      return bad(where, "MLID already used by another group");
    first_on.emplace(g->mlid, g->mgid);
    mlids.hold(g->mlid);
    groups.emplace(g->mgid, std::move(*g));
  }
  groups_ = std::move(groups);
  mlids_ = std::move(mlids);
  next_mgid_ = static_cast<std::uint32_t>(counter->get<std::uint64_t>());
  return Ok{};
}

}  // namespace smd::sa
