#include "smd/cli/job_file.h"

#include <charconv>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "config/text_file.h"
#include "routing/quality/flow_trace.h"

namespace smd {
namespace {

constexpr std::size_t kMaxJobBytes = 16u << 20;  // ~20 bytes a rank: far beyond any fabric

/// "0x" followed by 1..16 hex digits.
bool parse_guid(const std::string& s, Guid& g) {
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  const auto [end, ec] = std::from_chars(s.data() + 2, s.data() + s.size(), g, 16);
  return ec == std::errc{} && end == s.data() + s.size();
}

/// 1..0xBFFF in decimal: a unicast LID.
bool parse_lid(const std::string& s, Lid& lid) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || v == 0 || v > 0xBFFF) return false;
  lid = static_cast<Lid>(v);
  return true;
}

}  // namespace

std::vector<JobEndpoint> job_endpoints(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::vector<JobEndpoint> out;
  for (const auto& e : tracer.endpoints()) {
    const Node& ca = topo.node(e.ca);
    out.push_back(JobEndpoint{ca.ports[e.port].guid, e.lid, ca.description});
  }
  return out;
}

namespace {

/// The names a job file line may give, each mapped to the comparison's endpoints: port GUID, base LID, CA
/// name, and on a multi-HCA fabric a host (all its HCAs).
class EndpointNames {
 public:
  EndpointNames(const std::vector<JobEndpoint>& endpoints, const roce::RailLayout* rails) : rails_(rails) {
    for (std::uint32_t e = 0; e < endpoints.size(); ++e) {
      by_guid_.emplace(endpoints[e].port_guid, e);
      by_lid_.emplace(endpoints[e].lid, e);
      if (!endpoints[e].name.empty()) {
        by_name_.emplace(endpoints[e].name, e);
        ++ports_named_[endpoints[e].name];
      }
    }
    for (std::uint32_t h = 0; rails && h < rails->hosts(); ++h) by_host_.emplace(rails->host_names[h], h);
  }

  /// The endpoints `word` names (several for a host); errors start with `where` and quote `shown`.
  Result<std::vector<std::uint32_t>> resolve(const std::string& word, const std::string& where,
                                             const std::string& shown) const {
    std::vector<std::uint32_t> out;
    if (auto host = by_host_.find(word); host != by_host_.end() && !by_name_.count(word)) {
      for (std::size_t i = 0; i < rails_->rails; ++i) out.push_back(rails_->endpoint(host->second, i));
      return out;
    }
    Guid guid = 0;
    Lid lid = 0;
    if (parse_guid(word, guid)) {
      if (auto it = by_guid_.find(guid); it != by_guid_.end()) out.push_back(it->second);
    } else if (parse_lid(word, lid)) {
      if (auto it = by_lid_.find(lid); it != by_lid_.end()) out.push_back(it->second);
    } else if (auto it = by_name_.find(word); it != by_name_.end()) {
      if (const std::size_t n = ports_named_.at(word); n > 1) {
        return make_error(ErrorCode::kInvalidInput, where + "'" + shown + "' names " + std::to_string(n) +
                                                        " ports (CAs of one name, or a CA with several ports): "
                                                        "give the port GUID or LID");
      }
      out.push_back(it->second);
    }
    if (out.empty()) {
      return make_error(ErrorCode::kInvalidInput,
                        where + "'" + shown + "' is no endpoint of the comparison (port GUID, base LID or CA name)");
    }
    return out;
  }

 private:
  const roce::RailLayout* rails_;
  std::unordered_map<Guid, std::uint32_t> by_guid_;
  std::unordered_map<Lid, std::uint32_t> by_lid_;
  std::unordered_map<std::string, std::uint32_t> by_name_;
  std::unordered_map<std::string, std::size_t> ports_named_;  // two CAs of one name, or a multi-port CA
  std::unordered_map<std::string, std::uint32_t> by_host_;    // multi-HCA fabric: host name -> host index
};

/// On a multi-HCA fabric a job takes whole hosts. A host held in part is reported at the line of its first
/// HCA: where the operator has to look.
Status check_whole_hosts(const std::string& path, const roce::Job& job, const roce::RailLayout& rails,
                         const std::unordered_map<std::uint32_t, unsigned>& line_of) {
  std::vector<std::size_t> held(rails.hosts(), 0);
  for (const std::uint32_t e : job.ranks) ++held[rails.host_of_endpoint[e]];
  for (const std::uint32_t e : job.ranks) {
    const std::uint32_t h = rails.host_of_endpoint[e];
    if (held[h] == rails.rails) continue;
    return make_error(ErrorCode::kInvalidInput,
                      path + ":" + std::to_string(line_of.at(e)) + ": host '" + rails.host_names[h] + "' has " +
                          std::to_string(rails.rails) + " HCAs and the job names " + std::to_string(held[h]) +
                          " of them: on a multi-HCA fabric a job takes whole hosts (a line may name the host)");
  }
  return Ok{};
}

}  // namespace

Result<roce::Job> read_job_file(const std::string& path, const std::vector<JobEndpoint>& endpoints,
                                const roce::RailLayout* rails) {
  auto text = read_regular_file(path, kMaxJobBytes, "job file");
  if (!text) return make_error(ErrorCode::kInvalidInput, text.error().message);  // an input problem: exit 2
  const EndpointNames names(endpoints, rails);
  roce::Job job{path, {}};
  std::unordered_map<std::uint32_t, unsigned> line_of;  // endpoint -> line it was given on
  std::istringstream in(std::move(text).value());
  std::string line;
  for (unsigned number = 1; std::getline(in, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    // The whole line is the endpoint: an ibnetdiscover NodeDescription holds spaces ("mlx5_0 node-7").
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const std::string word = line.substr(first, line.find_last_not_of(" \t\r") + 1 - first);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    // A runaway line (a binary file, a missing newline) is named by its start, not echoed whole.
    const std::string shown = word.size() > 80 ? word.substr(0, 80) + "..." : word;
    auto hcas = names.resolve(word, where, shown);
    if (!hcas) return hcas.error();
    for (const std::uint32_t hca : *hcas) {
      if (const auto [it, fresh] = line_of.emplace(hca, number); !fresh) {
        return make_error(ErrorCode::kInvalidInput,
                          where + "'" + shown + "' is already rank of line " + std::to_string(it->second));
      }
      job.ranks.push_back(hca);
    }
  }
  if (rails) {
    if (auto st = check_whole_hosts(path, job, *rails, line_of); !st) return st.error();
  }
  if (job.ranks.size() < 2) {
    return make_error(ErrorCode::kInvalidInput,
                      path + ": a job needs at least 2 ranks, found " + std::to_string(job.ranks.size()));
  }
  return job;
}

}  // namespace smd
