// sa_client: an independent Subnet Administration witness and load client. It talks to whatever SA
// answers at the SM LID of its port (OpenSM, or smd once smd has one) with plain libibumad, and links no
// smd code. Modes: paths (PathRecord Get per pair), load (N outstanding PathRecord Gets for S seconds),
// get (one arbitrary SA request), service (ServiceRecord Set/Get/Delete), subscribe (InformInfo + Reports),
// join / leave (MCMemberRecord Set / Delete for this port or, as proxy, for a list of ports), groups
// (MCMemberRecord GetTable), churn (join/leave cycles with mixed JoinState bits).
// Under ibsim: run it with LD_PRELOAD=libumad2sim.so, SIM_HOST=<node>, and only after the SM is up (the
// shim's sysfs sm_lid is a snapshot). Reports reach it under ibsim only as an issm client (subscribe --issm).
#include <arpa/inet.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <bit>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/sa_client/sa_port.h"
#include "tests/integration/sa_client/sa_wire.h"

namespace sa_client {
namespace {

using nlohmann::json;

// Options every mode shares.
struct Common {
  int timeout_ms = 1000;
  int retries = 2;
  int sm_lid = 0;  // 0: the port's SM LID
  std::string smkey = "0";
};

std::string hex_text(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

uint64_t parse_u64(const std::string& s) { return std::stoull(s, nullptr, 0); }
uint64_t parse_hex_u64(const std::string& s) { return std::stoull(s, nullptr, 16); }

// The SM LID to address: the option, else the port's.
uint16_t sm_lid_of(const UmadPort& port, const Common& c) {
  const auto lid = static_cast<uint16_t>(c.sm_lid != 0 ? c.sm_lid : port.info().sm_lid);
  if (lid == 0)
    throw std::runtime_error("the port's SM LID is 0: start sa_client after the SM is up (or give --sm-lid)");
  return lid;
}

// An SA request header with a method, attribute and ComponentMask.
SaHeader request_header(uint8_t method, uint16_t attr, uint64_t mask, const Common& c) {
  SaHeader h;
  h.method = method;
  h.attr_id = attr;
  h.comp_mask = mask;
  h.sm_key = parse_hex_u64(c.smkey);
  return h;
}

// Runs one request to completion and returns its outcome.
Outcome run_one(Transactions& tx, const Mad& mad) {
  std::optional<Outcome> result;
  tx.submit(mad, [&](const Outcome& o) { result = o; });
  while (!result) tx.pump(50);
  return *result;
}

// "no answer" text for stderr.
std::string no_answer_text(const Outcome& o, uint16_t sm_lid) {
  return std::string(o.unroutable ? "not routable to" : "no answer from") + " SM LID " + std::to_string(sm_lid) +
         " after " + std::to_string(o.tries) + " tries";
}

// The JSON of a decoded PathRecord.
json path_json(const PathRecord& p) {
  return {{"service_id", hex_text(p.service_id)},
          {"dgid_rec", gid_text(p.dgid)},
          {"sgid_rec", gid_text(p.sgid)},
          {"dlid", p.dlid},
          {"slid", p.slid},
          {"raw_traffic", p.raw_traffic},
          {"flow_label", p.flow_label},
          {"hop_limit", p.hop_limit},
          {"tclass", p.tclass},
          {"reversible", p.reversible},
          {"numb_path", p.numb_path},
          {"pkey", hex_text(p.pkey)},
          {"qos_class", p.qos_class},
          {"sl", p.sl},
          {"mtu_selector", p.mtu_selector},
          {"mtu", p.mtu},
          {"rate_selector", p.rate_selector},
          {"rate", p.rate},
          {"pkt_life_selector", p.pkt_life_selector},
          {"pkt_life", p.pkt_life},
          {"preference", p.preference}};
}

// The response header fields as JSON (get, service, subscribe).
json header_json(const SaHeader& h) {
  return {{"status", hex_text(h.status)},
          {"method", hex_text(h.method)},
          {"attr_id", hex_text(h.attr_id)},
          {"attr_mod", hex_text(h.attr_mod)},
          {"attr_offset", h.attr_offset},
          {"comp_mask", hex_text(h.comp_mask)},
          {"sm_key", hex_text(h.sm_key)},
          {"rmpp",
           {{"version", h.rmpp_version},
            {"type", h.rmpp_type},
            {"resp_time", h.rmpp_resp_time},
            {"flags", h.rmpp_flags},
            {"status", h.rmpp_status},
            {"segment", h.rmpp_segment},
            {"payload_length", h.rmpp_payload}}}};
}

// A PathRecord Get for one pair (GIDs from GUIDs, or LIDs with by_lid).
Mad path_query(const PortInfo& me, uint64_t a, uint64_t b, bool by_lid, const Common& c) {
  const uint64_t mask = (by_lid ? kPrSlid | kPrDlid : kPrSgid | kPrDgid) | kPrNumbPath;
  const auto rec = by_lid ? encode_path_query({}, {}, static_cast<uint16_t>(a), static_cast<uint16_t>(b))
                          : encode_path_query(make_gid(me.prefix, a), make_gid(me.prefix, b), 0, 0);
  return build_sa_mad(request_header(kMethodGet, kAttrPathRecord, mask, c), rec);
}

// Reads "A B" lines (hex GUIDs, or LIDs in C notation with by_lid); '#' starts a comment.
std::vector<std::pair<uint64_t, uint64_t>> read_pairs(const std::string& file, bool by_lid) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream ls(line);
    std::string a, b;
    if (!(ls >> a >> b)) continue;
    pairs.emplace_back(by_lid ? parse_u64(a) : parse_hex_u64(a), by_lid ? parse_u64(b) : parse_hex_u64(b));
  }
  return pairs;
}

// paths: one PathRecord Get per pair, window outstanding, one JSON line per pair in file order.
int mode_paths(const Common& c, const std::string& file, bool by_lid, int window) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  const auto pairs = read_pairs(file, by_lid);
  std::vector<json> out(pairs.size());
  std::size_t next = 0, missing = 0;
  auto name = [&](uint64_t v) { return by_lid ? json(v) : json(gid_text(make_gid(port.info().prefix, v))); };
  while (next < pairs.size() || tx.outstanding() > 0) {
    while (next < pairs.size() && tx.outstanding() < static_cast<std::size_t>(window)) {
      const std::size_t i = next++;
      const auto a = pairs[i].first, b = pairs[i].second;  // not a binding: captured below (clang < 16)
      tx.submit(path_query(port.info(), a, b, by_lid, c), [&, i, a, b](const Outcome& o) {
        json j = {{by_lid ? "slid_q" : "sgid", name(a)}, {by_lid ? "dlid_q" : "dgid", name(b)}};
        if (!o.answer) {
          ++missing;
          j["status"] = nullptr;
          j["error"] = o.unroutable ? "unroutable" : "timeout";
          std::cerr << "sa_client: PathRecord Get " << j.dump() << ": " << no_answer_text(o, sm) << "\n";
        } else {
          const SaHeader h = parse_sa_header(o.answer->mad);
          j["status"] = hex_text(h.status);
          if (h.status == 0) j.update(path_json(decode_path_record(std::span(o.answer->mad).subspan(kSaDataOffset))));
          j["latency_us"] = o.latency_us;
        }
        out[i] = std::move(j);
      });
    }
    tx.pump(50);
  }
  for (const auto& j : out) std::cout << j.dump() << "\n";
  return missing == 0 ? 0 : 1;
}

