// Per-port M_Keys (security.m_key_per_port; OpenSM's m_key_lookup): each endport's M_Key is derived from the
// subnet's secret (security.m_key) and the port's GUID, so that one port's key, read off a stolen HCA or a
// compromised host, opens no other port (IBA 14.2.4 leaves the choice of keys to the SM).
//
// Derivation (smd's own, not OpenSM's hash): HMAC-SHA-256 (RFC 2104, FIPS 180-4) keyed with the secret as
// 8 bytes big-endian, over the port GUID as 8 bytes big-endian; the M_Key is the digest's first 8 bytes read
// big-endian. A result of 0 (which would mean "no key") becomes 1. Anyone holding the secret can recompute
// every key (tests/integration/m_key_per_port_test.sh does, with Python's hmac), so a restarted SM needs no
// file to know the key it gave a port; state_dir/guid2mkey still records the keys in use, because a port may
// hold a key from an older secret.
#pragma once

#include <cstdint>

#include "routing/model/topology.h"
#include "smd/fabric/desired.h"

namespace smd {

/// The M_Key of the port `port_guid` under `secret`; 0 when `secret` is 0 (no keys at all). Never fails.
std::uint64_t derive_port_m_key(std::uint64_t secret, Guid port_guid);

/// The M_Key `want` gives the endport `port_guid`: want.m_key, or with want.m_key_per_port the derived key.
inline std::uint64_t wanted_m_key(const EndportSettings& want, Guid port_guid) {
  return want.m_key_per_port ? derive_port_m_key(want.m_key, port_guid) : want.m_key;
}

}  // namespace smd
