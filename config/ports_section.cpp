#include "config/ports_section.h"

#include <string>

namespace smd {

namespace {

// A value in 0..hi, or exactly `code` (a command the SMA interprets: "set to what is supported"). Read as
// 0..code first, so an out-of-range number names the whole range; a value between them is refused here.
void read_mask_or_code(MapReader& ports, std::string_view key, unsigned hi, unsigned code, unsigned& out) {
  unsigned value = out;
  const std::size_t before = ports.diagnostics().failures();
  ports.read_unsigned(key, 0, code, value);
  if (ports.diagnostics().failures() != before) return;
  if (value > hi && value != code) {
    if (std::optional<YAML::Mark> mark = ports.value_mark_of(key)) {
      ports.diagnostics().fail(*mark, "ports." + std::string(key),
                               std::to_string(value) + " is reserved: expected 0 (leave as is), 1.." +
                                   std::to_string(hi) + " (a mask) or " + std::to_string(code) +
                                   " (what the port supports)");
    }
    return;
  }
  out = value;
}

}  // namespace

void read_ports(MapReader ports, PortsPolicy& out) {
  // IBA 14.2.5.6: HOQLife and LifeTimeValue 20 and above mean "infinite"; 20 is the one code we accept
  // for it, as OpenSM documents. VLStallCount 0 is undefined (OpenSM's own warning).
  ports.read_unsigned("subnet_timeout", 0, 31, out.subnet_timeout);
  ports.read_unsigned("head_of_queue_lifetime", 0, 20, out.head_of_queue_lifetime);
  ports.read_unsigned("leaf_head_of_queue_lifetime", 0, 20, out.leaf_head_of_queue_lifetime);
  ports.read_unsigned("vl_stall_count", 1, 7, out.vl_stall_count);
  ports.read_unsigned("leaf_vl_stall_count", 1, 7, out.leaf_vl_stall_count);
  ports.read_unsigned("local_phy_errors_threshold", 0, 15, out.local_phy_errors_threshold);
  ports.read_unsigned("overrun_errors_threshold", 0, 15, out.overrun_errors_threshold);
  ports.read_unsigned("sm_sl", 0, 15, out.sm_sl);
  ports.read_unsigned("packet_life_time", 0, 20, out.packet_life_time);
  read_mask_or_code(ports, "force_link_width", 31, 255, out.force_link_width);
  read_mask_or_code(ports, "force_link_speed", 7, 15, out.force_link_speed);
  // LinkSpeedExtEnabled: bit 4 is undefined (XDR has its own field, LinkSpeedExtEnabled2), so 16..29 are
  // reserved; 30 turns extended speeds off and 31 asks for what the port supports.
  unsigned ext = out.force_link_speed_ext;
  const std::size_t before = ports.diagnostics().failures();
  ports.read_unsigned("force_link_speed_ext", 0, 31, ext);
  if (ports.diagnostics().failures() == before) {
    if (ext > 15 && ext < 30) {
      if (std::optional<YAML::Mark> mark = ports.value_mark_of("force_link_speed_ext")) {
        ports.diagnostics().fail(*mark, "ports.force_link_speed_ext",
                                 std::to_string(ext) +
                                     " is reserved: expected 0 (leave as is), 1..15 (a mask: FDR 1, EDR 2, HDR 4, NDR "
                                     "8), 30 (extended speeds off) or 31 (what the port supports)");
      }
    } else {
      out.force_link_speed_ext = ext;
    }
  }
  ports.finish();
}

}  // namespace smd