// Reads one port GUID (hex) per line.
std::vector<uint64_t> read_guids(const std::string& file) {
  std::vector<uint64_t> v;
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream ls(line);
    std::string g;
    if (ls >> g) v.push_back(parse_hex_u64(g));
  }
  if (v.empty()) throw std::runtime_error(file + " holds no GUIDs");
  return v;
}

// The q-th percentile (0..100) of sorted values, nearest rank.
int64_t percentile(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  auto rank = static_cast<std::size_t>(q / 100.0 * static_cast<double>(sorted.size()) + 0.999999);
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

// load: keep window PathRecord Gets outstanding to random targets for seconds; one JSON summary. No
// retries: a request that times out is an error, and latency is always from the one send.
int mode_load(const Common& c, const std::string& file, int window, double seconds, uint64_t seed,
              const std::string& latency_file) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, 0);
  const auto targets = read_guids(file);
  std::mt19937_64 rng(seed != 0 ? seed : std::random_device{}());
  std::uniform_int_distribution<std::size_t> pick(0, targets.size() - 1);
  uint64_t sent = 0, ok = 0, bad_status = 0, timeouts = 0, unroutable = 0;
  std::vector<int64_t> lat;
  const auto start = Clock::now();
  const auto stop = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  auto done = [&](const Outcome& o) {
    if (!o.answer) {
      ++(o.unroutable ? unroutable : timeouts);
      return;
    }
    lat.push_back(o.latency_us);
    ++(parse_sa_header(o.answer->mad).status == 0 ? ok : bad_status);
  };
  while (Clock::now() < stop) {
    while (tx.outstanding() < static_cast<std::size_t>(window)) {
      tx.submit(path_query(port.info(), port.info().guid, targets[pick(rng)], false, c), done);
      ++sent;
    }
    tx.pump(10);
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  while (tx.outstanding() > 0) tx.pump(50);  // the last window: answered or timed out
  if (!latency_file.empty()) {
    std::ofstream lf(latency_file);
    for (int64_t v : lat) lf << v << "\n";
    if (!lf) throw std::runtime_error("cannot write " + latency_file);
  }
  std::sort(lat.begin(), lat.end());
  const json j = {
      {"host_lid", port.info().lid},
      {"host_guid", hex_text(port.info().guid)},
      {"sm_lid", sm},
      {"window", window},
      {"seconds", elapsed},
      {"sent", sent},
      {"answers", lat.size()},
      {"answers_per_s", static_cast<double>(lat.size()) / elapsed},
      {"ok", ok},
      {"status_errors", bad_status},
      {"timeouts", timeouts},
      {"unroutable", unroutable},
      {"stray_answers", tx.stray_answers()},
      {"latency_us",
       {{"p50", percentile(lat, 50)}, {"p99", percentile(lat, 99)}, {"max", lat.empty() ? 0 : lat.back()}}}};
  std::cout << j.dump() << "\n";
  return timeouts + unroutable == 0 ? 0 : 1;
}

