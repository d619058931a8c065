// Unsolicited MADs: another SM's SMInfo (answered by the SMInfo agent) and traps. A trap is repressed at
// once (the reply changes nothing) and becomes an event; the sweep it asks for is scheduled between sweeps.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "mad/codec/notice.h"
#include "smd/sm/daemon.h"

namespace smd {

void Daemon::on_unsolicited(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  if (info.mgmt_class != mad::kClassSmiLid && info.mgmt_class != mad::kClassSmiDirect) return;
  if (info.attr_id == mad::attr::kSmInfo && (info.method == static_cast<std::uint8_t>(mad::Method::kGet) ||
                                             info.method == static_cast<std::uint8_t>(mad::Method::kSet))) {
    answer_sminfo(mad, info);
    return;
  }
  if (info.method == static_cast<std::uint8_t>(mad::Method::kTrap) && info.attr_id == mad::attr::kNotice) {
    repress_trap(mad, info);
  }
}

void Daemon::repress_trap(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  ++counters_.traps_received;
  const mad::Notice notice = mad::Notice::decode(mad::smp_data(mad));
  // TrapRepress (IBA 14.2.5.1): the same MAD back with method 0x07 stops the producer repeating it.
  std::array<std::uint8_t, mad::kMadSize> repress;
  std::copy(mad.begin(), mad.end(), repress.begin());
  repress[3] = static_cast<std::uint8_t>(mad::Method::kTrapRepress);
  if (auto st = transport_->send_response(info, repress); !st.ok()) {
    spdlog::debug("TrapRepress: {}", st.error().message);
  }
  // Subscribers get every trap the SM receives (IBA 13.4.8.3; srp_daemon waits for 144, tools for 128).
  if (sa_) sa_->forward(notice, notice.issuer_lid);
  if (notice.is_generic && (notice.trap_number == mad::trap::kLocalLinkIntegrity ||
                            notice.trap_number == mad::trap::kExcessiveBufferOverrun ||
                            notice.trap_number == mad::trap::kFlowControlWatchdog)) {
    health_.record_port_trap(notice.trap_number, notice.port_trap_lid(), notice.port_trap_port());
    return;
  }
  if (notice.is_generic && notice.trap_number == mad::trap::kCapabilityMaskChange && own_lid_ != 0 &&
      notice.issuer_lid == own_lid_) {
    // Our own port announcing the IsSM bit this SM set: nothing in the fabric changed.
    spdlog::debug("trap {} from our own LID {}: no sweep", notice.trap_number, notice.issuer_lid);
    return;
  }
  if (notice.is_generic &&
      (notice.trap_number == mad::trap::kLinkStateChange || notice.trap_number == mad::trap::kCapabilityMaskChange)) {
    spdlog::info("trap {} from LID {}", notice.trap_number, notice.issuer_lid);
    // A link change names the switch to re-read (an incremental sweep); anything else, the whole fabric.
    DaemonEvent event;
    const bool link = notice.trap_number == mad::trap::kLinkStateChange && notice.issuer_lid != 0;
    event.kind = link ? SmEvent::kTrapLinkChange : SmEvent::kTrapOther;
    event.why = "trap " + std::to_string(notice.trap_number);
    event.trap_lid = link ? notice.issuer_lid : Lid{0};
    post(std::move(event));
  }
}

}  // namespace smd
