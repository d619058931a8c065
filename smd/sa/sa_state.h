// The SA's mutable state (services, subscriptions, multicast groups, alias GUIDs) and the flags a request
// leaves for the agent to act on after it (persist, write a port, send a trap). Owned by the SA thread; the
// request handlers of sa_dispatch.cpp change it, the agent (sa_agent.h) takes what they left.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "smd/sa/alias_guids.h"
#include "smd/sa/inform_db.h"
#include "smd/sa/mcast_db.h"
#include "smd/sa/service_db.h"
#include "smd/sa/table_cache.h"

namespace smd::sa {

/// The SA's mutable state: registered services and event subscriptions. Owned by the SA thread.
struct SaState {
  ServiceDb services;
  InformDb informs;
  bool services_changed = false;  ///< set by a Set/Delete/expiry; the agent persists and clears it
  /// The port tables read so far (PKeyTable, SL2VL, VLArb records); null: those records are not served.
  const TableCache* tables = nullptr;
  /// Out: the blocks an answer still needs (answer_mad then answers nothing, outcome kWaiting) ...
  std::vector<TableKey> missing;
  /// ... unless this is set: answer with the records whose blocks are in.
  bool answer_partial = false;
  /// Multicast groups (MCMemberRecord).
  McastDb mcast;
  bool mcast_changed = false;            ///< set by a join/leave that changed something; the agent clears it
  std::vector<McastEvent> mcast_events;  ///< groups created/deleted (traps 66/67); the agent takes them
  std::string mcast_why;                 ///< why the last MCMemberRecord request failed, for the log
  std::uint64_t mcast_joins = 0;         ///< successful joins (Set) so far
  std::uint64_t mcast_leaves = 0;        ///< successful leaves (Delete) so far
  /// Alias GUIDs (GUIDInfoRecord Set/Delete).
  AliasGuidTable aliases;
  bool aliases_changed = false;  ///< set by a Set/Delete that changed the table; the agent persists and clears it
  std::vector<std::pair<Guid, unsigned>> alias_writes;  ///< (port GUID, block) changed; the agent writes the port
  std::string alias_why;         ///< why the last GUIDInfoRecord Set/Delete was refused (in part), for the log
  /// alias -> port GUID as of the last change (what PathRecord and NodeRecord resolve alias GIDs with); the
  /// agent hands it to the receive thread's state too.
  std::shared_ptr<const AliasBases> alias_bases;
};

}  // namespace smd::sa
