#include "smd/program/table_write.h"

#include <algorithm>

#include "mad/codec/mft_block.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"

namespace smd {

TableWrite& add_set(std::vector<TableWrite>& plan, NodeIndex node, PortNum port, Guid guid, const mad::DrPath& path,
                    std::uint16_t attr, std::uint32_t mod, EchoRule echo) {
  return plan.emplace_back(make_set(node, port, guid, path, attr, mod, echo));
}

TableWrite make_set(NodeIndex node, PortNum port, Guid guid, const mad::DrPath& path, std::uint16_t attr,
                    std::uint32_t mod, EchoRule echo) {
  TableWrite w;
  w.node = node;
  w.port = port;
  w.guid = guid;
  w.echo = echo;
  w.request.path = path;
  w.request.method = mad::Method::kSet;
  w.request.attr_id = attr;
  w.request.attr_mod = mod;
  return w;
}

bool echoed(const TableWrite& w, const mad::SmpData& reply) {
  switch (w.echo) {
    case EchoRule::kPayload: return std::equal(w.request.data.begin(), w.request.data.end(), reply.begin());
    case EchoRule::kLinearFdbTop: {
      const auto want = mad::SwitchInfo::decode(w.request.data);
      const auto got = mad::SwitchInfo::decode(reply);
      return got.linear_fdb_top == want.linear_fdb_top && got.life_time_value == want.life_time_value;
    }
    case EchoRule::kMulticastFdbTop:
      return mad::SwitchInfo::decode(reply).multicast_fdb_top ==
             mad::SwitchInfo::decode(w.request.data).multicast_fdb_top;
    case EchoRule::kPortLidLmc:
    case EchoRule::kPortLidLmcArmed: {
      const auto want = mad::PortInfo::decode(w.request.data);
      const auto got = mad::PortInfo::decode(reply);
      return got.lid == want.lid && got.lmc == want.lmc;
    }
    case EchoRule::kPortState:
      return mad::PortInfo::decode(reply).port_state == mad::PortInfo::decode(w.request.data).port_state;
    case EchoRule::kAnswered: return true;
    case EchoRule::kPortPartitionEnforcement: {
      const auto want = mad::PortInfo::decode(w.request.data);
      const auto got = mad::PortInfo::decode(reply);
      return got.partition_enforcement_inbound == want.partition_enforcement_inbound &&
             got.partition_enforcement_outbound == want.partition_enforcement_outbound;
    }
    case EchoRule::kSl2Vl: return std::equal(w.request.data.begin(), w.request.data.begin() + 8, reply.begin());
    case EchoRule::kPortVlHighLimit:
      return mad::PortInfo::decode(reply).vl_high_limit == mad::PortInfo::decode(w.request.data).vl_high_limit;
    case EchoRule::kPortHoqLife:
      return mad::PortInfo::decode(reply).hoq_life == mad::PortInfo::decode(w.request.data).hoq_life;
  }
  return false;
}

std::string describe_write(const TableWrite& w) {
  const std::string mod = std::to_string(w.request.attr_mod);
  switch (w.request.attr_id) {
    case mad::attr::kLinearForwardingTable: return "LinearForwardingTable Set block " + mod;
    case mad::attr::kPortInfo: {
      const std::string port = std::to_string(mad::port_of_port_info_mod(w.request.attr_mod));  // not bit 31
      if (w.echo == EchoRule::kPortVlHighLimit) return "PortInfo Set " + port + " VLHighLimit";
      if (w.echo == EchoRule::kPortHoqLife) return "PortInfo Set " + port + " HOQLife and link fields";
      return w.echo == EchoRule::kPortPartitionEnforcement ? "PortInfo Set " + port + " partition enforcement"
                                                           : "PortInfo Set " + port;
    }
    case mad::attr::kSlToVlTable:
      if (w.request.attr_mod >> 16) return "SLtoVLMappingTable Set all ports (modifier " + mod + ")";
      return "SLtoVLMappingTable Set in " + std::to_string((w.request.attr_mod >> 8) & 0xffu) + " out " +
             std::to_string(w.port);
    case mad::attr::kVlArbTable:
      return "VLArbitrationTable Set block " + std::to_string(w.request.attr_mod >> 16) + " port " +
             std::to_string(w.port);
    case mad::attr::kPKeyTable:
      return "P_KeyTable Set block " + std::to_string(w.request.attr_mod & 0xffffu) + " port " +
             std::to_string(w.request.attr_mod >> 16);
    case mad::attr::kMulticastForwardingTable:
      return "MulticastForwardingTable Set block " + std::to_string(mad::MftBlock::block_of_mod(w.request.attr_mod)) +
             " position " + std::to_string(mad::MftBlock::position_of_mod(w.request.attr_mod));
    case mad::attr::kSwitchInfo:
      if (w.echo == EchoRule::kMulticastFdbTop) return "SwitchInfo Set MulticastFDBTop";
      return w.echo == EchoRule::kLinearFdbTop ? "SwitchInfo Set LinearFDBTop and LifeTimeValue"
                                               : "SwitchInfo Set PortStateChange";
    default: return "attribute " + std::to_string(w.request.attr_id) + " Set " + mod;
  }
}

std::string not_echoed_reason(const TableWrite& w, const mad::SmpData& reply) {
  switch (w.echo) {
    case EchoRule::kPayload: return "block not echoed";
    case EchoRule::kLinearFdbTop: {
      const auto want = mad::SwitchInfo::decode(w.request.data);
      const auto got = mad::SwitchInfo::decode(reply);
      if (got.linear_fdb_top != want.linear_fdb_top) return "top not taken";
      return "LifeTimeValue " + std::to_string(want.life_time_value) + " not taken (switch reports " +
             std::to_string(got.life_time_value) + ")";
    }
    case EchoRule::kMulticastFdbTop: return "MulticastFDBTop not taken";
    case EchoRule::kPortLidLmc:
    case EchoRule::kPortLidLmcArmed:
      return "LID " + std::to_string(mad::PortInfo::decode(w.request.data).lid) + " not taken (port reports " +
             std::to_string(mad::PortInfo::decode(reply).lid) + ")";
    case EchoRule::kPortState: {
      const unsigned state = std::min<unsigned>(mad::PortInfo::decode(reply).port_state, 4);
      return "port state " + std::to_string(state) + " after the Set";
    }
    case EchoRule::kPortPartitionEnforcement: return "partition enforcement bits not taken";
    case EchoRule::kSl2Vl: return "table not echoed";
    case EchoRule::kPortVlHighLimit: return "VLHighLimit not taken";
    case EchoRule::kPortHoqLife:
      return "HOQLife " + std::to_string(mad::PortInfo::decode(w.request.data).hoq_life) + " not taken (port reports " +
             std::to_string(mad::PortInfo::decode(reply).hoq_life) + ")";
    case EchoRule::kAnswered: break;
  }
  return "not echoed";
}

}  // namespace smd
