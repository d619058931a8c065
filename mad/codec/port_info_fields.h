// The PortInfo field table (IBA vol. 1, 14.2.5.6, table 149), in the table's order with its reserved runs:
// the PortInfo codec walks it, and the SA's PortInfoRecord takes its ComponentMask positions from it (the
// record embeds PortInfo at byte 4), so the two cannot disagree on an offset.
#pragma once

#include "mad/codec/field_table.h"
#include "mad/codec/port_info.h"

namespace smd::mad {

inline constexpr FieldTable kPortInfoFields{
    bind<&PortInfo::m_key, bytes_at(0, 8)>,
    bind<&PortInfo::gid_prefix, bytes_at(8, 8)>,
    bind<&PortInfo::lid, bytes_at(16, 2)>,
    bind<&PortInfo::master_sm_lid, bytes_at(18, 2)>,
    bind<&PortInfo::capability_mask, bytes_at(20, 4)>,
    bind<&PortInfo::diag_code, bytes_at(24, 2)>,
    bind<&PortInfo::m_key_lease_period, bytes_at(26, 2)>,
    bind<&PortInfo::local_port_num, bytes_at(28, 1)>,
    bind<&PortInfo::link_width_enabled, bytes_at(29, 1)>,
    bind<&PortInfo::link_width_supported, bytes_at(30, 1)>,
    bind<&PortInfo::link_width_active, bytes_at(31, 1)>,
    bind<&PortInfo::link_speed_supported, at(32, 0, 4)>,
    bind<&PortInfo::port_state, at(32, 4, 4)>,
    bind<&PortInfo::port_physical_state, at(33, 0, 4)>,
    bind<&PortInfo::link_down_default_state, at(33, 4, 4)>,
    bind<&PortInfo::m_key_protect_bits, at(34, 0, 2)>,
    reserved<at(34, 2, 3)>,
    bind<&PortInfo::lmc, at(34, 5, 3)>,
    bind<&PortInfo::link_speed_active, at(35, 0, 4)>,
    bind<&PortInfo::link_speed_enabled, at(35, 4, 4)>,
    bind<&PortInfo::neighbor_mtu, at(36, 0, 4)>,
    bind<&PortInfo::master_sm_sl, at(36, 4, 4)>,
    bind<&PortInfo::vl_cap, at(37, 0, 4)>,
    bind<&PortInfo::init_type, at(37, 4, 4)>,
    bind<&PortInfo::vl_high_limit, bytes_at(38, 1)>,
    bind<&PortInfo::vl_arbitration_high_cap, bytes_at(39, 1)>,
    bind<&PortInfo::vl_arbitration_low_cap, bytes_at(40, 1)>,
    bind<&PortInfo::init_type_reply, at(41, 0, 4)>,
    bind<&PortInfo::mtu_cap, at(41, 4, 4)>,
    bind<&PortInfo::vl_stall_count, at(42, 0, 3)>,
    bind<&PortInfo::hoq_life, at(42, 3, 5)>,
    bind<&PortInfo::operational_vls, at(43, 0, 4)>,
    bind<&PortInfo::partition_enforcement_inbound, at(43, 4, 1)>,
    bind<&PortInfo::partition_enforcement_outbound, at(43, 5, 1)>,
    bind<&PortInfo::filter_raw_inbound, at(43, 6, 1)>,
    bind<&PortInfo::filter_raw_outbound, at(43, 7, 1)>,
    bind<&PortInfo::m_key_violations, bytes_at(44, 2)>,
    bind<&PortInfo::p_key_violations, bytes_at(46, 2)>,
    bind<&PortInfo::q_key_violations, bytes_at(48, 2)>,
    bind<&PortInfo::guid_cap, bytes_at(50, 1)>,
    bind<&PortInfo::client_reregister, at(51, 0, 1)>,
    bind<&PortInfo::multicast_pkey_trap_suppression_enabled, at(51, 1, 2)>,
    bind<&PortInfo::subnet_timeout, at(51, 3, 5)>,
    reserved<at(52, 0, 3)>,
    bind<&PortInfo::resp_time_value, at(52, 3, 5)>,
    bind<&PortInfo::local_phy_errors, at(53, 0, 4)>,
    bind<&PortInfo::overrun_errors, at(53, 4, 4)>,
    bind<&PortInfo::max_credit_hint, bytes_at(54, 2)>,
    // Byte 56: one reserved field in the SA's ComponentMask table; bit 7 reserved, then IBA 1.7's XDR fields
    // (libibmad names them LinkSpeedExtActive2 etc.).
    reserved<bytes_at(56, 1)>,
    bind_unlisted<&PortInfo::link_speed_ext2_active, at(56, 1, 2)>,
    bind_unlisted<&PortInfo::link_speed_ext2_supported, at(56, 3, 2)>,
    bind_unlisted<&PortInfo::link_speed_ext2_enabled, at(56, 5, 3)>,
    bind<&PortInfo::link_round_trip_latency, bytes_at(57, 3)>,
    bind<&PortInfo::capability_mask2, bytes_at(60, 2)>,
    bind<&PortInfo::link_speed_ext_active, at(62, 0, 4)>,
    bind<&PortInfo::link_speed_ext_supported, at(62, 4, 4)>,
    reserved<at(63, 0, 3)>,
    bind<&PortInfo::link_speed_ext_enabled, at(63, 3, 5)>,
};

}  // namespace smd::mad
