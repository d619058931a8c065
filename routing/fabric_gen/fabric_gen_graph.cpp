// Direct-network generators: torus/ring, mesh and random connected switch graphs.
#include <algorithm>
#include <random>
#include <unordered_set>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/fabric_gen/fabric_gen_builder.h"

namespace smd {
namespace {

using fabric_gen::bad_shape;
using fabric_gen::Builder;

}  // namespace

Result<std::vector<unsigned>> parse_torus_dims(std::string_view text) {
  const auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::kInvalidInput, "--dims '" + std::string(text) + "': " + why);
  };
  std::vector<unsigned> dims;
  std::size_t i = 0;
  for (;;) {
    const std::size_t start = i;
    unsigned long value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      value = std::min(value * 10 + static_cast<unsigned>(text[i++] - '0'), 100000ul);  // saturates, no overflow
    }
    if (i == start) {
      return bad(std::string(start == 0 ? "expected a size" : "expected a size after 'x'") + " at character " +
                 std::to_string(start + 1));
    }
    if (value < 1 || value > 4096) {
      return bad("size " + std::string(text.substr(start, i - start)) + " outside 1..4096");
    }
    dims.push_back(static_cast<unsigned>(value));
    if (i == text.size()) break;
    if (text[i] != 'x' && text[i] != 'X') {
      return bad("unexpected '" + std::string(1, text[i]) + "' at character " + std::to_string(i + 1) +
                 " (sizes are separated by 'x', like 4x4x2)");
    }
    ++i;
  }
  if (dims.size() > 3) return bad("at most 3 dimensions");
  return dims;
}

namespace {

/// A torus (`wrap`) or a mesh (no wraparound cables) of the shape make_torus describes; `kind` names it
/// in errors.
Result<Topology> make_grid(const char* kind, const std::vector<unsigned>& dims, unsigned hosts_per_switch, bool wrap) {
  if (dims.empty() || dims.size() > 3) return bad_shape(kind, "1 to 3 dimensions");
  std::size_t switches = 1;
  for (unsigned d : dims) {
    if (d < 1 || d > 4096) return bad_shape(kind, "every dimension must be 1..4096");
    switches *= d;
  }
  if (switches > 65536) return bad_shape(kind, "more than 65536 switches");
  // 64-bit sum: an unsigned one would wrap for a huge host count and slip past the port check.
  const std::uint64_t ports = std::uint64_t{hosts_per_switch} + 2 * std::uint64_t{dims.size()};
  if (ports > 254) return bad_shape(kind, "hosts per switch + 2 per dimension exceeds 254 ports");
  if (ports == 0) return bad_shape(kind, "a single switch with no hosts has no ports");

  // stride[d]: index distance between neighbours along d (row-major, last dimension fastest).
  std::vector<std::size_t> stride(dims.size(), 1);
  for (std::size_t d = dims.size() - 1; d > 0; --d) stride[d - 1] = stride[d] * dims[d];
  auto coord = [&](std::size_t s, std::size_t d) { return (s / stride[d]) % dims[d]; };

  Builder b;
  const std::size_t hosts = switches * hosts_per_switch;
  NodeIndex first_host = 0;
  for (std::size_t h = 0; h < hosts; ++h) {
    NodeIndex i = b.add_host("host-" + std::to_string(h));
    if (h == 0) first_host = i;
  }
  std::vector<NodeIndex> sw(switches);
  for (std::size_t s = 0; s < switches; ++s) {
    std::string name = "sw";
    for (std::size_t d = 0; d < dims.size(); ++d) name += "-" + std::to_string(coord(s, d));
    sw[s] = b.add_switch(name, static_cast<unsigned>(ports));
  }
  for (std::size_t s = 0; s < switches; ++s) {
    for (unsigned h = 0; h < hosts_per_switch; ++h) {
      SMD_GEN_TRY(b.link(first_host + static_cast<NodeIndex>(s * hosts_per_switch + h), 1, sw[s], h + 1));
    }
  }
  // Each switch cables its "+" port to the "-" port of the next coordinate. A dimension of size 2 has
  // one neighbour, reached once (from coordinate 0); size 1 has none.
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 2) continue;
    const unsigned plus = hosts_per_switch + 2 * static_cast<unsigned>(d) + 1;
    for (std::size_t s = 0; s < switches; ++s) {
      const std::size_t c = coord(s, d);
      if (dims[d] == 2 && c == 1) continue;
      if (!wrap && c + 1 == dims[d]) continue;  // a mesh's edge: its "+" port stays empty
      const std::size_t next = s - c * stride[d] + ((c + 1) % dims[d]) * stride[d];
      SMD_GEN_TRY(b.link(sw[s], plus, sw[next], plus + 1));
    }
  }
  return std::move(b).finish();
}

}  // namespace

Result<Topology> make_torus(const std::vector<unsigned>& dims, unsigned hosts_per_switch) {
  return make_grid("torus", dims, hosts_per_switch, /*wrap=*/true);
}

