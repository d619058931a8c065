// Multicast GIDs as text and the rules both partition inputs (the YAML `partitions:` section and OpenSM's
// partitions.conf) apply to a pre-created group: IBA 4.1.1 (an MGID starts 0xFF), RFC 4391/4391bis (the IPoIB
// signatures 0x401B and 0x601B and the P_Key in bytes 4-5).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "routing/base/status.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

using Mgid = std::array<std::uint8_t, 16>;

/// Parse an MGID written as IPv6 text ("ff12:401b::0707", `::` allowed). Errors (kInvalidInput, message
/// without location): not IPv6 text; the first byte is not 0xff (not a multicast GID).
Result<Mgid> parse_mgid(std::string_view text);

/// The MGID as compressed IPv6 text ("ff12:401b:ffff::ffff:ffff"): what parse_mgid reads back.
std::string format_mgid(const Mgid& mgid);

/// An IPoIB group's MGID: signature 0x401B (IPv4) or 0x601B (IPv6) in bytes 2-3.
bool is_ip_mgid(const Mgid& mgid);

/// The Q_Key a group gets when none is written: 0x0B1B (the IPoIB Q_Key) for IP groups, 0 otherwise (as
/// OpenSM).
std::uint32_t default_group_q_key(const Mgid& mgid);

/// An IP group's P_Key bytes (4-5) as OpenSM fixes them: 0 is filled in with `pkey` | 0x8000; any other
/// value must have `pkey` as its low 15 bits. Non-IP groups are left alone. The scope field is set from the
/// MGID's scope nibble (byte 1, low 4 bits).
/// Errors: kInvalidInput "MGID P_Key bits 0x.... do not match the partition's P_Key 0x....".
Status complete_group(McastGroupSpec& group, PKeyBase pkey);

}  // namespace smd
