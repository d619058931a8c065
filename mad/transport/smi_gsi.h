// The two management interfaces of an InfiniBand port (IBA 13.4: the SMI on QP0 carries subnet management
// packets, the GSI on QP1 every other management class) as umad devices. On most hosts both are the port
// itself; hosts with multi-plane HCAs and newer kernels expose the SMI as a device of its own, which
// rdma-core 53+ names through umad_get_smi_gsi_pair_by_ca_name. The SM then sends and receives SMPs on the
// SMI device and its SA and PerfMgt MADs on the GSI device.
#pragma once

#include <cstdint>
#include <string>

#include "mad/codec/smp.h"

namespace smd::mad {

/// Where the SMI and the GSI of the SM's port are: a CA name and port number each.
struct SmiGsiPair {
  std::string smi_ca;
  unsigned smi_port = 0;
  std::string gsi_ca;
  unsigned gsi_port = 0;

  /// True when the SMI and the GSI are different umad devices (two ports to open).
  bool separate() const { return smi_ca != gsi_ca || smi_port != gsi_port; }
};

/// True for the classes that travel on QP0 (IBA 13.4.4): LID-routed and directed-route SMPs (0x01, 0x81).
constexpr bool travels_on_smi(std::uint8_t mgmt_class) {
  return mgmt_class == kClassSmiLid || mgmt_class == kClassSmiDirect;
}

}  // namespace smd::mad
