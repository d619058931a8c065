// IPv6 solicited-node multicast (SNM) MGIDs as IPoIB builds them (RFC 4391 4, RFC 4291 2.7.1): every host
// with an IPv6 address joins ff1S:601b:PPPP:0000:0000:0001:ffXX:XXXX, S the scope, PPPP its partition's
// P_Key, XX:XXXX the low 24 bits of the address. Thousands of hosts make thousands of such groups, one MLID
// each unless the SA lets the groups of one (scope, P_Key) share an MLID (OpenSM's consolidate_ipv6_snm_req):
// every member then receives the others' neighbour solicitations and its HCA drops those whose DGID it did
// not join, which is cheap next to running out of MLIDs (the smallest MulticastFDBCap caps them all).
#pragma once

#include <algorithm>
#include <cstddef>

#include "mad/sa/mcmember_record.h"

namespace smd::sa {

/// Bytes that name an SNM MGID's "family": everything but the 24 bits taken from the host's address.
inline constexpr std::size_t kSnmFamilyBytes = 13;

/// Whether `mgid` is an IPoIB IPv6 solicited-node MGID: 0xff, flags exactly "transient" (0x1), any scope,
/// signature 0x601b, any P_Key, then 0000:0000:0001:ff. Other flag bits (RFC 3306 prefix-based, RFC 3956
/// embedded-RP) make a different kind of group and are left out.
inline bool is_ipv6_snm_mgid(const mad::sa::Gid& mgid) {
  return mgid[0] == 0xff && (mgid[1] & 0xF0) == 0x10 && mgid[2] == 0x60 && mgid[3] == 0x1b && mgid[6] == 0 &&
         mgid[7] == 0 && mgid[8] == 0 && mgid[9] == 0 && mgid[10] == 0 && mgid[11] == 0x01 && mgid[12] == 0xff;
}

/// Whether two SNM MGIDs belong to one family (same scope and P_Key bits): only such groups may share an MLID.
inline bool same_snm_family(const mad::sa::Gid& a, const mad::sa::Gid& b) {
  return std::equal(a.begin(), a.begin() + kSnmFamilyBytes, b.begin());
}

/// The lowest MGID of `mgid`'s family (low 24 bits zero): where an ordered map's walk over the family starts.
inline mad::sa::Gid snm_family_first(const mad::sa::Gid& mgid) {
  mad::sa::Gid g = mgid;
  g[13] = g[14] = g[15] = 0;
  return g;
}

}  // namespace smd::sa
