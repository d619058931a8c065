// The SMInfo agent (IBA 14.4.1): answers to other SMs' SubnGet(SMInfo) and SubnSet(SMInfo). What a Get
// learns and which Set is obeyed are the pure rules of smd/sm/sminfo_access.h; an obeyed Set, and a Get
// from an SM that outranks us, only queue events.
#include <spdlog/spdlog.h>

#include <optional>
#include <utility>

#include "smd/program/port_m_key.h"
#include "smd/sm/daemon.h"
#include "smd/sm/sm_election.h"

namespace smd {

namespace {

// MAD status of a refused Set (IBA 13.4.7: "invalid value in an attribute or modifier field"), with our
// SMInfo in the payload so the sender sees the state it did not change.
constexpr std::uint16_t kStatusInvalidField = 0x001C;

std::string describe_sender(const mad::SmInfo& theirs, const mad::UnsolicitedInfo& info) {
  std::string s = "SM " + format_guid(theirs.guid) + " (" + mad::to_string(theirs.state) + ", priority " +
                  std::to_string(theirs.priority);
  if (info.mgmt_class == mad::kClassSmiLid) s += ", LID " + std::to_string(info.from.lid);
  return s + ")";
}

}  // namespace

mad::SmInfo Daemon::own_sminfo(std::uint64_t sm_key) const { return local_.sminfo(sm_key, policy_.sm.priority); }

OwnPortKey Daemon::own_port_key() const {
  return {m_key_of_port(local_.guid), policy_.security.m_key_protect};
}

std::uint64_t Daemon::m_key_of_port(Guid port_guid) const {
  return policy_.security.m_key_per_port ? derive_port_m_key(policy_.security.m_key, port_guid)
                                         : policy_.security.m_key;
}

std::optional<WatchedSm> Daemon::reach_sm(Guid guid, Lid lid) const {
  if (const auto topo = runner_ ? runner_->topology() : nullptr) {
    for (const Node& node : topo->nodes()) {
      for (PortNum p = node.is_switch() ? 0 : 1; p <= node.num_ports; ++p) {
        const Port& port = node.ports[p];
        if ((port.guid ? port.guid : node.guid) != guid) continue;
        WatchedSm sm;
        sm.path = mad::DrPath(node.dr_path);
        sm.guid = guid;
        sm.lid = port.lid ? port.lid : lid;
        return sm;
      }
    }
  }
  if (lid == 0 || lid == mad::kPermissiveLid) return std::nullopt;
  WatchedSm sm;
  sm.by_lid = true;
  sm.guid = guid;
  sm.lid = lid;
  return sm;
}

void Daemon::answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  const auto header = mad::decode_smp_header(mad);
  if (!header) return;
  const mad::SmInfo theirs = mad::SmInfo::decode(mad::smp_data(mad));
  const std::uint64_t own_key = policy_.sm.sm_key;
  const OwnPortKey port_key = own_port_key();
  const std::string from = describe_sender(theirs, info);
  const bool trusted = theirs.guid != 0 && theirs.guid != local_.guid && sm_key_matches(theirs.sm_key, own_key);
  // Events may wait (a sweep runs): answer for the state they lead to, as the requester will find it.
  mad::SmState state = projected_state();
  std::uint16_t status = 0;
  std::uint64_t key_out = 0;
  if (info.method == static_cast<std::uint8_t>(mad::Method::kSet)) {
    // A control packet (IBA 14.4.1 table 186), obeyed only from a MASTER that knows our SM_Key.
    const SetRefusal refusal = sminfo_set_refusal(state, header->attr_mod, theirs, own_key, header->m_key, port_key);
    const std::optional<SmEvent> event = sminfo_set_event(header->attr_mod);
    if (refusal != SetRefusal::kObeyed || !event) {
      ++record_.counters().sminfo_sets_refused;
      spdlog::warn("SMInfo Set (modifier {}) from {} refused in state {}: {}", header->attr_mod, from,
                   mad::to_string(state), to_string(refusal));
      if (refusal == SetRefusal::kWrongMKey) return;  // IBA 14.2.4.3: an M_Key violation is not answered
      status = kStatusInvalidField;
      // Only a sender that proved our SM_Key learns it.
      if (refusal == SetRefusal::kSenderNotMaster || refusal == SetRefusal::kNoTransition) key_out = own_key;
    } else {
      election_.known().heard(theirs.guid);
      DaemonEvent e;
      e.kind = *event;
      e.peer_guid = theirs.guid;
      e.peer_lid = info.mgmt_class == mad::kClassSmiLid ? info.from.lid : Lid{0};
      switch (*event) {
        case SmEvent::kSetHandover: e.why = "HANDOVER from " + from; break;
        case SmEvent::kSetDisable: e.why = "disabled by " + from; break;
        case SmEvent::kSetStandby: e.why = "told to stand by by " + from; break;
        case SmEvent::kSetAcknowledge: e.why = "ACKNOWLEDGE from " + from; break;
        default: e.why = "told to discover by " + from; break;
      }
      spdlog::info("SMInfo Set (modifier {}) from {} obeyed in state {}", header->attr_mod, from,
                   mad::to_string(state));
      post(std::move(e));
      // The requester checks the state in our GetResp (smd takes a HANDOVER as done when we answer).
      state = sm_transition(state, *event).next;
      key_out = own_key;
    }
  } else {
    const GetAnswer answer = sminfo_get_answer(header->m_key, port_key);
    if (answer == GetAnswer::kNone) {
      spdlog::debug("SMInfo Get from {} with a wrong M_Key: not answered (MKeyProtectBits {})", from,
                    port_key.protect_bits);
      return;
    }
    key_out = sm_key_in_response(answer, own_key);
    if (trusted) {
      // smd's polls carry its own SMInfo: an SM that outranks us and polls us is the cue to sweep, find it
      // and hand over (a STANDBY), or yield (a MASTER waiting for us), without waiting for a trap.
      election_.known().heard(theirs.guid);
      const PeerVerdict v = judge_peer({state, policy_.sm.priority, local_.guid, own_key}, theirs);
      if (v == PeerVerdict::kHandOver) post(SmEvent::kPolledByHigherStandby, "polled by higher-priority " + from);
      if (v == PeerVerdict::kYield) post(SmEvent::kPolledByHigherMaster, "polled by higher-priority " + from);
    }
  }
  mad::SmInfo ours = own_sminfo(key_out);
  ours.state = state;
  mad::SmpData data{};
  ours.encode(data);
  std::array<std::uint8_t, mad::kMadSize> resp{};
  mad::make_smp_response(mad, status, data, resp);
  if (auto st = transport_->send_response(info, resp); !st.ok()) {
    spdlog::warn("SMInfo response: {}", st.error().message);
  }
}

}  // namespace smd
