// KnownSms: the election agent's knowledge of the other SMs of the subnet, owned apart from the Daemon.
// The election gate replaces the list with the trusted SMs it read (IBA 14.4.1.1); a poll of the watched
// SM and each light sweep update it in between, so `smctl status` and the SA's SMInfo records show the
// subnet as it is, not as at the last election. SMs whose SMInfo reached us are remembered as "heard":
// the gate asks them even when their port lacks IsSM (ibsim clears it when an earlier process dies).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "mad/codec/dr_path.h"
#include "mad/codec/sm_info.h"
#include "routing/base/ids.h"

namespace smd {

/// The SM this one polls: its master (STANDBY), or the lower master it waits for (MASTER), and the other
/// SMs it knows from its last election.
struct WatchedSm {
  mad::DrPath path;     ///< directed route to its port (used when `by_lid` is false)
  bool by_lid = false;  ///< reached LID-routed instead (a STANDBY Set from an SM not in our fabric)
  Guid guid = 0;        ///< its port GUID
  Lid lid = 0;          ///< its port's LID as last read (the nudge goes there), 0 = unknown
  mad::SmInfo info;     ///< its SMInfo as last read
};

/// The entry of port GUID `guid` in `sms`, null when absent.
const WatchedSm* find_sm(const std::vector<WatchedSm>& sms, Guid guid);

class KnownSms {
 public:
  /// An SM whose trusted SMInfo reached us (a Get or Set): the next gate asks it even without IsSM.
  void heard(Guid port_guid) { heard_.insert(port_guid); }
  bool was_heard(Guid port_guid) const { return heard_.contains(port_guid); }
  /// Its port did not answer the gate: ask it again only when it says IsSM.
  void forget_heard(Guid port_guid) { heard_.erase(port_guid); }

  /// The gate's trusted answers become the list; the masters among them are counted. True when one of
  /// them is MASTER (the SA publisher notes it: its groups may be older than that master's subnet).
  bool replace(std::vector<WatchedSm> trusted);

  /// A poll of `watched` answered `answer`: its entry updated, or added. `was`: the entry before (nullopt
  /// when new); `changed`: it is new, its state moved, or the count of masters did.
  struct Polled {
    std::optional<WatchedSm> was;
    WatchedSm now;
    bool changed = false;
  };
  Polled note_polled(const WatchedSm& watched, const mad::SmInfo& answer);

  /// A light sweep re-read the list in place (entries()): `gone` did not answer and leave it; `masters`
  /// of those it read are MASTER now; `awaited`: the lower master polled instead of read, counted too.
  /// True when `masters` > 0 (an SM read as MASTER; the awaited one, only polled, does not count).
  bool after_light_sweep(const std::vector<Guid>& gone, unsigned masters, bool awaited);
  /// The list for the light sweep to re-read in place (pointers stay valid until after_light_sweep).
  std::vector<WatchedSm>& entries() { return sms_; }

  /// The other trusted SMs, in the order the gate read them.
  const std::vector<WatchedSm>& list() const { return sms_; }
  /// Other SMs in MASTER state at the last look.
  unsigned other_masters() const { return other_masters_; }

 private:

  std::vector<WatchedSm> sms_;
  std::unordered_set<Guid> heard_;
  unsigned other_masters_ = 0;
};

}  // namespace smd