Result<Topology> make_mesh(const std::vector<unsigned>& dims, unsigned hosts_per_switch) {
  return make_grid("mesh", dims, hosts_per_switch, /*wrap=*/false);
}

namespace {

// Random switch-to-switch cabling with a per-switch port budget.
class RandomCabler {
 public:
  RandomCabler(unsigned switches, unsigned degree, std::uint64_t seed) : free_(switches, degree), rng_(seed) {}

  // Random spanning tree: node order shuffled, each node hangs off a random earlier node that still
  // has a free port. With degree >= 2 one always exists: i tree nodes hold 2(i-1) cable ends of 2i.
  void spanning_tree(std::vector<std::pair<unsigned, unsigned>>& cables) {
    std::vector<unsigned> order(free_.size());
    for (unsigned i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    std::vector<unsigned> open;  // tree nodes with a free port
    if (!order.empty()) open.push_back(order[0]);
    for (std::size_t i = 1; i < order.size(); ++i) {
      std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
      const std::size_t at = pick(rng_);
      const unsigned parent = open[at];
      add(parent, order[i], cables);
      if (free_[parent] == 0) {
        open[at] = open.back();
        open.pop_back();
      }
      if (free_[order[i]] > 0) open.push_back(order[i]);
    }
  }

  // Extra cables until no two distinct switches both have a free port. Prefers a new pair of
  // switches; parallel cables only when every pair with free ports is already cabled.
  void fill(std::vector<std::pair<unsigned, unsigned>>& cables) {
    for (;;) {
      std::vector<unsigned> open;
      for (unsigned i = 0; i < free_.size(); ++i) {
        if (free_[i] > 0) open.push_back(i);
      }
      if (open.size() < 2) return;
      std::uniform_int_distribution<std::size_t> pick(0, open.size() - 1);
      bool done = false;
      for (int attempt = 0; attempt < 64 && !done; ++attempt) {
        const unsigned a = open[pick(rng_)], c = open[pick(rng_)];
        if (a != c && !cabled(a, c)) add(a, c, cables), done = true;
      }
      for (std::size_t i = 0; i < open.size() && !done; ++i) {
        for (std::size_t j = i + 1; j < open.size() && !done; ++j) {
          if (!cabled(open[i], open[j])) add(open[i], open[j], cables), done = true;
        }
      }
      if (!done) add(open[0], open[1], cables);  // only parallel cables remain possible
    }
  }

 private:
  static std::uint64_t key(unsigned a, unsigned b) {
    return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | std::max(a, b);
  }
  bool cabled(unsigned a, unsigned b) const { return pairs_.count(key(a, b)) != 0; }
  void add(unsigned a, unsigned b, std::vector<std::pair<unsigned, unsigned>>& cables) {
    --free_[a];
    --free_[b];
    pairs_.insert(key(a, b));
    cables.emplace_back(a, b);
  }

  std::vector<unsigned> free_;
  std::mt19937_64 rng_;
  std::unordered_set<std::uint64_t> pairs_;
};

}  // namespace

Result<Topology> make_random(unsigned switches, unsigned degree, unsigned hosts_per_switch, std::uint64_t seed) {
  if (switches < 1 || switches > 16384) return bad_shape("random", "switches must be 1..16384");
  if (switches > 2 && degree < 2) return bad_shape("random", "degree must be >= 2 to connect more than 2 switches");
  if (switches == 2 && degree < 1) return bad_shape("random", "degree must be >= 1 to connect 2 switches");
  if (const std::uint64_t ports = std::uint64_t{degree} + hosts_per_switch; ports > 254 || ports == 0) {
    return bad_shape("random", "degree + hosts per switch must be 1..254");
  }
  std::vector<std::pair<unsigned, unsigned>> cables;
  RandomCabler cabler(switches, degree, seed);
  cabler.spanning_tree(cables);
  cabler.fill(cables);

  Builder b;
  NodeIndex first_host = 0;
  for (std::size_t h = 0; h < static_cast<std::size_t>(switches) * hosts_per_switch; ++h) {
    NodeIndex i = b.add_host("host-" + std::to_string(h));
    if (h == 0) first_host = i;
  }
  std::vector<NodeIndex> sw(switches);
  for (unsigned s = 0; s < switches; ++s) sw[s] = b.add_switch("sw-" + std::to_string(s), hosts_per_switch + degree);
  std::vector<unsigned> next_port(switches, hosts_per_switch + 1);
  for (unsigned s = 0; s < switches; ++s) {
    for (unsigned h = 0; h < hosts_per_switch; ++h) {
      SMD_GEN_TRY(b.link(first_host + s * hosts_per_switch + h, 1, sw[s], h + 1));
    }
  }
  for (auto [x, y] : cables) SMD_GEN_TRY(b.link(sw[x], next_port[x]++, sw[y], next_port[y]++));
  return std::move(b).finish();
}

}  // namespace smd
