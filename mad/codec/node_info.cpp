// NodeInfo codec: byte offsets from IBA vol. 1, table 146 (14.2.5.3).
#include "mad/codec/node_info.h"

#include "mad/codec/bits.h"

namespace smd::mad {

namespace {
namespace off {
constexpr std::size_t kBaseVersion = 0;
constexpr std::size_t kClassVersion = 1;
constexpr std::size_t kNodeType = 2;
constexpr std::size_t kNumPorts = 3;
constexpr std::size_t kSystemImageGuid = 4;
constexpr std::size_t kNodeGuid = 12;
constexpr std::size_t kPortGuid = 20;
constexpr std::size_t kPartitionCap = 28;
constexpr std::size_t kDeviceId = 30;
constexpr std::size_t kRevision = 32;
constexpr std::size_t kLocalPortNum = 36;
constexpr std::size_t kVendorId = 37;  // 24 bits, shares the dword with LocalPortNum
}  // namespace off
}  // namespace

NodeInfo NodeInfo::decode(const SmpData& data) {
  const std::uint8_t* p = data.data();
  NodeInfo n;
  n.base_version = bits::get8(p, off::kBaseVersion);
  n.class_version = bits::get8(p, off::kClassVersion);
  n.node_type = bits::get8(p, off::kNodeType);
  n.num_ports = bits::get8(p, off::kNumPorts);
  n.system_image_guid = bits::get64(p, off::kSystemImageGuid);
  n.node_guid = bits::get64(p, off::kNodeGuid);
  n.port_guid = bits::get64(p, off::kPortGuid);
  n.partition_cap = bits::get16(p, off::kPartitionCap);
  n.device_id = bits::get16(p, off::kDeviceId);
  n.revision = bits::get32(p, off::kRevision);
  n.local_port_num = bits::get8(p, off::kLocalPortNum);
  n.vendor_id = bits::get24(p, off::kVendorId);
  n.raw = data;
  return n;
}

void NodeInfo::encode(SmpData& data) const {
  data = raw;
  std::uint8_t* p = data.data();
  bits::put8(p, off::kBaseVersion, base_version);
  bits::put8(p, off::kClassVersion, class_version);
  bits::put8(p, off::kNodeType, node_type);
  bits::put8(p, off::kNumPorts, num_ports);
  bits::put64(p, off::kSystemImageGuid, system_image_guid);
  bits::put64(p, off::kNodeGuid, node_guid);
  bits::put64(p, off::kPortGuid, port_guid);
  bits::put16(p, off::kPartitionCap, partition_cap);
  bits::put16(p, off::kDeviceId, device_id);
  bits::put32(p, off::kRevision, revision);
  bits::put8(p, off::kLocalPortNum, local_port_num);
  bits::put24(p, off::kVendorId, vendor_id);
}

}  // namespace smd::mad
