#include "smd/fabric/port_fields.h"

namespace smd {

std::string_view port_field_name(PortField f) {
  switch (f) {
    case PortField::kSubnetTimeOut: return "SubnetTimeOut";
    case PortField::kMasterSmSl: return "MasterSMSL";
    case PortField::kHoqLife: return "HOQLife";
    case PortField::kVlStallCount: return "VLStallCount";
    case PortField::kLocalPhyErrors: return "LocalPhyErrors";
    case PortField::kOverrunErrors: return "OverrunErrors";
    case PortField::kLinkWidthEnabled: return "LinkWidthEnabled";
    case PortField::kLinkSpeedEnabled: return "LinkSpeedEnabled";
    case PortField::kLinkSpeedExtEnabled: return "LinkSpeedExtEnabled";
  }
  return "?";
}

std::uint8_t port_field(const mad::PortInfo& pi, PortField f) {
  switch (f) {
    case PortField::kSubnetTimeOut: return pi.subnet_timeout;
    case PortField::kMasterSmSl: return pi.master_sm_sl;
    case PortField::kHoqLife: return pi.hoq_life;
    case PortField::kVlStallCount: return pi.vl_stall_count;
    case PortField::kLocalPhyErrors: return pi.local_phy_errors;
    case PortField::kOverrunErrors: return pi.overrun_errors;
    case PortField::kLinkWidthEnabled: return pi.link_width_enabled;
    case PortField::kLinkSpeedEnabled: return pi.link_speed_enabled;
    case PortField::kLinkSpeedExtEnabled: return pi.link_speed_ext_enabled;
  }
  return 0;
}

void set_port_field(mad::PortInfo& pi, PortField f, std::uint8_t value) {
  switch (f) {
    case PortField::kSubnetTimeOut: pi.subnet_timeout = value; return;
    case PortField::kMasterSmSl: pi.master_sm_sl = value; return;
    case PortField::kHoqLife: pi.hoq_life = value; return;
    case PortField::kVlStallCount: pi.vl_stall_count = value; return;
    case PortField::kLocalPhyErrors: pi.local_phy_errors = value; return;
    case PortField::kOverrunErrors: pi.overrun_errors = value; return;
    case PortField::kLinkWidthEnabled: pi.link_width_enabled = value; return;
    case PortField::kLinkSpeedEnabled: pi.link_speed_enabled = value; return;
    case PortField::kLinkSpeedExtEnabled: pi.link_speed_ext_enabled = value; return;
  }
}

bool port_holds(const mad::PortInfo& pi, PortField f, const FieldWant& want, const std::optional<FieldAck>& ack) {
  const std::uint8_t now = port_field(pi, f);
  if (now == want.reads) return true;
  return ack && ack->code == want.code && ack->echoed == now;
}

}  // namespace smd
