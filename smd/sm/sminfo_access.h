// What a received SMInfo Get or Set may do (IBA vol. 1, 14.2.5.13, 14.4.1 and 14.2.4), as pure functions:
// whether a Get learns our SM_Key, and whether a Set (a "control packet") is obeyed.
//
// The facts behind them, as IBA states them and OpenSM 3.3.23 implements them (osm_sminfo_rcv.c,
// osm_sm_state_mgr.c), so that smd and OpenSM agree on every packet they exchange:
//  - SM_Key in a SubnGetResp(SMInfo) follows the M_Key protection of the answering SM's own port, the way
//    PortInfo:M_Key does (IBA 14.2.4.1): no M_Key on the port, or the Get carried it, or MKeyProtectBits 0:
//    the key is returned; MKeyProtectBits 1 and a wrong M_Key: SM_Key 0; MKeyProtectBits 2 or 3 and a wrong
//    M_Key: no answer at all. A Get's own SM_Key field plays no part (OpenSM's Gets carry none).
//  - A Set with a wrong M_Key (the port has one) is dropped without an answer (IBA 14.2.4.3).
//  - A Set is a control packet (IBA 14.4.1, table 186): HANDOVER, DISABLE, STANDBY and DISCOVER come only
//    from a MASTER (the sender's SMInfo:SMState says so); ACKNOWLEDGE from the new master (or, as OpenSM
//    sends it, a standby). Each is legal in the states the SM state diagram gives it:
//      HANDOVER    to a STANDBY (it becomes MASTER), to a MASTER (a lower master hands its part of the
//                  subnet over: sweep), to a DISCOVERING SM (it becomes MASTER at once);
//      ACKNOWLEDGE to a STANDBY or MASTER (nothing changes: the handover it acknowledges is done);
//      DISABLE     to a STANDBY (it goes NOTACTIVE);
//      STANDBY     to a NOTACTIVE SM (it goes STANDBY and polls the sender);
//      DISCOVER    to a STANDBY (it goes DISCOVERING and sweeps); smd also lets it wake a NOTACTIVE SM.
//  - The SM_Key the Set carries must equal ours (IBA 14.4.1.3; OpenSM leaves this check as a TODO).
#pragma once

#include <cstdint>

#include "mad/codec/sm_info.h"

namespace smd {

/// M_Key and MKeyProtectBits of this SM's own port. smd gives every endport, its own included,
/// security.m_key with security.m_key_protect, so those are the values (0 / 0 without M_Key).
struct OwnPortKey {
  std::uint64_t m_key = 0;
  unsigned protect_bits = 0;  ///< 0..3
};

/// What a received SubnGet(SMInfo) gets back.
enum class GetAnswer : std::uint8_t {
  kWithKey,     ///< GetResp carrying our SM_Key
  kWithoutKey,  ///< GetResp with SM_Key 0 (protection level 1, wrong M_Key)
  kNone,        ///< no answer (protection level 2 or 3, wrong M_Key)
};

/// The answer to a Get that carried `request_m_key` in its SMP header, by the protection of our port.
GetAnswer sminfo_get_answer(std::uint64_t request_m_key, const OwnPortKey& own);

/// The SM_Key field of our GetResp for `answer` (kNone: never sent; 0).
std::uint64_t sm_key_in_response(GetAnswer answer, std::uint64_t own_key);

/// Why a received SubnSet(SMInfo) is not obeyed; kObeyed when it is.
enum class SetRefusal : std::uint8_t {
  kObeyed,
  kWrongMKey,        ///< the port has an M_Key and the Set did not carry it: dropped, no answer
  kWrongSmKey,       ///< the SM_Key it carries is not ours
  kSenderNotMaster,  ///< HANDOVER/DISABLE/STANDBY/DISCOVER from an SM whose SMInfo is not MASTER
  kNoTransition,     ///< the modifier is not legal in our state (table above)
  kUnknownModifier,  ///< not one of 1..5
};

/// True when a Set with modifier `mod` (mad::sminfo_mod::*) is legal in `state` (the table above).
bool sminfo_set_allowed(mad::SmState state, std::uint32_t mod);

/// Check a received Set in order: M_Key, modifier, SM_Key, sender's state, transition. `sender` is the
/// SMInfo the Set carries; `request_m_key` the M_Key of its SMP header.
SetRefusal sminfo_set_refusal(mad::SmState state, std::uint32_t mod, const mad::SmInfo& sender,
                              std::uint64_t own_sm_key, std::uint64_t request_m_key, const OwnPortKey& own);

/// For logs: "obeyed", "wrong M_Key", "wrong SM_Key", "sender is not MASTER", "no such transition",
/// "unknown modifier".
const char* to_string(SetRefusal refusal);

}  // namespace smd