// A method name (get, gettable, set, delete) or a number.
uint8_t method_of(const std::string& m) {
  if (m == "get") return kMethodGet;
  if (m == "gettable") return kMethodGetTable;
  if (m == "set") return kMethodSet;
  if (m == "delete") return kMethodDelete;
  return static_cast<uint8_t>(std::stoul(m, nullptr, 0));
}

// Prints an answer: header JSON plus the data as hex and how many records it holds.
json answer_json(const Received& r) {
  const SaHeader h = parse_sa_header(r.mad);
  json j = header_json(h);
  const auto data = std::span(r.mad).subspan(kSaDataOffset);
  j["records_in_mad"] = h.attr_offset ? kSaDataSize / (h.attr_offset * 8u) : 0u;
  j["data"] = hex(data);
  j["mad_length"] = r.length;
  return j;
}

// get: one arbitrary SA request; exit 0 when answered (any status), 1 when not.
int mode_get(const Common& c, const std::string& attr, const std::string& method, const std::string& mask,
             const std::string& data_hex, const std::string& attr_mod) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  const auto data = parse_hex(data_hex);
  if (!data) throw std::runtime_error("--data-hex is not hex");
  SaHeader h = request_header(method_of(method), static_cast<uint16_t>(parse_u64(attr)), parse_hex_u64(mask), c);
  h.attr_mod = static_cast<uint32_t>(parse_u64(attr_mod));
  const Outcome o = run_one(tx, build_sa_mad(h, *data));
  if (!o.answer) {
    std::cerr << "sa_client: SA method " << hex_text(h.method) << " attr " << hex_text(h.attr_id) << ": "
              << no_answer_text(o, sm) << "\n";
    return 1;
  }
  json j = answer_json(*o.answer);
  j["latency_us"] = o.latency_us;
  std::cout << j.dump() << "\n";
  return 0;
}

// service: ServiceRecord Set, Get or Delete with ServiceID|ServiceGID|ServiceName (+Lease, +P_Key).
int mode_service(const Common& c, const std::string& op, const std::string& id, const std::string& name, int64_t lease,
                 const std::string& gid, const std::string& pkey) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  ServiceRecord sr;
  sr.id = parse_hex_u64(id);
  sr.name = name;
  sr.gid = make_gid(port.info().prefix, gid.empty() ? port.info().guid : parse_hex_u64(gid));
  uint64_t mask = kSrId | kSrGid | kSrName;
  if (lease >= 0) {
    sr.lease = static_cast<uint32_t>(lease);
    mask |= kSrLease;
  }
  if (!pkey.empty()) {
    sr.pkey = static_cast<uint16_t>(parse_u64(pkey));
    mask |= kSrPkey;
  }
  const uint8_t method = op == "set" ? kMethodSet : op == "delete" ? kMethodDelete : kMethodGet;
  const Outcome o =
      run_one(tx, build_sa_mad(request_header(method, kAttrServiceRecord, mask, c), encode_service_record(sr)));
  if (!o.answer) {
    std::cerr << "sa_client: ServiceRecord " << op << " id " << hex_text(sr.id) << ": " << no_answer_text(o, sm)
              << "\n";
    return 1;
  }
  json j = answer_json(*o.answer);
  const ServiceRecord got = decode_service_record(std::span(o.answer->mad).subspan(kSaDataOffset));
  j["record"] = {{"id", hex_text(got.id)},
                 {"gid", gid_text(got.gid)},
                 {"pkey", hex_text(got.pkey)},
                 {"lease", got.lease},
                 {"name", got.name}};
  std::cout << j.dump() << "\n";
  return 0;
}

// A GID from its text form ("ff12:401b:ffff::ffff:ffff").
Gid parse_gid(const std::string& text) {
  Gid g{};
  if (inet_pton(AF_INET6, text.c_str(), g.data()) != 1) throw std::runtime_error("not a GID: " + text);
  return g;
}

// The JSON of a decoded MCMemberRecord.
json mcmember_json(const McMemberRecord& m) {
  return {{"mgid", gid_text(m.mgid)},
          {"port_gid", gid_text(m.port_gid)},
          {"qkey", hex_text(m.qkey)},
          {"mlid", hex_text(m.mlid)},
          {"mtu", hex_text(m.mtu)},
          {"tclass", m.tclass},
          {"pkey", hex_text(m.pkey)},
          {"rate", hex_text(m.rate)},
          {"pkt_life", hex_text(m.pkt_life)},
          {"sl", m.sl},
          {"flow_label", m.flow_label},
          {"hop_limit", m.hop_limit},
          {"scope", m.scope},
          {"join_state", m.join_state},
          {"proxy_join", m.proxy_join}};
}

// What join and leave send.
struct McmOptions {
  std::string mgid = "ff12:401b:ffff::ffff:ffff";
  std::vector<std::string> ports;  // port GUIDs (hex); none and no file: this port
  std::string ports_file;
  int join_state = 1;
  std::string pkey = "0xffff";
  bool create = false;  // also Q_Key, TClass, FlowLabel, SL: what creating a group needs
  std::string qkey = "0x0b1b";
  int window = 8;
  // Each port's own IPv6 solicited-node MGID: --mgid with its last 24 bits replaced by the port GUID's
  // (IPoIB's link-local address ends in the GUID, RFC 4391 8; the solicited-node group takes its low 24 bits).
  bool snm = false;
};

