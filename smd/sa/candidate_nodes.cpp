// The nodes a record request can match: see candidate_nodes.h.
#include "smd/sa/candidate_nodes.h"

#include "mad/codec/bits.h"

namespace smd::sa {

namespace {
constexpr std::uint64_t kLidBit = 1;  // ComponentMask bit of the records' first field, the LID
}  // namespace

std::optional<Lid> requested_lid(const SaQuery& q) {
  if (!(q.mask() & kLidBit)) return std::nullopt;
  return static_cast<Lid>(mad::bits::get16(q.record.data(), 0));
}

std::vector<NodeIndex> candidate_nodes(const SaFabric& f, const SaQuery& q) {
  std::vector<NodeIndex> nodes;
  if (std::optional<Lid> lid = requested_lid(q)) {
    if (const Endport* e = f.by_lid(*lid)) nodes.push_back(e->node);
    return nodes;
  }
  nodes.resize(f.topo().size());
  for (NodeIndex n = 0; n < nodes.size(); ++n) nodes[n] = n;
  return nodes;
}

}  // namespace smd::sa
