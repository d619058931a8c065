#include "smd/sm/sminfo_access.h"

#include "smd/sm/sm_election.h"

namespace smd {

namespace {

bool m_key_fails(std::uint64_t request_m_key, const OwnPortKey& own) {
  return own.m_key != 0 && request_m_key != own.m_key;
}

}  // namespace

GetAnswer sminfo_get_answer(std::uint64_t request_m_key, const OwnPortKey& own) {
  if (!m_key_fails(request_m_key, own) || own.protect_bits == 0) return GetAnswer::kWithKey;
  return own.protect_bits == 1 ? GetAnswer::kWithoutKey : GetAnswer::kNone;
}

std::uint64_t sm_key_in_response(GetAnswer answer, std::uint64_t own_key) {
  return answer == GetAnswer::kWithKey ? own_key : 0;
}

bool sminfo_set_allowed(mad::SmState state, std::uint32_t mod) {
  using mad::SmState;
  switch (mod) {
    case mad::sminfo_mod::kHandover: return state != SmState::kNotActive;
    case mad::sminfo_mod::kAcknowledge: return state == SmState::kStandby || state == SmState::kMaster;
    case mad::sminfo_mod::kDisable: return state == SmState::kStandby;
    case mad::sminfo_mod::kStandby: return state == SmState::kNotActive;
    case mad::sminfo_mod::kDiscover: return state == SmState::kStandby || state == SmState::kNotActive;
    default: return false;
  }
}

SetRefusal sminfo_set_refusal(mad::SmState state, std::uint32_t mod, const mad::SmInfo& sender,
                              std::uint64_t own_sm_key, std::uint64_t request_m_key, const OwnPortKey& own) {
  if (m_key_fails(request_m_key, own)) return SetRefusal::kWrongMKey;
  if (mod < mad::sminfo_mod::kHandover || mod > mad::sminfo_mod::kDiscover) return SetRefusal::kUnknownModifier;
  if (!sm_key_matches(sender.sm_key, own_sm_key)) return SetRefusal::kWrongSmKey;
  const bool from_master = sender.state == mad::SmState::kMaster;
  if (mod == mad::sminfo_mod::kAcknowledge) {
    if (!from_master && sender.state != mad::SmState::kStandby) return SetRefusal::kSenderNotMaster;
  } else if (!from_master) {
    return SetRefusal::kSenderNotMaster;
  }
  return sminfo_set_allowed(state, mod) ? SetRefusal::kObeyed : SetRefusal::kNoTransition;
}

const char* to_string(SetRefusal refusal) {
  switch (refusal) {
    case SetRefusal::kObeyed: return "obeyed";
    case SetRefusal::kWrongMKey: return "wrong M_Key";
    case SetRefusal::kWrongSmKey: return "wrong SM_Key";
    case SetRefusal::kSenderNotMaster: return "sender is not MASTER";
    case SetRefusal::kNoTransition: return "no such transition";
    case SetRefusal::kUnknownModifier: return "unknown modifier";
  }
  return "?";
}

}  // namespace smd
