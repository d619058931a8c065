// What a received SMInfo Get learns and which Set is obeyed (smd/sm/sminfo_access.h): the M_Key protection
// levels of IBA 14.2.4.1 applied to SM_Key as OpenSM 3.3.23 applies them (osm_sminfo_rcv.c), and the
// control packets of IBA 14.4.1 table 186 state by state.
#include "smd/sm/sminfo_access.h"

#include <gtest/gtest.h>

namespace smd::sminfo_access_test {
namespace {

using mad::SmState;
using namespace mad::sminfo_mod;

constexpr SmState kStates[] = {SmState::kNotActive, SmState::kDiscovering, SmState::kStandby, SmState::kMaster};

mad::SmInfo sender(SmState state, std::uint64_t key) {
  mad::SmInfo i;
  i.guid = 0x200;
  i.priority = 5;
  i.state = state;
  i.sm_key = key;
  return i;
}

// Issue 13: the key used to go only to a Get that carried it. OpenSM's Gets carry none, so it saw key 0,
// took smd for a foreign SM (ERR 2F18) and stayed a second master; IBA withholds the key only under M_Key
// protection.
TEST(SmInfoAccess, KeyWithheldOnlyUnderMKeyProtection) {
  EXPECT_EQ(sminfo_get_answer(0, {}), GetAnswer::kWithKey);            // no M_Key on our port
  EXPECT_EQ(sminfo_get_answer(0x5, {0, 2}), GetAnswer::kWithKey);      // protection without a key is none
  EXPECT_EQ(sminfo_get_answer(0, {0xAB, 0}), GetAnswer::kWithKey);     // level 0: Get is free
  EXPECT_EQ(sminfo_get_answer(0, {0xAB, 1}), GetAnswer::kWithoutKey);  // level 1: key returned as 0
  EXPECT_EQ(sminfo_get_answer(0xAB, {0xAB, 1}), GetAnswer::kWithKey);  // ... unless the Get has our M_Key
  EXPECT_EQ(sminfo_get_answer(0x1, {0xAB, 2}), GetAnswer::kNone);      // level 2: no answer
  EXPECT_EQ(sminfo_get_answer(0x1, {0xAB, 3}), GetAnswer::kNone);      // level 3 likewise
  EXPECT_EQ(sminfo_get_answer(0xAB, {0xAB, 3}), GetAnswer::kWithKey);
  EXPECT_EQ(sm_key_in_response(GetAnswer::kWithKey, 0x77), 0x77u);
  EXPECT_EQ(sm_key_in_response(GetAnswer::kWithoutKey, 0x77), 0u);
}

TEST(SmInfoAccess, ControlPacketsAndTheStatesThatTakeThem) {
  // IBA table 186 (and the SM state diagram): who may receive what.
  for (SmState s : kStates) {
    EXPECT_EQ(sminfo_set_allowed(s, kHandover), s != SmState::kNotActive) << mad::to_string(s);
    EXPECT_EQ(sminfo_set_allowed(s, kAcknowledge), s == SmState::kStandby || s == SmState::kMaster);
    EXPECT_EQ(sminfo_set_allowed(s, kDisable), s == SmState::kStandby);
    EXPECT_EQ(sminfo_set_allowed(s, kStandby), s == SmState::kNotActive);
    EXPECT_EQ(sminfo_set_allowed(s, kDiscover), s == SmState::kStandby || s == SmState::kNotActive);
    EXPECT_FALSE(sminfo_set_allowed(s, 0));
    EXPECT_FALSE(sminfo_set_allowed(s, 6));
  }
}

// Issue 13 changed the old rules here: HANDOVER is taken by a MASTER too (a lower master hands over its
// part), DISABLE goes only to a STANDBY, STANDBY only to a NOTACTIVE SM (IBA table 186, as OpenSM checks).
TEST(SmInfoAccess, SetChecksInOrder) {
  const OwnPortKey none{};
  const std::uint64_t key = 0x99;
  const mad::SmInfo master = sender(SmState::kMaster, key);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, kHandover, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, sender(SmState::kMaster, 0x98), key, 0, none),
            SetRefusal::kWrongSmKey);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, sender(SmState::kMaster, 0), key, 0, none),
            SetRefusal::kWrongSmKey);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, sender(SmState::kStandby, key), key, 0, none),
            SetRefusal::kSenderNotMaster);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, kDisable, master, key, 0, none), SetRefusal::kNoTransition);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kDisable, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kNotActive, kStandby, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, kStandby, master, key, 0, none), SetRefusal::kNoTransition);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kDiscover, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, 9, master, key, 0, none), SetRefusal::kUnknownModifier);
  // ACKNOWLEDGE comes from the new master (IBA) or, as OpenSM's check has it, from a standby.
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kAcknowledge, master, key, 0, none), SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, kAcknowledge, sender(SmState::kStandby, key), key, 0, none),
            SetRefusal::kObeyed);
  EXPECT_EQ(sminfo_set_refusal(SmState::kMaster, kAcknowledge, sender(SmState::kDiscovering, key), key, 0, none),
            SetRefusal::kSenderNotMaster);
  // The M_Key comes first: a Set without our port's M_Key is dropped whatever it says.
  const OwnPortKey protected_port{0xAB, 1};
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, master, key, 0, protected_port), SetRefusal::kWrongMKey);
  EXPECT_EQ(sminfo_set_refusal(SmState::kStandby, kHandover, master, key, 0xAB, protected_port), SetRefusal::kObeyed);
  EXPECT_STREQ(to_string(SetRefusal::kWrongSmKey), "wrong SM_Key");
}

}  // namespace
}  // namespace smd::sminfo_access_test
