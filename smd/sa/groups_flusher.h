// GroupsFlusher: how the SA thread's multicast group changes reach the SM and the groups file. A join storm
// changes the groups thousands of times a second: the SM's copy (the McastSink) and the file follow at most
// every kGroupsFlush after the first change, and at once on a clean stop. Making the file's text of a big
// storm takes milliseconds: after a text that took d the next waits kGroupsFileRest * d, so it takes a
// bounded share of the thread that answers the joins; a thread of its own writes and fsyncs it
// (LatestFileWriter). A crash loses at most the joins of the last (1 + kGroupsFileRest) * d, kGroupsFlush
// at least (hosts rejoin after the next master's ClientReregister). SA-thread only.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "smd/sa/mcast_db.h"
#include "smd/state/latest_file_writer.h"

namespace smd::sa {

class GroupsFlusher {
 public:
  using Clock = std::chrono::steady_clock;
  /// Receives every group with its members after a change (SaAgent::McastSink).
  using Sink = std::function<void(std::vector<McastGroupMembers> groups)>;

  /// `groups_file` "": the groups are not persisted.
  explicit GroupsFlusher(std::string groups_file) : file_(std::move(groups_file)) {}
  void set_sink(Sink sink) { sink_ = std::move(sink); }
  /// The groups changed at `now`: hand them over and write them within kGroupsFlush.
  void changed(Clock::time_point now);
  /// Hand over and write what is due at `now` from `groups` (stamped with `self_guid`); `final` (a clean
  /// stop): all of it now, and wait until the file is written.
  void flush(const McastDb& groups, Guid self_guid, Clock::time_point now, bool final = false);
  /// When flush() next has work; nullopt: nothing pending.
  std::optional<Clock::time_point> next_due() const;

 private:
  std::string file_;
  Sink sink_;
  std::optional<Clock::time_point> flush_due_;  ///< changes not yet handed over: when they will be
  bool file_behind_ = false;                    ///< the file is behind the groups ...
  Clock::time_point file_after_{};              ///< ... and is made again no earlier than this
  std::unique_ptr<LatestFileWriter> writer_;    ///< made with the first write
};

}  // namespace smd::sa