// join / leave: one MCMemberRecord Set (join) or Delete (leave) per port, PortGID = that port's GID (a proxy
// join when it is not this port), window outstanding; one JSON line per port in order. Exit 0 when every
// request was answered with status 0.
int mode_mcm(const Common& c, const McmOptions& o, bool join) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  std::vector<uint64_t> guids;
  for (const std::string& g : o.ports) guids.push_back(parse_hex_u64(g));
  if (!o.ports_file.empty()) {
    const auto more = read_guids(o.ports_file);
    guids.insert(guids.end(), more.begin(), more.end());
  }
  if (guids.empty()) guids.push_back(port.info().guid);
  McMemberRecord rec;
  rec.mgid = parse_gid(o.mgid);
  rec.pkey = static_cast<uint16_t>(parse_u64(o.pkey));
  rec.join_state = static_cast<uint8_t>(o.join_state);
  uint64_t mask = kMcmMgid | kMcmPortGid | kMcmPkey | kMcmJoinState;
  if (o.create) {
    rec.qkey = static_cast<uint32_t>(parse_u64(o.qkey));
    mask |= kMcmQkey | kMcmTclass | kMcmFlowLabel | kMcmSl;
  }
  const uint8_t method = join ? kMethodSet : kMethodDelete;
  std::vector<json> out(guids.size());
  std::size_t next = 0, bad = 0;
  const auto start = Clock::now();
  while (next < guids.size() || tx.outstanding() > 0) {
    while (next < guids.size() && tx.outstanding() < static_cast<std::size_t>(o.window)) {
      const std::size_t i = next++;
      McMemberRecord r = rec;
      r.port_gid = make_gid(port.info().prefix, guids[i]);
      if (o.snm) {
        for (int b = 0; b < 3; ++b) r.mgid[13 + b] = static_cast<uint8_t>(guids[i] >> (16 - 8 * b));
      }
      const Mad mad = build_sa_mad(request_header(method, kAttrMcMemberRecord, mask, c), encode_mcmember_record(r));
      tx.submit(mad, [&, i, r](const Outcome& out_i) {
        json j = {{"op", join ? "join" : "leave"}, {"port_gid", gid_text(r.port_gid)}, {"mgid", gid_text(r.mgid)}};
        if (!out_i.answer) {
          ++bad;
          j["status"] = nullptr;
          j["error"] = out_i.unroutable ? "unroutable" : "timeout";
          std::cerr << "sa_client: MCMemberRecord " << (join ? "Set" : "Delete") << " for " << gid_text(r.port_gid)
                    << ": " << no_answer_text(out_i, sm) << "\n";
        } else {
          const SaHeader h = parse_sa_header(out_i.answer->mad);
          j["status"] = hex_text(h.status);
          j["method"] = hex_text(h.method);
          if (h.status != 0) ++bad;
          if (h.status == 0)
            j["record"] = mcmember_json(decode_mcmember_record(std::span(out_i.answer->mad).subspan(kSaDataOffset)));
          j["latency_us"] = out_i.latency_us;
        }
        out[i] = std::move(j);
      });
    }
    tx.pump(20);
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  for (const auto& j : out) std::cout << j.dump() << "\n";
  std::cout << json{{"summary", join ? "join" : "leave"},
                    {"ports", guids.size()},
                    {"failed", bad},
                    {"seconds", elapsed}}
                   .dump()
            << "\n";
  return bad == 0 ? 0 : 1;
}

// groups: MCMemberRecord GetTable (every record, or one MGID's); one JSON line per record. Under ibsim
// the answer is cut at one MAD (3 records).
int mode_groups(const Common& c, const std::string& mgid) {
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  McMemberRecord rec;
  uint64_t mask = 0;
  if (!mgid.empty()) {
    rec.mgid = parse_gid(mgid);
    mask = kMcmMgid;
  }
  const Outcome o = run_one(
      tx, build_sa_mad(request_header(kMethodGetTable, kAttrMcMemberRecord, mask, c), encode_mcmember_record(rec)));
  if (!o.answer) {
    std::cerr << "sa_client: MCMemberRecord GetTable: " << no_answer_text(o, sm) << "\n";
    return 1;
  }
  const SaHeader h = parse_sa_header(o.answer->mad);
  const std::size_t stride = h.attr_offset * 8u;
  const std::size_t len =
      o.answer->length > static_cast<int>(kSaDataOffset) ? static_cast<std::size_t>(o.answer->length) : kSaDataOffset;
  // Only the first MAD is held here: more records than fit in it are counted but not printed.
  const std::size_t n = stride ? std::min((len - kSaDataOffset) / stride, kSaDataSize / stride) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = decode_mcmember_record(std::span(o.answer->mad).subspan(kSaDataOffset + i * stride));
    std::cout << mcmember_json(r).dump() << "\n";
  }
  std::cout << json{{"status", hex_text(h.status)}, {"records", n}}.dump() << "\n";
  return h.status == 0 ? 0 : 1;
}

