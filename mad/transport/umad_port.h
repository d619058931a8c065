// UmadPort: the SM's own InfiniBand port opened through libibumad, with the management classes the SM
// sends and the ones that can arrive unsolicited registered, and the issm device held open so the port
// advertises IsSM (PortInfo:CapabilityMask bit 1) for as long as the SM runs.
//
// The umad fd is not pollable under the ibsim shim (it is a fake number >= 1024), so the transport reads
// it from its own thread. Keep the process's other fds below 1024: the shim hijacks fds >= 1024. The SM
// opens only a handful of files (port, issm, log, control socket), so nothing needs doing about it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mad/transport/mad_channel.h"
#include "mad/transport/smi_gsi.h"
#include "routing/base/status.h"

namespace smd::mad {

/// Which port to open. Empty ca_name and port_guid 0: the first CA port that is usable (Active, else
/// Init/Armed with the physical link up), in the order libibumad lists CAs.
struct UmadPortOptions {
  std::string ca_name;          ///< e.g. "mlx5_0"; empty = any CA
  int port_num = -1;            ///< -1 = first usable port; 0 = a switch's management port; 1.. CA ports
  std::uint64_t port_guid = 0;  ///< non-zero: open the port with this GUID (wins over ca_name/port_num)
  bool open_issm = true;        ///< hold /dev/infiniband/issmN open (the SM's IsSM bit; ibsim: unsolicited MADs)
};

class UmadPort final : public MadChannel {
 public:
  /// Open and register. Where libibumad can name the port's SMI and GSI devices (rdma-core 53+), SMPs go
  /// through the SMI device (umad_open_smi_port) and the other classes through the GSI device when it is
  /// another one; elsewhere one umad_open_port serves all. Errors (kTransport) name the CA and port:
  /// umad_init failed, no usable port, the open failed, a class registration failed, the issm device
  /// could not be opened.
  static Result<std::unique_ptr<UmadPort>> open(const UmadPortOptions& options);

  ~UmadPort() override;
  UmadPort(const UmadPort&) = delete;
  UmadPort& operator=(const UmadPort&) = delete;

  /// libibumad port id for umad_send/umad_recv of SMPs (not a kernel fd under ibsim).
  int fd() const { return fd_; }
  /// The SMI and GSI devices the port was opened through (one and the same on most hosts, always on ibsim).
  const SmiGsiPair& devices() const { return devices_; }
  /// umad agent id registered for a management class, -1 if none.
  int agent(std::uint8_t mgmt_class) const { return agents_[mgmt_class]; }
  const std::string& ca_name() const { return ca_name_; }
  unsigned port_num() const { return port_num_; }
  /// The port's own GUID and base LID as sysfs reported them at open time (under ibsim a snapshot from
  /// the shim's start: read the port with an SMP for current values).
  std::uint64_t port_guid() const { return port_guid_; }
  std::uint16_t lid() const { return lid_; }
  std::uint16_t sm_lid() const { return sm_lid_; }
  /// "mlx5_0 port 1 (guid 0x..., lid 3)" for logs and errors.
  std::string describe() const override;

  /// umad_send through the class's agent; one reused umad buffer (call from one thread at a time).
  int send(std::span<const std::uint8_t, kMadSize> mad, const MadAddress& to, unsigned timeout_ms) override;
  /// umad_send of a buffer of its own, under the same lock as send(): callable from any thread.
  int send_gmp(std::span<const std::uint8_t> mad, const MadAddress& to) override;
  /// umad_recv into one reused umad buffer (call from one thread only).
  int receive(std::span<std::uint8_t, kMadSize> mad, MadAddress& from, int& status, int timeout_ms) override;

  /// IsSM again (IBA 14.2.5.6 CapabilityMask; the SMA owns the bit, so no PortInfo Set can change it):
  /// the issm device is opened once more, which is what sets the bit, under the kernel (after closing it:
  /// the kernel allows one holder) and under ibsim's shim (each open sends "set issm" to the simulator,
  /// which clears the bit when it finds an earlier SM process on the port gone). Errors: kTransport when
  /// the port was opened without issm, or the device does not open.
  Status renew_is_sm() override;

  /// A NodeInfo Get over the empty directed route, TID kWakeReceiverTid: this port's own SMA answers it at
  /// once, which ends a waiting umad_recv. Nothing else can: under ibsim's shim the port is no kernel fd to
  /// poll or signal. Returns whether it was sent.
  bool wake_receiver() override;

  /// Unregister and close the issm device and the umad port. Idempotent; the destructor calls it.
  /// The caller must have stopped every thread that uses fd() first.
  void close() override;

 private:
  UmadPort();

  /// The umad device of a class: the GSI's for SA/PerfMgt when the port's SMI and GSI are apart, else fd_.
  int fd_of(std::uint8_t mgmt_class) const { return gsi_fd_ >= 0 && !travels_on_smi(mgmt_class) ? gsi_fd_ : fd_; }
  /// umad_recv from whichever of the SMI and GSI devices has a MAD first (two devices only).
  int receive_either(int& len, int timeout_ms);

  int fd_ = -1;      ///< the SMI device (the only one when SMI and GSI are one device)
  int gsi_fd_ = -1;  ///< the GSI device when it is not the SMI's, else -1
  bool gsi_turn_ = false;  ///< which device receive_either reads first when both have a MAD waiting
  SmiGsiPair devices_;
  int issm_fd_ = -1;
  std::string issm_path_;  ///< the issm device, "" when the port was opened without it
  std::array<int, 256> agents_{};
  std::string ca_name_;
  unsigned port_num_ = 0;
  std::uint64_t port_guid_ = 0;
  std::uint16_t lid_ = 0;
  std::uint16_t sm_lid_ = 0;
  std::vector<std::uint8_t> tx_umad_;  // ib_user_mad header + 256-byte MAD, reused by send()
  std::mutex send_mutex_;              // one umad_send at a time: the SM thread's SMPs, the SA thread's answers
  std::vector<std::uint8_t> rx_umad_;  // the same for receive()
};

}  // namespace smd::mad
