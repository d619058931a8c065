// LocalSm: this SM as the other SMs see it (IBA 14.4.1): its port's identity, read when the port opens and
// again by every sweep, and the SMInfo fields only it sets (SMState, ActCount). What an SMInfo Get is
// answered with, what a poll carries, how the election sees us and the SA's own SMInfoRecord are all made
// here from one value, so they cannot disagree.
#pragma once

#include <cstdint>

#include "mad/codec/sm_info.h"
#include "routing/base/ids.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/sm/sm_election.h"

namespace smd {

struct LocalSm {
  mad::SmState state = mad::SmState::kDiscovering;  ///< SMInfo:SMState, changed only by the state machine
  std::uint32_t act_count = 0;                      ///< SMInfo:ActCount, +1 per configuring sweep as MASTER
  Guid guid = 0;                                    ///< our port's GUID (the SM's GUID in SMInfo)
  Lid lid = 0;                                      ///< our port's LID as last read, 0 before the first sweep
  PortNum port = 0;                                 ///< our port's number (PortInfo attribute modifier)
  std::uint32_t capmask = 0;                        ///< our port's CapabilityMask as last read

  bool master() const { return state == mad::SmState::kMaster; }
  /// Our SMInfo with `sm_key` in its SM_Key field and `priority` (sm.priority, 0..15).
  mad::SmInfo sminfo(std::uint64_t sm_key, unsigned priority) const;
  /// Ourselves as the election rules (sm_election.h) compare us.
  SmSelf self(unsigned priority, std::uint64_t sm_key) const { return SmSelf{state, priority, guid, sm_key}; }
  /// Our SMInfoRecord entry for the SA (the first of SaPublishInput::sms).
  sa::SmEntry sa_entry(std::uint64_t sm_key, unsigned priority) const;
};

/// The SA's SMInfoRecord entry of another SM, `info` as last read from its port at `lid`.
sa::SmEntry sa_entry_of(Lid lid, Guid guid, const mad::SmInfo& info);

}  // namespace smd
