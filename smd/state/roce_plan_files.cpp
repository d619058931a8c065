#include "smd/state/roce_plan_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "config/text_file.h"
#include "routing/base/result_context.h"
#include "routing/roce/frr_writer.h"
#include "smd/state/atomic_file.h"

namespace smd {
namespace {

namespace fs = std::filesystem;

// Far above one switch's FRR config (some 10 kB for 64 ports).
constexpr std::size_t kMaxFrrConfigBytes = 4u << 20;

/// A JSON string literal; invalid UTF-8 (descriptions come from the fabric) is replaced, never thrown.
std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string quoted_ip(std::uint32_t ip) { return "\"" + roce::format_ipv4(ip) + "\""; }

void append_host(std::string& out, const Topology& topo, const roce::RoutePlan& plan, const roce::HostPlan& h) {
  const auto& leaf = plan.switches()[h.leaf];
  out += "{\"name\":" + quoted(h.name) + ",\"node_guid\":\"" + format_guid(topo.node(h.ca).guid) +
         "\",\"port\":" + std::to_string(h.port) + ",\"ip\":" + quoted_ip(h.ip) +
         ",\"prefix_len\":" + std::to_string(leaf.host_prefix.len) + ",\"gateway\":" + quoted_ip(leaf.gateway) +
         ",\"leaf\":" + quoted(leaf.hostname) + ",\"leaf_guid\":\"" + format_guid(leaf.guid) +
         "\",\"leaf_port\":" + std::to_string(h.leaf_port) + "}";
}

void append_switch(std::string& out, const roce::RoutePlan& plan, SwitchIndex s) {
  const auto& sw = plan.switches()[s];
  const auto& all = plan.switches();
  out += "{\"name\":" + quoted(sw.name) + ",\"node_guid\":\"" + format_guid(sw.guid) +
         "\",\"frr_dir\":" + quoted(sw.hostname) + ",\"asn\":" + std::to_string(sw.asn) +
         ",\"tier\":" + (sw.tier == roce::kNoTier ? std::string("null") : std::to_string(sw.tier)) +
         ",\"loopback\":\"" + roce::format_ipv4(sw.loopback) + "/32\",\"host_prefix\":" +
         (sw.has_hosts ? "\"" + roce::format_prefix(sw.host_prefix) + "\"" : std::string("null")) +
         ",\"gateway\":" + (sw.has_hosts ? quoted_ip(sw.gateway) : std::string("null")) + ",\"interfaces\":[";
  for (std::size_t i = 0; i < sw.interfaces.size(); ++i) {
    const auto& itf = sw.interfaces[i];
    if (i) out += ',';
    out += "{\"port\":" + std::to_string(itf.port) + ",\"ip\":\"" + roce::format_ipv4(itf.local_ip) +
           "/31\",\"peer\":" + quoted(all[itf.peer].hostname) + ",\"peer_guid\":\"" + format_guid(all[itf.peer].guid) +
           "\",\"peer_port\":" + std::to_string(itf.peer_port) + ",\"peer_ip\":" + quoted_ip(itf.peer_ip) + "}";
  }
  out += "],\"routes\":[";
  for (std::size_t i = 0; i < sw.routes.size(); ++i) {
    const auto& r = sw.routes[i];
    if (i) out += ',';
    out +=
        "{\"prefix\":\"" + roce::format_prefix(r.prefix) + "\",\"dest\":" + std::to_string(r.dest) + ",\"nexthops\":[";
    bool first = true;
    for (PortNum p : plan.fib().group(s, r.dest)) {
      out += first ? "{\"port\":" : ",{\"port\":";
      out += std::to_string(p);
      out += '}';
      first = false;
    }
    out += "]}";
  }
  out += "]}";
}

/// The whole regular file, or nullopt when it is missing, not a regular file (a FIFO or a link to
/// /dev/zero would block or never end) or larger than any FRR config: it then differs from every config,
/// and write_temporary says what stands there.
std::optional<std::string> read_frr_file(const fs::path& path) {
  auto text = read_regular_file(path.string(), kMaxFrrConfigBytes, "FRR config");
  if (!text.ok()) return std::nullopt;
  return std::move(text.value());
}

/// syncfs(2) on the file system holding `dir`: one call makes every file written there durable.
void sync_file_system(const std::string& dir) {
  if (const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
    ::syncfs(fd);
    ::close(fd);
  }
}

/// The frr.conf files of one update whose new text waits in frr.conf.tmp. Either every one is committed
/// (one syncfs for the new texts, then the renames; the caller syncs once more after them and any
/// removals) or, when the update fails part-way, every temporary left is removed with the directories the
/// update made and left empty: the tree is as it was.
class PendingConfigs {
 public:
  explicit PendingConfigs(std::string dir) : dir_(std::move(dir)) {}
  ~PendingConfigs() {
    for (std::size_t i = committed_; i < files_.size(); ++i) discard_temporary(files_[i].string());
    std::error_code ec;
    for (auto it = made_.rbegin(); it != made_.rend(); ++it) fs::remove(*it, ec);  // only if still empty
  }
  PendingConfigs(const PendingConfigs&) = delete;
  PendingConfigs& operator=(const PendingConfigs&) = delete;

