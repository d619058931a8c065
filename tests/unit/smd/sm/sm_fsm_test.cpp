// The SM state machine's table (smd/sm/sm_fsm.h), cell by cell where the spec says what happens
// (IBA 14.4.1, table 186), and as properties over every cell where it must hold everywhere.
#include "smd/sm/sm_fsm.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "smd/sm/sminfo_access.h"

namespace smd::sm_fsm_test {
namespace {

using mad::SmState;

constexpr SmState kStates[] = {SmState::kNotActive, SmState::kDiscovering, SmState::kStandby, SmState::kMaster};

std::vector<SmEvent> all_events() {
  std::vector<SmEvent> out;
  for (std::size_t e = 0; e < kSmEventCount; ++e) out.push_back(static_cast<SmEvent>(e));
  return out;
}

SmTransition cell(SmAction action, SmState next) { return {action, next}; }

TEST(SmFsm, EveryEventAndActionHasAName) {
  for (SmEvent e : all_events()) EXPECT_STRNE(to_string(e), "?") << static_cast<int>(e);
  EXPECT_STREQ(to_string(SmEvent::kSetHandover), "set-handover");
  EXPECT_STREQ(to_string(SmAction::kStagePolicy), "stage-policy");
}

TEST(SmFsm, TheFirstSweepDecidesBetweenMasterAndStandby) {
  // IBA 14.4.1.1: DISCOVERING ends MASTER when no SM of higher precedence is found (even with problems,
  // the SM owns the subnet and keeps re-sweeping), STANDBY when the gate found a master.
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kSweepUp), cell(SmAction::kConfigured, SmState::kMaster));
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kSweepNotUp), cell(SmAction::kConfigured, SmState::kMaster));
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kSweepFoundMaster),
            cell(SmAction::kFollowMaster, SmState::kStandby));
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kSweepUp), cell(SmAction::kConfigured, SmState::kMaster));
  // A MASTER that hands over (or finds a master that outranks it) stops at the gate too.
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kSweepFoundMaster),
            cell(SmAction::kFollowMaster, SmState::kStandby));
}

TEST(SmFsm, SweepsRunOnlyWhereTheSmOwnsOrSeeksTheSubnet) {
  for (SmState s : kStates) {
    const bool sweeps = s == SmState::kDiscovering || s == SmState::kMaster;
    EXPECT_EQ(sm_transition(s, SmEvent::kHeavySweepDue).action == SmAction::kRunHeavySweep, sweeps) << to_string(s);
    EXPECT_EQ(sm_transition(s, SmEvent::kLightSweepDue).action == SmAction::kRunLightSweep, s == SmState::kMaster);
    // A STANDBY polls its master; a MASTER polls a lower master until it hands over (C14-60.2.1; issue 13:
    // before, a MASTER never polled, and two masters stayed two).
    EXPECT_EQ(sm_transition(s, SmEvent::kPollDue).action == SmAction::kPollMaster,
              s == SmState::kStandby || s == SmState::kMaster);
    // A sweep's outcome never arrives where no sweep runs: those cells do nothing and keep the state.
    if (!sweeps) {
      for (SmEvent e :
           {SmEvent::kSweepUp, SmEvent::kSweepNotUp, SmEvent::kSweepFoundMaster, SmEvent::kSweepAwaitsHandover}) {
        EXPECT_EQ(sm_transition(s, e), cell(SmAction::kNone, s)) << to_string(s) << " " << to_string(e);
      }
    }
  }
}

TEST(SmFsm, StandbyOnlyPollsAndTakesOver) {
  for (SmEvent e : {SmEvent::kTrapLinkChange, SmEvent::kTrapOther, SmEvent::kLightSweepChange, SmEvent::kSweepRequested,
                    SmEvent::kRerouteRequested, SmEvent::kPolledByHigherStandby, SmEvent::kPolledByHigherMaster,
                    SmEvent::kIsSmRestored}) {
    EXPECT_EQ(sm_transition(SmState::kStandby, e), cell(SmAction::kNone, SmState::kStandby)) << to_string(e);
  }
  EXPECT_EQ(sm_transition(SmState::kStandby, SmEvent::kMasterLost), cell(SmAction::kTakeOver, SmState::kMaster));
  EXPECT_EQ(sm_transition(SmState::kStandby, SmEvent::kSetHandover), cell(SmAction::kTakeHandover, SmState::kMaster));
  // Only a standby takes over from a lost master; a MASTER whose awaited lower master went silent (or gave
  // mastership up) sweeps, as OpenSM does on its polling timeout in MASTER.
  for (SmState s : {SmState::kNotActive, SmState::kDiscovering}) {
    EXPECT_EQ(sm_transition(s, SmEvent::kMasterLost), cell(SmAction::kNone, s));
  }
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kMasterLost), cell(SmAction::kRequestSweep, SmState::kMaster));
  // A polled master below us is nudged, by a standby and by a master waiting for it.
  EXPECT_EQ(sm_transition(SmState::kStandby, SmEvent::kPolledMasterBelowUs),
            cell(SmAction::kNudgeMaster, SmState::kStandby));
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kPolledMasterBelowUs),
            cell(SmAction::kNudgeMaster, SmState::kMaster));
}

