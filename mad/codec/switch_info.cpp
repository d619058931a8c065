// SwitchInfo codec: the field table of IBA vol. 1, table 147 (14.2.5.4).
#include "mad/codec/switch_info.h"

#include "mad/codec/attribute_codec.h"

namespace smd::mad {

namespace {
constexpr FieldTable kSwitchInfoFields{
    bind<&SwitchInfo::linear_fdb_cap, bytes_at(0, 2)>,
    bind<&SwitchInfo::random_fdb_cap, bytes_at(2, 2)>,
    bind<&SwitchInfo::multicast_fdb_cap, bytes_at(4, 2)>,
    bind<&SwitchInfo::linear_fdb_top, bytes_at(6, 2)>,
    bind<&SwitchInfo::default_port, bytes_at(8, 1)>,
    bind<&SwitchInfo::default_multicast_primary_port, bytes_at(9, 1)>,
    bind<&SwitchInfo::default_multicast_not_primary_port, bytes_at(10, 1)>,
    bind<&SwitchInfo::life_time_value, at(11, 0, 5)>,
    bind<&SwitchInfo::port_state_change, at(11, 5, 1)>,
    bind<&SwitchInfo::optimized_sl_to_vl_mapping_programming, at(11, 6, 2)>,
    bind<&SwitchInfo::lids_per_port, bytes_at(12, 2)>,
    bind<&SwitchInfo::partition_enforcement_cap, bytes_at(14, 2)>,
    bind<&SwitchInfo::inbound_enforcement_cap, at(16, 0, 1)>,
    bind<&SwitchInfo::outbound_enforcement_cap, at(16, 1, 1)>,
    bind<&SwitchInfo::filter_raw_inbound_cap, at(16, 2, 1)>,
    bind<&SwitchInfo::filter_raw_outbound_cap, at(16, 3, 1)>,
    bind<&SwitchInfo::enhanced_port0, at(16, 4, 1)>,  // then 3 reserved bits
    bind<&SwitchInfo::multicast_fdb_top, bytes_at(18, 2)>,
};
}  // namespace

SwitchInfo SwitchInfo::decode(const SmpData& data) { return decode_keeping_raw<SwitchInfo>(data, kSwitchInfoFields); }

void SwitchInfo::encode(SmpData& data) const { encode_over_raw(*this, data, kSwitchInfoFields); }

}  // namespace smd::mad
