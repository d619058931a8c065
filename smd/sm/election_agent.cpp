#include "smd/sm/election_agent.h"

#include <utility>

namespace smd {

ElectionAgent::ElectionAgent(boost::asio::io_context& io, std::function<void(DaemonEvent)> post)
    : poll_timer_(io, SmEvent::kPollDue, std::move(post)) {}

bool ElectionAgent::stop_awaiting() { return std::exchange(awaiting_, false); }

bool ElectionAgent::note_nudge(Guid master) { return std::exchange(nudged_, master) != master; }

}  // namespace smd
