// The FIB that eBGP installs on the L3 Clos of a RoutePlan, computed under BGP's own-AS rule: a router
// does not use a route whose AS_PATH holds its own AS (RFC 4271 section 9.1.2: "loop"; FRR logs
// "DENIED due to: as-path contains our own AS"). The ASN scheme (docs/roce.md) lets switches of one tier
// or pod share an AS precisely so that this rule refuses "valley" paths (leaf -> spine -> leaf -> spine,
// agg -> leaf -> agg of the same pod): the routes left are up*/down* and PFC cannot deadlock on them.
// What it costs is what this computes: switches that share an AS do not learn each other's loopbacks,
// and nothing reaches a loopback whose every path crosses the receiver's AS.
//
// The model, which is what FRR 8.4 does with the configurations of frr_writer.h (tests/integration/
// roce_frr_test.sh compares it with the kernel FIB of FRR run on every switch):
//   - every switch originates its loopback and host prefix; each eBGP hop prepends one ASN (no two
//     cabled switches share an AS, so every session is eBGP), so AS_PATH length = switch hops;
//   - a switch s uses what neighbour n advertises only if asn[s] is not on n's AS_PATH (n included);
//   - s prefers the shortest AS_PATH; every session offering it is an ECMP member ("bgp bestpath
//     as-path multipath-relax", "maximum-paths"), one per cable;
//   - s advertises only its best path (no add-path): the one from the neighbour with the lowest
//     router-id ("bgp bestpath compare-routerid"; without it FRR keeps the oldest route, which depends on
//     timing).
// Preference is strictly by length, so there is a unique stable state (no dispute wheel: Griffin,
// Shepherd, Wilfong, "The stable paths problem and interdomain routing", 2002) and it is reached in
// rounds of increasing length: a breadth-first search per destination that checks each offered path.
#pragma once

#include <cstdint>
#include <span>

#include "routing/model/hop_table.h"
#include "routing/roce/fib.h"

namespace smd::roce {

/// Groups (s, d) of the BGP FIB: the ports of s toward the sessions that offer a shortest acceptable
/// path to d's prefixes. `asn` and `router_id` are indexed by switch (graph order). Every group is a
/// subset of the min-hop group when some min-hop path to d is acceptable, else empty or longer (not on a
/// Clos). O(S^2 * degree * diameter) time, spread over `threads` (0 = hardware concurrency).
EcmpTable bgp_fib(const SwitchGraph& graph, std::span<const std::uint32_t> asn,
                  std::span<const std::uint32_t> router_id, unsigned threads = 0);

}  // namespace smd::roce
