// Unsolicited MADs: another SM's SMInfo (answered by the SMInfo agent) and traps. A trap is repressed at
// once (the reply changes nothing); what it means is smd/protocol/trap_class.h's decision, and the sweep it
// asks for becomes an event, scheduled between sweeps.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "mad/codec/notice.h"
#include "smd/protocol/trap_class.h"
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
  ++record_.counters().traps_received;
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
  const TrapClass what = classify_trap(TrapSource{.is_generic = notice.is_generic,
                                                   .trap_number = notice.trap_number,
                                                   .issuer_lid = notice.issuer_lid,
                                                   .own_lid = local_.lid});
  switch (what.response) {
    case TrapResponse::kCountPortError:
      health_.record_port_trap(notice.trap_number, notice.port_trap_lid(), notice.port_trap_port());
      return;
    case TrapResponse::kNone:
      if (what.kind == TrapKind::kLocalChange) {
        spdlog::debug("trap {} from our own LID {}: no sweep", notice.trap_number, notice.issuer_lid);
      }
      return;
    case TrapResponse::kSweepChanged:
    case TrapResponse::kSweepFull: break;
  }
  spdlog::info("trap {} from LID {}", notice.trap_number, notice.issuer_lid);
  DaemonEvent event;
  const bool changed = what.response == TrapResponse::kSweepChanged;
  event.kind = changed ? SmEvent::kTrapLinkChange : SmEvent::kTrapOther;
  event.why = "trap " + std::to_string(notice.trap_number);
  event.trap_lid = what.sweep_from;
  post(std::move(event));
}

}  // namespace smd
