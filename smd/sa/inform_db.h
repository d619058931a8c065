// InformDb: who subscribed to which traps (IBA vol. 1, 13.4.8.3 InformInfo, 15.2.5.12 InformInfoRecord,
// C15-0.2.x): the subscriptions InformInfo Sets made, matched against each notice to decide who gets a
// Report. A subscriber is addressed by the LID its Set came from and the QPN it named. Pure: the agent
// sends the Reports, retries them and tells this store which subscribers stopped answering.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "mad/codec/notice.h"
#include "mad/sa/inform_info.h"
#include "smd/sa/sa_query.h"

namespace smd::sa {

struct Subscription {
  std::uint32_t id = 0;  ///< InformInfoRecord:SubscriberEnum (unique while the subscription lives)
  mad::sa::Gid subscriber_gid{};
  Lid lid = 0;  ///< where Reports go
  std::uint32_t qpn = 1;
  mad::sa::InformInfo info;
  bool trusted = false;  ///< made with the SA's SM_Key: only such a subscription hears security notices
};

/// Bounds on what requesters can make the SA hold: a subscription is a Report for every matching trap.
inline constexpr std::size_t kMaxSubscriptions = 4096;
inline constexpr std::size_t kMaxSubscriptionsPerPort = 64;

class InformDb {
 public:
  /// InformInfo Set from `q` (subscriber = `subscriber_gid` at q.requester_lid). Subscribe=1 adds (an
  /// identical subscription is not added twice: it takes the new QPN), Subscribe=0 removes the subscriber's
  /// matching ones, REQ_INVALID when it has none (OpenSM's rule, which osmtest checks). Security traps (Type 2) need a trusted
  /// requester, else REQ_INVALID; beyond kMaxSubscriptionsPerPort from one LID or kMaxSubscriptions in
  /// all, NO_RESOURCES. Answers the InformInfo as stored.
  SaAnswer set(const SaQuery& q, const mad::sa::Gid& subscriber_gid);
  /// InformInfoRecord Get / GetTable over the live subscriptions.
  SaAnswer records(const SaQuery& q, std::uint32_t max_records) const;
  /// Subscriptions that want `notice` from an issuer at `issuer_lid`; one whose InformInfo names a GID wants
  /// only the notices whose IssuerGID is that GID, whatever its LID range.
  std::vector<Subscription> subscribers(const mad::Notice& notice, Lid issuer_lid) const;
  /// Drop a subscription (its subscriber stopped answering Reports). False when it was already gone.
  bool drop(std::uint32_t id);
  /// Drop every subscription whose subscriber's port (the GUID in its GID's interface ID) `present` says
  /// left the subnet (sa.drop_absent_subscribers, OpenSM's drop_event_subscriptions); returns how many.
  std::size_t drop_absent(const std::function<bool(Guid)>& present);
  std::size_t size() const { return subs_.size(); }
  const std::vector<Subscription>& all() const { return subs_; }

 private:
  std::vector<Subscription> subs_;
  std::uint32_t next_id_ = 1;
};

}  // namespace smd::sa
