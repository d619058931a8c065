// NodeInfo codec: the field table of IBA vol. 1, table 146 (14.2.5.3).
#include "mad/codec/node_info.h"

#include "mad/codec/attribute_codec.h"

namespace smd::mad {

namespace {
constexpr FieldTable kNodeInfoFields{
    bind<&NodeInfo::base_version, bytes_at(0, 1)>,
    bind<&NodeInfo::class_version, bytes_at(1, 1)>,
    bind<&NodeInfo::node_type, bytes_at(2, 1)>,
    bind<&NodeInfo::num_ports, bytes_at(3, 1)>,
    bind<&NodeInfo::system_image_guid, bytes_at(4, 8)>,
    bind<&NodeInfo::node_guid, bytes_at(12, 8)>,
    bind<&NodeInfo::port_guid, bytes_at(20, 8)>,
    bind<&NodeInfo::partition_cap, bytes_at(28, 2)>,
    bind<&NodeInfo::device_id, bytes_at(30, 2)>,
    bind<&NodeInfo::revision, bytes_at(32, 4)>,
    bind<&NodeInfo::local_port_num, bytes_at(36, 1)>,
    bind<&NodeInfo::vendor_id, bytes_at(37, 3)>,  // shares the dword with LocalPortNum
};
}  // namespace

NodeInfo NodeInfo::decode(const SmpData& data) { return decode_keeping_raw<NodeInfo>(data, kNodeInfoFields); }

void NodeInfo::encode(SmpData& data) const { encode_over_raw(*this, data, kNodeInfoFields); }

}  // namespace smd::mad
