#include "routing/roce/placement.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "routing/quality/seeded_shuffle.h"

namespace smd::roce {
namespace {

Error bad(std::string_view text, const std::string& why) {
  return make_error(ErrorCode::kInvalidInput, "--placement '" + std::string(text) + "': " + why +
                                                  " (contiguous:N, fragmented:N,FILL[,across] or random:N,SEED)");
}

/// A whole decimal number, nothing else.
bool whole_number(std::string_view s, std::uint64_t& v) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc{} && end == s.data() + s.size();
}

}  // namespace

Result<PlacementSpec> parse_placement(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return bad(text, "no ':'");
  const std::string_view kind = text.substr(0, colon);
  const std::string_view args = text.substr(colon + 1);
  const std::size_t comma = args.find(',');
  const std::string_view n_text = args.substr(0, comma);
  const std::string_view second = comma == std::string_view::npos ? std::string_view{} : args.substr(comma + 1);
  PlacementSpec spec;
  if (kind == "contiguous") {
    spec.kind = PlacementKind::kContiguous;
    if (comma != std::string_view::npos) return bad(text, "contiguous takes only N");
  } else if (kind == "fragmented" || kind == "random") {
    spec.kind = kind == "random" ? PlacementKind::kRandom : PlacementKind::kFragmented;
    if (comma == std::string_view::npos) return bad(text, std::string(kind) + " needs a second number");
  } else {
    return bad(text, "unknown placement '" + std::string(kind) + "'");
  }
  std::uint64_t n = 0;
  if (!whole_number(n_text, n) || n < 2 || n > (1u << 24)) return bad(text, "N must be a number from 2 to 16777216");
  spec.ranks = static_cast<std::size_t>(n);
  if (spec.kind == PlacementKind::kRandom && !whole_number(second, spec.seed)) {
    return bad(text, "SEED must be a whole number");
  }
  if (spec.kind == PlacementKind::kFragmented) {
    std::string_view fill_text = second;
    if (const std::size_t order = second.find(','); order != std::string_view::npos) {
      if (second.substr(order + 1) != "across") return bad(text, "the order after FILL can only be 'across'");
      spec.across = true;
      fill_text = second.substr(0, order);
    }
    double fill = 0;
    const auto [end, ec] = std::from_chars(fill_text.data(), fill_text.data() + fill_text.size(), fill);
    if (fill_text.empty() || ec != std::errc{} || end != fill_text.data() + fill_text.size() || !(fill > 0) ||
        fill > 1) {
      return bad(text, "FILL must be a number in (0, 1]");
    }
    spec.fill = fill;
  }
  return spec;
}

Result<std::vector<std::uint32_t>> place_job(const PlacementSpec& spec,
                                             std::span<const SwitchIndex> leaf_of_endpoint) {
  const std::size_t total = leaf_of_endpoint.size();
  const std::string need = std::to_string(spec.ranks) + " ranks";
  if (spec.ranks > total) {
    return make_error(ErrorCode::kInvalidInput,
                      "placement: " + need + " asked, the fabric has " + std::to_string(total) + " endpoints");
  }
  std::vector<std::uint32_t> out;
  switch (spec.kind) {
    case PlacementKind::kContiguous:
      for (std::uint32_t e = 0; e < spec.ranks; ++e) out.push_back(e);
      break;
    case PlacementKind::kRandom: {
      const auto order = seeded_shuffle(total, spec.seed);
      out.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(spec.ranks));
      break;
    }
    case PlacementKind::kFragmented: {
      // Hosts of each leaf in endpoint order, leaves in order of first appearance.
      std::vector<std::vector<std::uint32_t>> leaves;
      std::unordered_map<SwitchIndex, std::size_t> index;
      for (std::uint32_t e = 0; e < total; ++e) {
        const auto [it, fresh] = index.emplace(leaf_of_endpoint[e], leaves.size());
        if (fresh) leaves.emplace_back();
        leaves[it->second].push_back(e);
      }
      std::vector<std::vector<std::uint32_t>> taken;
      std::size_t count = 0;
      for (const auto& hosts : leaves) {
        const auto share = static_cast<std::size_t>(std::floor(spec.fill * static_cast<double>(hosts.size()) + 1e-9));
        const std::size_t take = std::min({std::max<std::size_t>(1, share), hosts.size(), spec.ranks - count});
        taken.emplace_back(hosts.begin(), hosts.begin() + static_cast<std::ptrdiff_t>(take));
        count += take;
        if (count == spec.ranks) break;
      }
      if (!spec.across) {
        for (const auto& hosts : taken) out.insert(out.end(), hosts.begin(), hosts.end());
      } else {
        // Round after round, the next host of every leaf that still has one.
        for (std::size_t round = 0; out.size() < count; ++round) {
          for (const auto& hosts : taken) {
            if (round < hosts.size()) out.push_back(hosts[round]);
          }
        }
      }
      if (out.size() < spec.ranks) {
        return make_error(ErrorCode::kInvalidInput, "placement: " + need + " asked, " + std::to_string(leaves.size()) +
                                                        " leaves at fill " + std::to_string(spec.fill) + " hold " +
                                                        std::to_string(out.size()));
      }
      break;
    }
  }
  return out;
}

std::size_t leaves_spanned(std::span<const std::uint32_t> ranks, std::span<const SwitchIndex> leaf_of_endpoint) {
  std::unordered_set<SwitchIndex> seen;
  for (const auto e : ranks) {
    if (e < leaf_of_endpoint.size()) seen.insert(leaf_of_endpoint[e]);
  }
  return seen.size();
}

}  // namespace smd::roce