// What churn sends: cycles of join then leave(s) over ports and groups.
struct ChurnOptions {
  std::string ports_file;
  std::vector<std::string> mgids;  // none: the IPoIB broadcast group
  std::vector<std::string> holds;  // "MGID=GUID": that port is never churned on that group (it holds it)
  int cycles = 10000;
  uint64_t seed = 1;
  int window = 16;
  std::string pkey = "0xffff";
};

// One cycle in flight: a port (by index), a group, the JoinState joined and the leaves still to send.
struct ChurnCycle {
  std::size_t port = 0, group = 0;
  uint8_t joined = 0;
  std::vector<uint8_t> leaves;  // JoinState bits of each Delete, in order; together they are `joined`
};

// The leaves that undo `bits`: one Delete of all of them, or (coin) a non-empty proper subset then the rest.
std::vector<uint8_t> churn_leaves(uint8_t bits, std::mt19937_64& rng) {
  if (std::popcount(bits) < 2 || (rng() & 1) == 0) return {bits};
  for (;;) {
    const auto part = static_cast<uint8_t>(rng() & bits);
    if (part != 0 && part != bits) return {part, static_cast<uint8_t>(bits & ~part)};
  }
}

// churn: `cycles` join/leave cycles (IBA 15.2.5.17: Set then Delete of MCMemberRecord, proxy joins with
// PortGID = the chosen port's GID) with random non-empty JoinState bits, on existing groups only. Up to
// `window` cycles are in flight, each on a port no other in-flight cycle uses; a cycle's Delete is sent
// only once its Set was answered, so every join is undone. One JSON summary; exit 0 when every Set and
// Delete was answered with status 0, every answer carried the group's first-seen MLID and every join's
// answer the bits joined.
int mode_churn(const Common& c, const ChurnOptions& o) {
  const auto guids = read_guids(o.ports_file);
  std::vector<Gid> groups;
  for (const std::string& m : o.mgids) groups.push_back(parse_gid(m));
  if (groups.empty()) groups.push_back(parse_gid("ff12:401b:ffff::ffff:ffff"));
  std::vector<std::vector<bool>> held(groups.size(), std::vector<bool>(guids.size(), false));
  for (const std::string& h : o.holds) {
    const auto eq = h.find('=');
    if (eq == std::string::npos) throw std::runtime_error("--hold " + h + ": want MGID=GUID");
    const Gid g = parse_gid(h.substr(0, eq));
    const uint64_t guid = parse_hex_u64(h.substr(eq + 1));
    const auto gi = std::find(groups.begin(), groups.end(), g);
    const auto pi = std::find(guids.begin(), guids.end(), guid);
    if (gi == groups.end() || pi == guids.end()) throw std::runtime_error("--hold " + h + ": not a churned group/port");
    held[static_cast<std::size_t>(gi - groups.begin())][static_cast<std::size_t>(pi - guids.begin())] = true;
  }
  for (std::size_t p = 0; p < guids.size(); ++p) {
    if (std::all_of(held.begin(), held.end(), [&](const std::vector<bool>& h) { return h[p]; }))
      throw std::runtime_error("--hold: port " + hex_text(guids[p]) + " is held on every group (nothing to churn)");
  }
  if (o.window < 1 || static_cast<std::size_t>(o.window) > guids.size())
    throw std::runtime_error("--window must be 1.." + std::to_string(guids.size()) + " (one cycle per port)");
  UmadPort port;
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  std::mt19937_64 rng(o.seed);
  std::vector<bool> busy(guids.size(), false);
  std::vector<uint16_t> mlid(groups.size(), 0);
  uint64_t started = 0, finished = 0, joins_ok = 0, joins_failed = 0, leaves_ok = 0, leaves_failed = 0;
  uint64_t split = 0, retried = 0, mlid_mismatch = 0, state_mismatch = 0;
  std::map<std::string, uint64_t> statuses;  // non-zero statuses and "timeout"/"unroutable"
  std::array<uint64_t, 16> by_state{};
  const uint64_t mask = kMcmMgid | kMcmPortGid | kMcmPkey | kMcmJoinState;

  // The record of one request of a cycle.
  auto record_of = [&](const ChurnCycle& cy, uint8_t bits) {
    McMemberRecord r;
    r.mgid = groups[cy.group];
    r.port_gid = make_gid(port.info().prefix, guids[cy.port]);
    r.pkey = static_cast<uint16_t>(parse_u64(o.pkey));
    r.join_state = bits;
    return r;
  };
  // Counts an answer; true when it is status 0. Every answer's record must carry the group's MLID (the
  // first one seen), and a join's record the JoinState bits joined.
  auto judge = [&](const Outcome& out, const ChurnCycle& cy, bool join) {
    if (out.tries > 1) ++retried;
    if (!out.answer) {
      ++statuses[out.unroutable ? "unroutable" : "timeout"];
      return false;
    }
    const SaHeader h = parse_sa_header(out.answer->mad);
    if (h.status != 0) {
      ++statuses[hex_text(h.status)];
      return false;
    }
    const McMemberRecord got = decode_mcmember_record(std::span(out.answer->mad).subspan(kSaDataOffset));
    if (mlid[cy.group] == 0) mlid[cy.group] = got.mlid;
    if (got.mlid != mlid[cy.group]) ++mlid_mismatch;
    if (join && (got.join_state & cy.joined) != cy.joined) ++state_mismatch;
    return true;
  };
  std::function<void(ChurnCycle)> send_leave = [&](ChurnCycle cy) {
    const uint8_t bits = cy.leaves.front();
    const Mad mad = build_sa_mad(request_header(kMethodDelete, kAttrMcMemberRecord, mask, c),
                                 encode_mcmember_record(record_of(cy, bits)));
    tx.submit(mad, [&, cy](const Outcome& out) mutable {
      ++(judge(out, cy, false) ? leaves_ok : leaves_failed);
      cy.leaves.erase(cy.leaves.begin());
      if (!cy.leaves.empty()) return send_leave(cy);
      busy[cy.port] = false;
      ++finished;
    });
  };
  auto start_cycle = [&]() {
    ChurnCycle cy;
    for (;;) {  // a free port, and a group it does not hold
      cy.port = std::uniform_int_distribution<std::size_t>(0, guids.size() - 1)(rng);
      cy.group = std::uniform_int_distribution<std::size_t>(0, groups.size() - 1)(rng);
      if (!busy[cy.port] && !held[cy.group][cy.port]) break;
    }
    cy.joined = static_cast<uint8_t>(std::uniform_int_distribution<int>(1, 15)(rng));
    cy.leaves = churn_leaves(cy.joined, rng);
    if (cy.leaves.size() > 1) ++split;
    ++by_state[cy.joined];
    busy[cy.port] = true;
    ++started;
    const Mad mad = build_sa_mad(request_header(kMethodSet, kAttrMcMemberRecord, mask, c),
                                 encode_mcmember_record(record_of(cy, cy.joined)));
    tx.submit(mad, [&, cy](const Outcome& out) {
      if (judge(out, cy, true)) {
        ++joins_ok;
        send_leave(cy);
        return;
      }
      ++joins_failed;  // nothing joined, nothing to undo
      busy[cy.port] = false;
      ++finished;
    });
  };
  const auto t0 = Clock::now();
  const auto cycles = static_cast<uint64_t>(o.cycles);
  while (finished < cycles) {
    while (started < cycles && tx.outstanding() < static_cast<std::size_t>(o.window)) start_cycle();
    tx.pump(20);
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  json mlids = json::object();
  for (std::size_t g = 0; g < groups.size(); ++g) mlids[gid_text(groups[g])] = hex_text(mlid[g]);
  json states = json::object();
  for (int s = 1; s < 16; ++s) states[std::to_string(s)] = by_state[static_cast<std::size_t>(s)];
  const json j = {{"summary", "churn"},
                  {"cycles", finished},
                  {"ports", guids.size()},
                  {"groups", groups.size()},
                  {"window", o.window},
                  {"seed", o.seed},
                  {"joins_ok", joins_ok},
                  {"joins_failed", joins_failed},
                  {"leaves_ok", leaves_ok},
                  {"leaves_failed", leaves_failed},
                  {"split_leaves", split},
                  {"retried", retried},
                  {"mlid_mismatch", mlid_mismatch},
                  {"join_state_mismatch", state_mismatch},
                  {"mlids", mlids},
                  {"join_states", states},
                  {"errors", statuses},
                  {"stray_answers", tx.stray_answers()},
                  {"seconds", elapsed},
                  {"cycles_per_s", static_cast<double>(finished) / elapsed}};
  std::cout << j.dump() << "\n";
  return joins_failed + leaves_failed + mlid_mismatch + state_mismatch == 0 ? 0 : 1;
}

std::atomic<bool> g_stop{false};

// One InformInfo Set (subscribe or unsubscribe) for a trap; true when the SA answered status 0.
bool inform(Transactions& tx, uint16_t sm, const Common& c, uint16_t trap, bool subscribe) {
  InformInfo ii;
  ii.trap_number = trap;
  ii.subscribe = subscribe;
  const Outcome o =
      run_one(tx, build_sa_mad(request_header(kMethodSet, kAttrInformInfo, 0, c), encode_inform_info(ii)));
  const char* what = subscribe ? "subscribe" : "unsubscribe";
  if (!o.answer) {
    std::cerr << "sa_client: InformInfo Set (" << what << " trap " << trap << "): " << no_answer_text(o, sm) << "\n";
    return false;
  }
  const SaHeader h = parse_sa_header(o.answer->mad);
  const InformInfo echo = decode_inform_info(std::span(o.answer->mad).subspan(kSaDataOffset));
  json j = {{"inform", what},
            {"trap", trap},
            {"status", hex_text(h.status)},
            {"method", hex_text(h.method)},
            {"echo_subscribe", echo.subscribe},
            {"echo_trap", echo.trap_number},
            {"echo_qpn", echo.qpn}};
  std::cout << j.dump() << "\n";
  if (h.status != 0 || h.method != kMethodGetResp) {
    std::cerr << "sa_client: InformInfo Set (" << what << " trap " << trap << ") to SM LID " << sm << ": status "
              << hex_text(h.status) << " method " << hex_text(h.method) << "\n";
    return false;
  }
  return true;
}

// Answers a Report with a ReportResp (same TID and attribute) and prints the Notice it carried.
void on_report(UmadPort& port, const Received& r) {
  const SaHeader h = parse_sa_header(r.mad);
  if (h.method != kMethodReport) return;
  Mad resp = r.mad;
  resp[3] = kMethodReportResp;
  put_be(resp, 4, 2, 0);
  if (!port.send(resp, r.src_lid, r.src_qpn, kGsiQkey))
    std::cerr << "sa_client: ReportResp to LID " << r.src_lid << " failed\n";
  const Notice n = decode_notice(std::span(r.mad).subspan(kSaDataOffset));
  json j = {{"report", n.trap_number},
            {"attr_id", hex_text(h.attr_id)},
            {"is_generic", n.is_generic},
            {"type", n.type},
            {"producer_type", hex_text(n.producer_type)},
            {"issuer_lid", n.issuer_lid},
            {"issuer_gid", gid_text(n.issuer_gid)},
            {"from_lid", r.src_lid},
            {"details", hex(n.details)}};
  if (n.trap_number == 64 || n.trap_number == 65 || n.trap_number == 66 || n.trap_number == 67)
    j["gid"] = gid_text(std::span(n.details).subspan(6, 16));  // 6 reserved bytes, then the GID
  std::cout << j.dump() << std::endl;
}

// subscribe: InformInfo for each trap, Reports for seconds (each answered), then unsubscribe. Under ibsim
// give --issm: Reports reach only issm clients, and SIM_SET_ISSM=1 instead races the shim's receive thread
// against the class registrations (a MAD for a class not yet registered crashes it).
int mode_subscribe(const Common& c, const std::vector<int>& traps, double seconds, bool issm) {
  UmadPort port;
  if (issm) port.open_issm();
  const uint16_t sm = sm_lid_of(port, c);
  Transactions tx(port, sm, c.timeout_ms, c.retries);
  tx.on_unsolicited([&](const Received& r) { on_report(port, r); });
  std::signal(SIGINT, [](int) { g_stop = true; });
  std::signal(SIGTERM, [](int) { g_stop = true; });
  bool all = true;
  std::vector<int> subscribed;
  for (int t : traps) {
    if (inform(tx, sm, c, static_cast<uint16_t>(t), true)) {
      subscribed.push_back(t);
    } else {
      all = false;
    }
  }
  const auto stop = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (!g_stop && Clock::now() < stop) tx.pump(100);
  for (int t : subscribed) all = inform(tx, sm, c, static_cast<uint16_t>(t), false) && all;
  return all ? 0 : 1;
}

// respond: a stand-in SA that does no work. Every SA Get that reaches this client (it holds the issm
// device, so ibsim hands it the requests sent to its LID) is answered at once with the request itself
// turned into a GetResp with status 0. Load clients aimed at it with --sm-lid measure what ibsim, the shim
// and the clients carry with an SA that costs nothing: the ceiling an SA can be compared against here.
int mode_respond(double seconds) {
  UmadPort port;
  port.open_issm();
  std::signal(SIGINT, [](int) { g_stop = true; });
  std::signal(SIGTERM, [](int) { g_stop = true; });
  uint64_t answered = 0;
  std::cerr << "sa_client respond: answering SA Gets at LID " << port.info().lid << "\n";
  const auto stop = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (!g_stop && Clock::now() < stop) {
    const std::optional<Received> r = port.recv(100);
    if (!r || r->status != 0 || r->mad[1] != 0x03 || r->mad[3] != kMethodGet) continue;
    Mad resp = r->mad;
    resp[3] = kMethodGetResp;
    put_be(resp, 4, 2, 0);
    if (port.send(resp, r->src_lid, r->src_qpn, kGsiQkey)) ++answered;
  }
  std::cout << json{{"answered", answered}}.dump() << std::endl;
  return 0;
}

}  // namespace
}  // namespace sa_client

