#include "routing/roce/rail_layout.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

namespace smd::roce {

std::optional<std::pair<std::string, std::string>> split_host_device(const std::string& name) {
  const std::size_t space = name.rfind(' ');
  if (space == std::string::npos || space == 0 || space + 1 == name.size()) return std::nullopt;
  std::string host = name.substr(0, space);
  while (!host.empty() && host.back() == ' ') host.pop_back();
  if (host.empty()) return std::nullopt;
  return std::pair{std::move(host), name.substr(space + 1)};
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      // Compare the numbers without converting: leading zeros off, then length, then digits.
      std::size_t ia = i, jb = j;
      while (ia + 1 < ie && a[ia] == '0') ++ia;
      while (jb + 1 < je && b[jb] == '0') ++jb;
      if (ie - ia != je - jb) return ie - ia < je - jb;
      const int c = a.compare(ia, ie - ia, b, jb, je - jb);
      if (c != 0) return c < 0;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

RailDetection detect_rail_layout(std::span<const std::string> endpoint_names) {
  RailDetection out;
  std::vector<std::string> host_names;
  std::unordered_map<std::string, std::uint32_t> host_index;
  std::vector<std::vector<std::pair<std::string, std::uint32_t>>> devices;  // per host: (device, endpoint)
  std::size_t split = 0;
  for (std::uint32_t e = 0; e < endpoint_names.size(); ++e) {
    auto hd = split_host_device(endpoint_names[e]);
    if (!hd) continue;
    ++split;
    const auto [it, fresh] = host_index.emplace(hd->first, static_cast<std::uint32_t>(host_names.size()));
    if (fresh) {
      host_names.push_back(hd->first);
      devices.emplace_back();
    }
    devices[it->second].emplace_back(hd->second, e);
  }
  if (split == 0) return out;  // no name of the form: nothing to explain
  if (split != endpoint_names.size()) {
    out.why_not = std::to_string(endpoint_names.size() - split) + " of " + std::to_string(endpoint_names.size()) +
                  " endpoint names are not \"<host> <device>\"";
    return out;
  }
  const std::size_t rails = devices.front().size();
  for (std::size_t h = 0; h < devices.size(); ++h) {
    if (devices[h].size() != rails) {
      out.why_not = "host '" + host_names[h] + "' has " + std::to_string(devices[h].size()) + " HCAs, host '" +
                    host_names[0] + "' " + std::to_string(rails);
      return out;
    }
  }
  if (rails < 2) return out;  // one HCA per host: the single-HCA fabric every CA name of Linux gives
  RailLayout layout;
  layout.rails = rails;
  layout.host_of_endpoint.assign(endpoint_names.size(), 0);
  for (std::size_t h = 0; h < devices.size(); ++h) {
    auto& d = devices[h];
    std::sort(d.begin(), d.end(), [](const auto& x, const auto& y) { return natural_less(x.first, y.first); });
    for (std::size_t i = 1; i < d.size(); ++i) {
      if (d[i].first == d[i - 1].first) {
        out.why_not = "host '" + host_names[h] + "' has two HCAs named '" + d[i].first + "'";
        return out;
      }
    }
    for (const auto& [device, e] : d) {
      layout.hca.push_back(e);
      layout.host_of_endpoint[e] = static_cast<std::uint32_t>(h);
    }
  }
  layout.host_names = std::move(host_names);
  out.layout = std::move(layout);
  return out;
}

Result<std::vector<std::uint32_t>> job_hosts(const RailLayout& layout, std::span<const std::uint32_t> ranks) {
  std::vector<std::uint32_t> hosts;
  std::vector<std::uint32_t> count(layout.hosts(), 0);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] >= layout.host_of_endpoint.size()) {
      return make_error(ErrorCode::kInvalidInput,
                        "rank " + std::to_string(i) + " names endpoint " + std::to_string(ranks[i]) + ", out of range");
    }
    const std::uint32_t h = layout.host_of_endpoint[ranks[i]];
    if (count[h]++ == 0) hosts.push_back(h);
  }
  for (const std::uint32_t h : hosts) {
    if (count[h] != layout.rails) {
      return make_error(ErrorCode::kInvalidInput, "host '" + layout.host_names[h] + "' has " +
                                                      std::to_string(layout.rails) + " HCAs and the job holds " +
                                                      std::to_string(count[h]) +
                                                      " of them: on a multi-HCA fabric a job takes whole hosts");
    }
  }
  return hosts;
}

std::vector<std::uint32_t> host_ranks(const RailLayout& layout, std::span<const std::uint32_t> hosts) {
  std::vector<std::uint32_t> out;
  out.reserve(hosts.size() * layout.rails);
  for (const std::uint32_t h : hosts) {
    for (std::size_t i = 0; i < layout.rails; ++i) out.push_back(layout.endpoint(h, i));
  }
  return out;
}

std::vector<SwitchIndex> host_leaves(const RailLayout& layout, std::span<const SwitchIndex> leaf_of_endpoint) {
  std::vector<SwitchIndex> out;
  out.reserve(layout.hosts());
  for (std::size_t h = 0; h < layout.hosts(); ++h) out.push_back(leaf_of_endpoint[layout.endpoint(h, 0)]);
  return out;
}

}  // namespace smd::roce