TEST(SmFsm, TwoMastersResolveThroughTheTable) {
  // The lower master's gate yields (kSweepFoundMaster: STANDBY); the higher one's gate waits, polling.
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kSweepAwaitsHandover),
            cell(SmAction::kAwaitHandover, SmState::kMaster));
  // The lower master's HANDOVER reaches the higher one as MASTER: it sweeps and configures everything.
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kSetHandover), cell(SmAction::kAcceptHandover, SmState::kMaster));
  // Polled by a master that outranks it, or its IsSM back after it was missing: a MASTER sweeps.
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kPolledByHigherMaster).action, SmAction::kRequestSweep);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kIsSmRestored).action, SmAction::kRequestSweep);
  // A DISCOVERING SM handed the subnet takes it at once; told to discover, a STANDBY sweeps.
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kSetHandover),
            cell(SmAction::kTakeHandover, SmState::kMaster));
  EXPECT_EQ(sm_transition(SmState::kStandby, SmEvent::kSetDiscover),
            cell(SmAction::kRequestSweep, SmState::kDiscovering));
  EXPECT_EQ(sm_transition(SmState::kNotActive, SmEvent::kSetStandby), cell(SmAction::kFollowSender, SmState::kStandby));
  for (SmState s : kStates) {
    EXPECT_EQ(sm_transition(s, SmEvent::kSetAcknowledge), cell(SmAction::kNone, s)) << to_string(s);
  }
}

TEST(SmFsm, MasterSweepsForTrapsChangesRequestsAndAHigherStandby) {
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kTrapLinkChange).action, SmAction::kRequestSweep);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kTrapOther).action, SmAction::kRequestSweep);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kLightSweepChange).action, SmAction::kRequestSweep);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kSweepRequested).action, SmAction::kRequestSweep);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kRerouteRequested).action, SmAction::kRequestReroute);
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kPolledByHigherStandby).action, SmAction::kRequestSweep);
  // A discovering SM is not polled by standbys (they poll masters).
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kPolledByHigherStandby).action, SmAction::kNone);
  // NOTACTIVE sweeps nothing, for nobody.
  for (SmEvent e :
       {SmEvent::kTrapLinkChange, SmEvent::kTrapOther, SmEvent::kSweepRequested, SmEvent::kRerouteRequested}) {
    EXPECT_EQ(sm_transition(SmState::kNotActive, e), cell(SmAction::kNone, SmState::kNotActive)) << to_string(e);
  }
}

TEST(SmFsm, AReloadedPolicyWaitsForTheNextSweepOnlyWhereSweepsRun) {
  EXPECT_EQ(sm_transition(SmState::kMaster, SmEvent::kPolicyReloaded), cell(SmAction::kStagePolicy, SmState::kMaster));
  EXPECT_EQ(sm_transition(SmState::kDiscovering, SmEvent::kPolicyReloaded),
            cell(SmAction::kStagePolicy, SmState::kDiscovering));
  EXPECT_EQ(sm_transition(SmState::kStandby, SmEvent::kPolicyReloaded),
            cell(SmAction::kAdoptPolicy, SmState::kStandby));
  EXPECT_EQ(sm_transition(SmState::kNotActive, SmEvent::kPolicyReloaded),
            cell(SmAction::kAdoptPolicy, SmState::kNotActive));
}

// `smctl sweep --light` runs a light sweep only where light sweeps run; `smctl sweeps off|on` is recorded in
// every state (a STANDBY that becomes MASTER keeps the operator's maintenance) and never changes the state.
TEST(SmFsm, RuntimeControlsOfTheOperator) {
  for (SmState s : kStates) {
    EXPECT_EQ(sm_transition(s, SmEvent::kLightSweepRequested),
              cell(s == SmState::kMaster ? SmAction::kRunLightSweep : SmAction::kNone, s))
        << to_string(s);
    EXPECT_EQ(sm_transition(s, SmEvent::kSweepingChanged), cell(SmAction::kSetSweeping, s)) << to_string(s);
  }
  EXPECT_STREQ(to_string(SmEvent::kLightSweepRequested), "light-sweep-requested");
  EXPECT_STREQ(to_string(SmEvent::kSweepingChanged), "sweeping-changed");
  EXPECT_STREQ(to_string(SmAction::kSetSweeping), "set-sweeping");
}

TEST(SmFsm, StopIsHonouredInEveryState) {
  for (SmState s : kStates) EXPECT_EQ(sm_transition(s, SmEvent::kStop), cell(SmAction::kStop, s));
}