int main(int argc, char** argv) {
  using namespace sa_client;
  CLI::App app{"sa_client: an independent SA witness and load client (libibumad only)"};
  app.require_subcommand(1);
  Common c;
  app.add_option("--timeout-ms", c.timeout_ms, "per-try timeout")->capture_default_str();
  app.add_option("--retries", c.retries, "retries after the first try")->capture_default_str();
  app.add_option("--sm-lid", c.sm_lid, "SM LID to address (default: the port's)");
  app.add_option("--smkey", c.smkey, "SM_Key (hex) in every request")->capture_default_str();

  std::string file, attr = "0x35", method = "get", mask = "0", data_hex, attr_mod = "0";
  bool by_lid = false;
  int window = 16;
  double seconds = 20;
  uint64_t seed = 0;
  auto* paths = app.add_subcommand("paths", "PathRecord Get for every pair of a file");
  paths->add_option("--pairs", file, "lines 'SGUID DGUID' (hex), or 'SLID DLID' with --by-lid")->required();
  paths->add_flag("--by-lid", by_lid, "query by SLID|DLID");
  paths->add_option("--window", window, "outstanding requests")->capture_default_str();

  auto* load = app.add_subcommand("load", "PathRecord Gets to random targets, window outstanding");
  load->add_option("--targets", file, "port GUIDs (hex), one a line")->required();
  load->add_option("--window", window)->capture_default_str();
  load->add_option("--seconds", seconds)->capture_default_str();
  load->add_option("--seed", seed, "random seed (0: random)");
  bool json_flag = true;
  load->add_flag("--json", json_flag, "output is JSON (always)");
  std::string latency_file;
  load->add_option("--latency-file", latency_file, "write every answer's latency (us), one a line");

  auto* respond = app.add_subcommand("respond", "a stand-in SA that answers every Get at once (the ceiling)");
  respond->add_option("--seconds", seconds)->capture_default_str();

  auto* get = app.add_subcommand("get", "one arbitrary SA request");
  get->add_option("--attr", attr, "attribute ID")->required();
  get->add_option("--method", method, "get|gettable|set|delete|<number>")->capture_default_str();
  get->add_option("--mask", mask, "ComponentMask (hex)");
  get->add_option("--data-hex", data_hex, "record bytes at data offset 56 (hex)");
  get->add_option("--attr-mod", attr_mod, "AttributeModifier");

  std::string op, id, name, gid, pkey;
  int64_t lease = -1;
  auto* service = app.add_subcommand("service", "ServiceRecord Set/Get/Delete");
  service->add_option("op", op, "set|get|delete")->required()->check(CLI::IsMember({"set", "get", "delete"}));
  service->add_option("--id", id, "ServiceID (hex)")->required();
  service->add_option("--name", name, "ServiceName")->required();
  service->add_option("--lease", lease, "ServiceLease in seconds (masked in only when given)");
  service->add_option("--gid", gid, "ServiceGID's port GUID (hex; default this port)");
  service->add_option("--pkey", pkey, "ServiceP_Key (masked in only when given)");

  std::vector<int> traps;
  auto* subscribe = app.add_subcommand("subscribe", "InformInfo subscribe, print Reports, unsubscribe");
  subscribe->add_option("--trap", traps, "trap numbers")->required()->delimiter(',');
  subscribe->add_option("--seconds", seconds)->capture_default_str();
  bool issm = false;
  subscribe->add_flag("--issm", issm, "open the issm device after registering (needed under ibsim)");

  McmOptions mcm;
  auto* join = app.add_subcommand("join", "MCMemberRecord Set (join) for this port or, as proxy, for others");
  auto* leave = app.add_subcommand("leave", "MCMemberRecord Delete (leave) for this port or others");
  for (auto* sub : {join, leave}) {
    sub->add_option("--mgid", mcm.mgid, "the group's MGID")->capture_default_str();
    sub->add_option("--port", mcm.ports, "a port GUID (hex) to join for; repeatable");
    sub->add_option("--ports", mcm.ports_file, "port GUIDs (hex), one a line");
    sub->add_option("--join-state", mcm.join_state, "JoinState bits: 1 full, 2 non, 4 send-only non, 8 send-only full")
        ->capture_default_str();
    sub->add_option("--pkey", mcm.pkey, "P_Key")->capture_default_str();
    sub->add_flag("--create", mcm.create, "also send Q_Key, TClass, FlowLabel and SL (what creating needs)");
    sub->add_option("--qkey", mcm.qkey, "Q_Key with --create")->capture_default_str();
    sub->add_option("--window", mcm.window, "outstanding requests")->capture_default_str();
    sub->add_flag("--snm", mcm.snm, "each port its own solicited-node MGID: --mgid's low 24 bits := the port GUID's");
  }
  std::string groups_mgid;
  auto* groups = app.add_subcommand("groups", "MCMemberRecord GetTable");
  groups->add_option("--mgid", groups_mgid, "only this group");

  ChurnOptions churn_o;
  auto* churn = app.add_subcommand("churn", "join/leave cycles with mixed JoinState bits on existing groups");
  churn->add_option("--ports", churn_o.ports_file, "port GUIDs (hex), one a line")->required();
  churn->add_option("--cycles", churn_o.cycles)->capture_default_str();
  churn->add_option("--seed", churn_o.seed)->capture_default_str();
  churn->add_option("--mgid", churn_o.mgids, "a group to churn on; repeatable (default the IPoIB broadcast group)");
  churn->add_option("--hold", churn_o.holds, "MGID=GUID: never churn that port on that group (it holds it)");
  churn->add_option("--window", churn_o.window, "cycles in flight (each on its own port)")->capture_default_str();
  churn->add_option("--pkey", churn_o.pkey, "P_Key")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  try {
    if (*paths) return mode_paths(c, file, by_lid, window);
    if (*load) return mode_load(c, file, window, seconds, seed, latency_file);
    if (*get) return mode_get(c, attr, method, mask, data_hex, attr_mod);
    if (*service) return mode_service(c, op, id, name, lease, gid, pkey);
    if (*subscribe) return mode_subscribe(c, traps, seconds, issm);
    if (*respond) return mode_respond(seconds);
    if (*join) return mode_mcm(c, mcm, true);
    if (*leave) return mode_mcm(c, mcm, false);
    if (*groups) return mode_groups(c, groups_mgid);
    if (*churn) return mode_churn(c, churn_o);
  } catch (const std::exception& e) {
    std::cerr << "sa_client: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
