// Which GIDs name a port when a requester registers a ServiceRecord under its own ServiceGID.
// A port's GID is its GUID under the subnet prefix the SM set (IBA 4.1.1); until the host re-reads its
// GID table, and under ibsim's shim always, a client builds it with the default prefix fe80:: instead.
// OpenSM accepts both (its commit 0a8d9392, issue #21, for MCMemberRecord; for ServiceRecord it checks no
// GID at all); smd accepts both for the requester's own port only. One more form is accepted, for the
// requester's own GUID only: the default prefix with its bytes reversed, which osmtest 3.3.23 sends when
// the port reports no GID table (osmt_service.c copies the host-order constant into the ServiceGID
// unconverted, where osmt_multicast.c converts it; seen under ibsim as 0000:0000:0000:80fe:<GUID>).
// (MCMemberRecord PortGIDs are matched in mcast_db.cpp: fe80:: means the subnet prefix.)
#pragma once

#include <cstdint>

#include "mad/sa/path_record.h"
#include "routing/base/ids.h"

namespace smd::sa {

/// The default GID prefix every port answers to (IBA 4.1.1, "link-local").
inline constexpr std::uint64_t kDefaultGidPrefix = 0xFE80000000000000ull;

/// kDefaultGidPrefix as a little-endian host writes it when it forgets the byte order (osmtest, above).
inline constexpr std::uint64_t kDefaultGidPrefixByteSwapped = 0x00000000000080FEull;

/// Whether `prefix` is one a port of this subnet is named by: the subnet's, the default one, or the
/// default one byte-swapped (see above).
inline bool subnet_gid_prefix(std::uint64_t prefix, std::uint64_t subnet_prefix) {
  return prefix == subnet_prefix || prefix == kDefaultGidPrefix || prefix == kDefaultGidPrefixByteSwapped;
}

/// Whether `gid` names port `guid` of this subnet (either prefix). False for GUID 0 (an unknown port).
inline bool names_port(const mad::sa::Gid& gid, std::uint64_t subnet_prefix, Guid guid) {
  return guid != 0 && mad::sa::gid_guid(gid) == guid && subnet_gid_prefix(mad::sa::gid_prefix(gid), subnet_prefix);
}

}  // namespace smd::sa