// IBA 14.4.1 table 186: an obeyed Set leads to the same state whatever the state it came in; a Set that
// sminfo_set_allowed() refuses is never queued, and its cell keeps the state.
TEST(SmFsm, ObeyedSetsAgreeWithTheElectionRules) {
  struct Want {
    std::uint32_t mod;
    SmState to;
  };
  for (const Want w :
       {Want{mad::sminfo_mod::kHandover, SmState::kMaster}, Want{mad::sminfo_mod::kDisable, SmState::kNotActive},
        Want{mad::sminfo_mod::kStandby, SmState::kStandby}, Want{mad::sminfo_mod::kDiscover, SmState::kDiscovering}}) {
    const auto event = sminfo_set_event(w.mod);
    ASSERT_TRUE(event.has_value());
    for (SmState s : kStates) {
      const SmTransition t = sm_transition(s, *event);
      if (sminfo_set_allowed(s, w.mod)) {
        EXPECT_EQ(t.next, w.to) << to_string(s) << " " << to_string(*event);
      } else {
        EXPECT_EQ(t, cell(SmAction::kNone, s)) << to_string(s) << " " << to_string(*event);
      }
    }
  }
  // ACKNOWLEDGE is an event too (logged), and changes nothing anywhere.
  EXPECT_EQ(sminfo_set_event(mad::sminfo_mod::kAcknowledge), SmEvent::kSetAcknowledge);
  EXPECT_FALSE(sminfo_set_event(0).has_value());
}

TEST(SmFsm, OnlySweepOutcomesSetsAndALostMasterChangeTheState) {
  for (SmState s : kStates) {
    for (SmEvent e : all_events()) {
      switch (e) {
        case SmEvent::kSweepUp:
        case SmEvent::kSweepNotUp:
        case SmEvent::kSweepFoundMaster:
        case SmEvent::kSetHandover:
        case SmEvent::kSetDisable:
        case SmEvent::kSetStandby:
        case SmEvent::kSetDiscover:
        case SmEvent::kMasterLost: break;
        default: EXPECT_EQ(sm_transition(s, e).next, s) << to_string(s) << " " << to_string(e);
      }
    }
  }
}

TEST(SmFsm, ProjectedStateFollowsTheQueueInOrder) {
  const std::vector<SmEvent> none;
  EXPECT_EQ(project_state(SmState::kMaster, none), SmState::kMaster);
  // Told to stand by, then handed the subnet: MASTER (the HANDOVER GetResp says MASTER).
  const std::vector<SmEvent> back = {SmEvent::kSetStandby, SmEvent::kTrapOther, SmEvent::kSetHandover};
  EXPECT_EQ(project_state(SmState::kNotActive, back), SmState::kMaster);
  // DISABLE goes to a standby (IBA table 186; a MASTER used to take it too).
  const std::vector<SmEvent> disabled = {SmEvent::kSweepRequested, SmEvent::kSetDisable};
  EXPECT_EQ(project_state(SmState::kStandby, disabled), SmState::kNotActive);
  EXPECT_EQ(project_state(SmState::kMaster, disabled), SmState::kMaster);
  const std::vector<SmEvent> woken = {SmEvent::kSetDisable, SmEvent::kSetDiscover};
  EXPECT_EQ(project_state(SmState::kDiscovering, woken), SmState::kDiscovering);
  const std::vector<SmEvent> lost = {SmEvent::kPollDue, SmEvent::kMasterLost};
  EXPECT_EQ(project_state(SmState::kStandby, lost), SmState::kMaster);
}

TEST(SmFsm, OnlyTheMasterProgramsMulticastTrees) {
  // A STANDBY's SA does not serve, so its groups never change; a DISCOVERING SM has not programmed the fabric
  // yet, and its first sweep as master programs every group anyway. Neither event changes the state.
  for (SmState s : kStates) {
    const bool master = s == SmState::kMaster;
    EXPECT_EQ(sm_transition(s, SmEvent::kGroupsChanged), cell(master ? SmAction::kScheduleMcast : SmAction::kNone, s))
        << to_string(s);
    EXPECT_EQ(sm_transition(s, SmEvent::kMcastDue), cell(master ? SmAction::kRunMcastPass : SmAction::kNone, s))
        << to_string(s);
  }
}

TEST(SmFsm, OnlyTheMasterAppliesCounterPassesButAnySmClearsAPort) {
  // Only a master runs the PerfMgr, so a counter pass arriving after mastership was lost is dropped; a clear
  // is the operator's and is kept in every state (the marks outlive a standby period). Neither changes state.
  for (SmState s : kStates) {
    const bool master = s == SmState::kMaster;
    EXPECT_EQ(sm_transition(s, SmEvent::kCountersRead), cell(master ? SmAction::kApplyHealth : SmAction::kNone, s))
        << to_string(s);
    EXPECT_EQ(sm_transition(s, SmEvent::kPortClearRequested), cell(SmAction::kClearPort, s)) << to_string(s);
  }
}

}  // namespace
}  // namespace smd::sm_fsm_test
