// Our own port's IsSM capability (PortInfo:CapabilityMask bit 1, IBA 14.2.5.6): other SMs find an SM only
// by it, so an SM whose port lost it is invisible to every election. It goes when the issm device is
// closed; under ibsim it also goes when the simulator notices that an earlier SM process on the same port
// has died (it clears the bit for the port, although a new process holds the device: a kill -9 and an
// immediate restart). smd checks the bit after opening the port, in every heavy sweep's discovery, in every
// light sweep (MASTER) and in every poll (STANDBY), and restores it by opening the issm device again.
#include <spdlog/spdlog.h>

#include <optional>

#include "mad/codec/port_info.h"
#include "mad/transport/smp_batch.h"
#include "smd/sm/daemon.h"

namespace smd {

namespace {

// Our own port's PortInfo over the empty directed route (modifier: the port; a switch's port 0).
std::optional<mad::PortInfo> read_own_port(boost::asio::io_context& io, mad::SmpTransport& transport, PortNum port,
                                           std::uint64_t m_key) {
  SmpBatch batch(io, transport);
  mad::SmpRequest req;
  req.attr_id = mad::attr::kPortInfo;
  req.attr_mod = port;
  req.m_key = m_key;
  std::optional<mad::PortInfo> out;
  batch.submit(std::move(req), [&out](const mad::SmpReply& r) {
    if (r.outcome == mad::SmpOutcome::kOk) out = mad::PortInfo::decode(r.data);
  });
  batch.wait();
  return out;
}

}  // namespace

bool Daemon::ensure_is_sm(const char* when, const mad::PortInfo* seen) {
  std::optional<mad::PortInfo> read;
  if (seen == nullptr) {
    read = read_own_port(io_, *transport_, local_.port, m_key_of_port(local_.guid));
    if (!read) {
      spdlog::warn("IsSM check ({}): our port's PortInfo did not answer", when);
      return false;
    }
    seen = &*read;
  }
  local_.capmask = seen->capability_mask;
  if (seen->lid != 0) local_.lid = seen->lid;
  if ((seen->capability_mask & mad::capmask::kIsSm) != 0) return false;

  spdlog::warn(
      "IsSM check ({}): our port's CapabilityMask 0x{:08x} lacks IsSM; other SMs cannot see this SM; "
      "restoring it",
      when, seen->capability_mask);
  if (auto st = transport_->renew_is_sm(); !st.ok()) {
    spdlog::error("IsSM not restored: {}", st.error().message);
    return false;
  }
  const std::optional<mad::PortInfo> after = read_own_port(io_, *transport_, local_.port, m_key_of_port(local_.guid));
  if (!after || (after->capability_mask & mad::capmask::kIsSm) == 0) {
    spdlog::error("IsSM not restored: our port reads {}", after ? "without it still" : "nothing");
    return false;
  }
  local_.capmask = after->capability_mask;
  ++record_.counters().is_sm_restored;
  spdlog::info("IsSM restored on our port (CapabilityMask 0x{:08x})", after->capability_mask);
  return true;
}

}  // namespace smd
