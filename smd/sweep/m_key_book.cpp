#include "smd/sweep/m_key_book.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include "smd/program/port_m_key.h"
#include "smd/state/atomic_file.h"

namespace smd {

namespace {

// The port whose M_Key guards SMPs that arrive at port `p` of `node`: a switch has one, at port 0.
MKeyHop hop_of(const Node& node, PortNum p) {
  const PortNum key_port = node.is_switch() ? 0 : p;
  return {node.guid, p, node.ports[key_port].guid, node.is_switch()};
}

void add_unique(std::vector<std::uint64_t>& keys, std::uint64_t key) {
  if (key != 0 && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
}

std::string guid_text(Guid g) { return fmt::format("0x{:016x}", g); }

}  // namespace

void MKeyBook::set_policy(const SecurityPolicy& security) {
  if (secret_ != 0 && security.m_key != secret_) {
    std::erase(earlier_secrets_, secret_);
    earlier_secrets_.insert(earlier_secrets_.begin(), secret_);
  }
  std::erase(earlier_secrets_, security.m_key);
  secret_ = security.m_key;
  per_port_ = security.m_key_per_port;
}

void MKeyBook::begin_sweep(const std::string& state_dir) {
  unknown_paths_.clear();
  if (loaded_) return;
  loaded_ = true;
  if (auto r = read_guid2mkey(state_dir + "/guid2mkey"); !r) {
    guid2mkey_refused_ = true;
    spdlog::error("guid2mkey: {}; ports protected by keys it held may be unreachable until their lease ends",
                  r.error().message);
  } else {
    for (const std::string& p : r->problems) spdlog::warn("guid2mkey: {}", p);
    guid2mkey_ = std::move(r->entries);
    guid2mkey_written_ = format_guid2mkey(guid2mkey_);
  }
  if (auto r = read_neighbors(state_dir + "/neighbors"); !r) {
    neighbors_refused_ = true;
    spdlog::error("neighbors: {}", r.error().message);
  } else {
    for (const std::string& p : r->problems) spdlog::warn("neighbors: {}", p);
    neighbors_ = std::move(r->entries);
    neighbors_written_ = format_neighbors(neighbors_);
  }
  if (!guid2mkey_.empty()) spdlog::info("M_Key: {} port keys read from guid2mkey", guid2mkey_.size());
}

void MKeyBook::learn(const SweepFabric& fabric) {
  const Topology& topo = fabric.topo();
  if (topo.size() == 0) return;
  const Node& sm = topo.node(topo.sm_node);
  neighbors_.sm = hop_of(sm, sm.is_switch() ? 0 : topo.sm_port);
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      neighbors_.links.insert_or_assign(std::pair{node.guid, p}, hop_of(topo.node(port.peer), port.peer_port));
    }
    // The keys the endports showed (level 0, or our own key at level 1) or acknowledged taking.
    for (PortNum p = node.is_switch() ? 0 : 1; p <= (node.is_switch() ? 0 : node.num_ports); ++p) {
      const mad::PortInfo* pi = fabric.port_info(n, p);
      if (pi == nullptr) continue;
      const Guid g = node.ports[p].guid;
      if (pi->m_key != 0) {
        guid2mkey_[g] = pi->m_key;
      } else if (pi->m_key_protect_bits == 0) {
        guid2mkey_.erase(g);  // no key and nothing hidden: the port holds none
      }
    }
  }
}

void MKeyBook::save(const std::string& state_dir) {
  if (secret_ == 0 && guid2mkey_.empty()) return;  // no M_Keys in this subnet: no files
  auto write = [&](const char* name, std::string text, bool refused, std::optional<std::string>& written) {
    if (refused) return;
    const std::string path = state_dir + "/" + name;
    std::error_code ec;
    if (written && *written == text && std::filesystem::exists(path, ec)) return;
    if (Status st = write_file_atomic(path, text); !st.ok()) {
      spdlog::error("{}: {}", name, st.error().message);
      written.reset();
      return;
    }
    written = std::move(text);
  };
  write("guid2mkey", format_guid2mkey(guid2mkey_), guid2mkey_refused_, guid2mkey_written_);
  write("neighbors", format_neighbors(neighbors_), neighbors_refused_, neighbors_written_);
}

std::optional<MKeyHop> MKeyBook::resolve(const mad::DrPath& path) const {
  if (neighbors_.sm.node == 0) return std::nullopt;
  MKeyHop at = neighbors_.sm;
  for (unsigned i = 1; i <= path.hop_count(); ++i) {
    if (i > 1 && !at.is_switch) return std::nullopt;  // a CA forwards no directed route
    auto it = neighbors_.links.find({at.node, path.hop(i)});
    if (it == neighbors_.links.end()) return std::nullopt;
    at = it->second;
  }
  return at;
}

std::vector<std::uint64_t> MKeyBook::keys_for(const mad::DrPath& path) {
  std::vector<std::uint64_t> keys;
  if (secret_ == 0 && earlier_secrets_.empty() && guid2mkey_.empty()) return {0};
  const std::optional<MKeyHop> at = resolve(path);
  if (at) {
    if (auto it = guid2mkey_.find(at->key_port); it != guid2mkey_.end()) add_unique(keys, it->second);
    if (per_port_) add_unique(keys, derive_port_m_key(secret_, at->key_port));
  }
  add_unique(keys, secret_);
  for (std::uint64_t earlier : earlier_secrets_) {
    if (at) add_unique(keys, derive_port_m_key(earlier, at->key_port));
    add_unique(keys, earlier);
  }
  if (keys.empty()) keys.push_back(0);
  return keys;
}

void MKeyBook::key_answered(const mad::DrPath& path, std::uint64_t key) {
  const std::optional<MKeyHop> at = resolve(path);
  if (!at) return;
  guid2mkey_.insert_or_assign(at->key_port, key);
  spdlog::info("M_Key: port {} of node {} at DR path {} took another key than expected; recorded",
               guid_text(at->key_port), guid_text(at->node), path.to_string());
}

void MKeyBook::keys_exhausted(const mad::DrPath& path, const std::vector<std::uint64_t>& tried) {
  if (tried.size() == 1 && tried[0] == 0) return;  // no keys in play: an ordinary timeout
  if (!unknown_paths_.insert(path.to_string()).second) return;
  const std::optional<MKeyHop> at = resolve(path);
  spdlog::warn(
      "M_Key: {} at DR path {} answered none of {} keys smd may know (the policy's, derived, guid2mkey, "
      "earlier policies'): its key is unknown or it is gone. A protected port (level 2, 3) ignores every SMP, "
      "at level 1 every Set, until its M_KeyLeasePeriod runs out; a later sweep then gives it a fresh key",
      at ? "port " + guid_text(at->key_port) + " of node " + guid_text(at->node) : std::string("an unknown port"),
      path.to_string(), tried.size());
}

}  // namespace smd