  /// Make `sub` (and what is missing above it) for a config; kIo naming it when that fails.
  Status make_directory(const fs::path& sub) {
    std::error_code ec;
    fs::path missing = sub;
    std::vector<fs::path> made;
    while (!missing.empty() && !fs::exists(missing, ec)) made.push_back(missing), missing = missing.parent_path();
    fs::create_directories(sub, ec);
    if (ec) return make_error(ErrorCode::kIo, sub.string() + ": cannot create directory: " + ec.message());
    made_.insert(made_.end(), made.rbegin(), made.rend());
    return Ok{};
  }

  /// `text` into `file`.tmp (write_temporary's refusals).
  Status write(const fs::path& file, const std::string& text) {
    files_.push_back(file);  // before the write: a failed one leaves no temporary either, nothing to undo
    return write_temporary(file.string(), text);
  }

  /// Commit them all; Errors: the first rename that fails (the rest are removed by the destructor).
  Status commit() {
    if (files_.empty()) return Ok{};
    sync_file_system(dir_);
    for (; committed_ < files_.size(); ++committed_) {
      if (Status st = commit_temporary(files_[committed_].string()); !st.ok()) {
        ++committed_;  // commit_temporary removed this one's temporary itself
        return st;
      }
    }
    made_.clear();  // the directories hold committed configs now
    return Ok{};
  }
  std::size_t written() const { return files_.size(); }

 private:
  std::string dir_;
  std::vector<fs::path> files_;
  std::size_t committed_ = 0;
  std::vector<fs::path> made_;  // directories this update created, outermost first
};

}  // namespace

void write_plan_json(std::ostream& os, const Topology& topo, const roce::RoutePlan& plan) {
  std::string line = std::string("{\"schema\":\"") + kRocePlanSchema + "\",\"address_pools\":{\"hosts\":\"" +
                     roce::format_prefix(roce::kHostPool) + "\",\"links\":\"" + roce::format_prefix(roce::kP2pPool) +
                     "\",\"loopbacks\":\"" + roce::format_prefix(roce::kLoopbackPool) +
                     "\"},\"asn_scheme\":\"4200000000 + tier * 100000 + group (docs/roce.md)\",\"fib\":\"what eBGP "
                     "installs: own-AS rule, shortest AS path, every session offering it (docs/roce.md)\",\"notes\":[";
  for (std::size_t i = 0; i < plan.notes().size(); ++i) line += (i ? "," : "") + quoted(plan.notes()[i]);
  line += "],\n\"hosts\":[";
  os << line;
  for (std::size_t i = 0; i < plan.hosts().size(); ++i) {
    line.assign(i ? ",\n" : "\n");
    append_host(line, topo, plan, plan.hosts()[i]);
    os << line;
  }
  os << "],\n\"switches\":[";
  for (SwitchIndex s = 0; s < plan.switches().size(); ++s) {
    line.assign(s ? ",\n" : "\n");
    append_switch(line, plan, s);
    os << line;
  }
  os << "]}\n";
}

Status write_plan_file(const std::string& path, const Topology& topo, const roce::RoutePlan& plan) {
  return write_file_atomic_stream(path, [&](std::ostream& os) { write_plan_json(os, topo, plan); });
}

Status write_frr_configs(const std::string& dir, const roce::RoutePlan& plan) {
  const auto names = roce::switch_dir_names(plan);  // unique, FRR-safe hostnames
  PendingConfigs pending(dir);
  for (SwitchIndex s = 0; s < plan.switches().size(); ++s) {
    const fs::path sub = fs::path(dir) / names[s];
    if (Status st = pending.make_directory(sub); !st.ok()) return st;
    if (Status st = pending.write(sub / "frr.conf", roce::frr_config(plan, s, names[s])); !st.ok()) return st;
  }
  if (Status st = pending.commit(); !st.ok()) return st;
  if (pending.written() > 0) sync_file_system(dir);
  return Ok{};
}

Result<FrrUpdate> update_frr_dir(const std::string& dir, const roce::RoutePlan& plan) {
  FrrUpdate update;
  const auto names = roce::switch_dir_names(plan);
  std::error_code ec;
  // smd removes what it did not write in this directory: through a symlink that would be someone else's.
  if (fs::is_symlink(fs::symlink_status(dir, ec)))
    return make_error(ErrorCode::kIo, dir + ": is a symbolic link; smd writes (and cleans) only a real directory");
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::kIo, dir + ": cannot create directory: " + ec.message());
  // One syncfs for all new texts instead of an fsync per file (a first write has hundreds), then the
  // renames, then one more for the renames and removals.
  PendingConfigs pending(dir);
  for (SwitchIndex s = 0; s < plan.switches().size(); ++s) {
    const fs::path sub = fs::path(dir) / names[s];
    const fs::path file = sub / "frr.conf";
    const std::string text = roce::frr_config(plan, s, names[s]);
    if (read_frr_file(file) == text) {
      ++update.unchanged;
      continue;
    }
    SMD_RETURN_IF_ERROR(pending.make_directory(sub));  // the errors name the path
    SMD_RETURN_IF_ERROR(pending.write(file, text));
  }
  SMD_RETURN_IF_ERROR(pending.commit());
  update.written = pending.written();
  const std::set<std::string> current(names.begin(), names.end());
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (current.count(entry.path().filename().string())) continue;
    fs::remove_all(entry.path(), ec);
    if (ec) return make_error(ErrorCode::kIo, entry.path().string() + ": cannot remove: " + ec.message());
    ++update.removed;
  }
  if (update.written || update.removed) sync_file_system(dir);
  return update;
}

}  // namespace smd
