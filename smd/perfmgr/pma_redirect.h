// PMA redirection (IBA 13.4.5, 16.1.1; OpenSM's perfmgr_redir): a PMA may answer a PerfMgt Get with MAD
// status "redirect" (13.4.7 bit 1) and, as data, a ClassPortInfo naming where its MADs go instead:
// RedirectLID (0 = the LID asked), RedirectQP, RedirectQ_Key and RedirectP_Key. The PerfMgr then sends
// that MAD, and every later one for the node, there (perf_agent.cpp).
//
// What is decided here, pure: the route the next MAD takes, from the redirecting ClassPortInfo and the route
// the redirected MAD took. Errors (kInvalidInput, naming the field), after which the node is not read:
//   - RedirectGID set and RedirectLID 0: the PMA wants a GID-routed (GRH) MAD; the PerfMgr sends LID-routed
//     ones only (OpenSM declines the same case);
//   - RedirectQP 0: QP0 takes SMPs only (IBA 3.5.3);
//   - RedirectP_Key outside the default partition (low 15 bits not 0x7FFF): the SM's port sends GMPs with
//     P_Key index 0, which IBA 10.9.1.2 reserves for the default P_Key; another partition would need the
//     index of that P_Key in the SM port's own table.
// A redirect to the route the MAD already took is an error too (the PMA would answer the same again).
#pragma once

#include <cstdint>

#include "mad/codec/pma.h"
#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// Where PerfMgt MADs for one PMA go: LID-routed to `lid`, QP `qpn`, Q_Key `qkey`, P_Key `pkey`.
struct PmaRoute {
  Lid lid = 0;
  std::uint32_t qpn = 1;             ///< 1 = the GSI (the PMA's own QP1)
  std::uint32_t qkey = 0x80010000;   ///< the well-known GSI Q_Key (IBA 13.4.4)
  std::uint16_t pkey = 0xFFFF;       ///< the default partition
  bool operator==(const PmaRoute&) const = default;
};

/// The GSI route to a PMA at `lid`: QP1, the GSI Q_Key, the default partition.
PmaRoute gsi_route(Lid lid);

/// The route a redirecting PMA asks for (see the header comment), from its ClassPortInfo `cpi` and the route
/// `from` that the redirected MAD took.
Result<PmaRoute> redirect_route(const mad::PmaClassPortInfo& cpi, const PmaRoute& from);

}  // namespace smd
