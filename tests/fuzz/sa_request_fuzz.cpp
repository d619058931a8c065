// An SA request (class 0x03) of any length and content answered by answer_mad against a small fixed
// fabric, with the SA's mutable state (ServiceRecords, subscriptions) kept from one input to the next so
// that a Set can be followed by a Get or Delete. Properties: no crash (ASan/UBSan), an answer is a whole
// MAD (256 bytes) or an RMPP GetTableResp/GetMultiResp of header + whole records, it is a response (R bit) with the
// request's TID and attribute and SM_Key 0, and its records fit the AttributeOffset it states.
//
// The fabric: switch S (LID 1, 4 ports), CA A (LID 2) on port 1, CA B (LIDs 4..5, LMC 1) on port 2.
#include <memory>

#include "fuzz_util.h"
#include "mad/sa/sa_mad.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "smd/fabric/observed.h"
#include "smd/sa/sa_dispatch.h"
#include "smd/sa/sa_fabric.h"
#include "smd/sa/sa_snapshot.h"

namespace {

using namespace smd;

mad::PortInfo port(Lid lid, std::uint8_t lmc) {
  mad::PortInfo pi;
  pi.gid_prefix = 0xFE80000000000000ull;
  pi.m_key = 0x42;
  pi.lid = lid;
  pi.lmc = lmc;
  pi.mtu_cap = 4;
  pi.link_width_active = 2;
  pi.link_speed_active = 4;
  pi.port_state = 4;
  pi.capability_mask = 0x02510A68;
  return pi;
}

std::shared_ptr<const sa::SaSnapshot> make_snapshot() {
  auto topo = std::make_shared<Topology>();
  ObservedFabric obs;
  auto add = [&](Guid guid, NodeType type, PortNum nports) {
    Node n;
    n.guid = guid;
    n.type = type;
    n.num_ports = nports;
    n.description = type == NodeType::kSwitch ? "fuzz switch" : "fuzz host";
    n.ports.resize(nports + 1u);
    for (PortNum p = 0; p <= nports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    const NodeIndex idx = *topo->add_node(std::move(n));
    smd::NodeRecord rec;
    rec.node_info.base_version = 1;
    rec.node_info.class_version = 1;
    rec.node_info.node_type = type == NodeType::kSwitch ? 2 : 1;
    rec.node_info.num_ports = nports;
    rec.node_info.node_guid = guid;
    rec.ports.resize(nports + 1u);
    obs.nodes.push_back(rec);
    return idx;
  };
  const NodeIndex s = add(0x100, NodeType::kSwitch, 4);
  const NodeIndex a = add(0xA00, NodeType::kCa, 1);
  const NodeIndex b = add(0xB00, NodeType::kCa, 1);
  (void)topo->connect(a, 1, s, 1);
  (void)topo->connect(b, 1, s, 2);
  auto lids = std::make_shared<LidMap>();
  (void)lids->assign(s, 0, 1, 0);
  (void)lids->assign(a, 1, 2, 0);
  (void)lids->assign(b, 1, 4, 1);
  obs.nodes[s].ports[0].port_info = port(1, 0);
  obs.nodes[s].ports[1].port_info = port(0, 0);
  obs.nodes[s].ports[2].port_info = port(0, 0);
  obs.nodes[a].ports[1].port_info = port(2, 0);
  obs.nodes[b].ports[1].port_info = port(4, 1);
  auto tables = std::make_shared<RoutingTables>();
  tables->lft.resize(topo->size());
  tables->lft[s].set(1, 0);
  tables->lft[s].set(2, 1);
  tables->lft[s].set(4, 2);
  tables->lft[s].set(5, 2);
  obs.topo = topo;
  auto snap = std::make_shared<sa::SaSnapshot>();
  snap->serving = true;
  snap->fabric = sa::SaFabric::build(std::move(obs), lids, tables, 0xFE80000000000000ull);
  snap->settings.key = 1;
  snap->settings.max_records = 64;
  snap->sm_lid = 1;
  snap->sms.push_back(sa::SmEntry{1, 0x100, 1, 1, 1, 3});
  return snap;
}

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
std::uint64_t be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  static const std::shared_ptr<const sa::SaSnapshot> snap = make_snapshot();
  static sa::SaState state;
  if (size > 1024) return -1;  // not added to the corpus
  // Keep the stores small: a long run of distinct Sets must not grow memory without bound.
  if (state.services.size() > 256 || state.informs.size() > 256) state = sa::SaState{};

  // The requester's LID is the input's last byte (0..255: known, unknown and the switch).
  mad::MadAddress from;
  from.lid = size > 0 ? data[size - 1] : 0;
  from.qpn = 1;
  sa::SaOutcome outcome;
  const std::vector<std::uint8_t> out =
      sa::answer_mad(*snap, state, std::span<const std::uint8_t>(data, size), from, /*now_s=*/1000, outcome);
  if (out.empty()) {
    fuzz::check(outcome.kind != sa::SaOutcome::Kind::kAnswered, "an answered MAD has a response");
    return 0;
  }
  fuzz::check(outcome.kind == sa::SaOutcome::Kind::kAnswered, "a response only for an answered MAD");
  fuzz::check(size >= mad::sa::kHeaderSize, "only a whole SA header is answered");
  fuzz::check(out.size() >= mad::sa::kHeaderSize, "a response holds the SA header");
  const std::uint8_t method = out[3];
  fuzz::check((method & 0x80) != 0, "a response has the R bit");
  fuzz::check(be64(out.data() + 8) == be64(data + 8), "the response echoes the TID");
  fuzz::check(be16(out.data() + 16) == be16(data + 16), "the response echoes the AttributeID");
  fuzz::check(be64(out.data() + 36) == 0, "responses carry SM_Key 0");
  const std::uint16_t status = be16(out.data() + 4);
  const std::size_t stride = std::size_t{be16(out.data() + 44)} * 8;
  if (status != 0) fuzz::check(stride == 0, "an error has AttributeOffset 0");
  if (method == mad::sa::method::kGetTableResp || method == mad::sa::method::kGetMultiResp) {
    const std::size_t records = out.size() - mad::sa::kHeaderSize;
    fuzz::check(stride == 0 ? records == 0 : records % stride == 0, "a table is whole records");
    fuzz::check(stride == 0 || records / stride <= snap->settings.max_records, "at most sa.max_records");
    fuzz::check(out[24] == 1 && (out[26] & 7) == 7, "RMPP DATA, Active|First|Last");
  } else {
    fuzz::check(out.size() == mad::sa::kMadSize, "a non-table answer is one MAD");
  }
  return 0;
}
