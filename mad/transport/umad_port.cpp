// UmadPort: pick the SM port, open it, register the management classes, hold the issm device.
#include "mad/transport/umad_port.h"

#include <endian.h>
#include <fcntl.h>
#include <infiniband/umad.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mad/codec/cc.h"
#include "mad/codec/smp.h"

namespace smd::mad {

namespace {

constexpr unsigned kPortStateInit = 2;  // PortInfo:PortState values as sysfs reports them
constexpr unsigned kPortStateActive = 4;
constexpr unsigned kPhysLinkUp = 5;

// One class to register: version, and the request methods we want delivered unsolicited.
struct ClassRegistration {
  std::uint8_t mgmt_class;
  std::uint8_t version;
  std::vector<std::uint8_t> request_methods;
  std::uint8_t rmpp_version = 0;
};

// SMPs (both routings) bring Traps and another SM's SMInfo Get/Set; the SA class brings queries the SM's
// SA answers, registered with RMPP version 1 so the kernel segments GetTable answers longer than one MAD
// (and reassembles long requests); ibsim's shim accepts the registration and keeps the first 256 bytes. PerfMgt is
// registered without requests: the HCA's own PMA answers those, but under ibsim an unregistered class that arrives
// crashes the client inside the shim.
std::vector<ClassRegistration> classes_to_register() {
  const std::uint8_t get = 0x01, set = 0x02, trap = 0x05, report = 0x06, trap_repress = 0x07;
  const std::uint8_t get_table = 0x12, get_trace_table = 0x13, get_multi = 0x14, del = 0x15;
  return {
      {kClassSmiDirect, 1, {get, set, trap, trap_repress}},
      {kClassSmiLid, 1, {get, set, trap, trap_repress}},
      {kClassSubnAdm, 2, {get, set, report, get_table, get_trace_table, get_multi, del}, 1},
      {kClassPerfMgt, 1, {}},
      {kClassCongestionControl, kCcClassVersion, {}},  // the CC manager's answers (smd/cc), as PerfMgt
  };
}

struct Candidate {
  std::string ca;
  unsigned port = 0;
  std::uint64_t guid = 0;
  std::uint16_t lid = 0;
  std::uint16_t sm_lid = 0;
  unsigned state = 0;
  unsigned phys_state = 0;
  bool infiniband = true;
};

std::vector<std::string> ca_names() {
  char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
  const int n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.emplace_back(names[i]);
  return out;
}

std::vector<Candidate> ports_of(const std::string& ca_name) {
  std::vector<Candidate> out;
  umad_ca_t ca{};
  if (umad_get_ca(ca_name.c_str(), &ca) < 0) return out;
  // A switch's SM port is its management port 0 (ibsim reports a switch with numports 0 when the
  // client is attached at one); a CA's ports are 1..numports.
  const int first = ca.node_type == 2 ? 0 : 1;
  for (int p = first; p <= ca.numports && p < UMAD_CA_MAX_PORTS; ++p) {
    const umad_port_t* port = ca.ports[p];
    if (port == nullptr) continue;
    Candidate c;
    c.ca = ca_name;
    c.port = static_cast<unsigned>(p);
    c.guid = be64toh(port->port_guid);
    c.lid = static_cast<std::uint16_t>(port->base_lid);
    c.sm_lid = static_cast<std::uint16_t>(port->sm_lid);
    c.state = port->state;
    c.phys_state = port->phys_state;
    // Empty on old kernels, "IB" from the ibsim shim, "InfiniBand" from sysfs; "Ethernet" is RoCE.
    c.infiniband = std::strcmp(port->link_layer, "Ethernet") != 0;
    out.push_back(c);
  }
  umad_release_ca(&ca);
  return out;
}

// Active first, then any InfiniBand port whose link is trained (Init/Armed before an SM has run).
bool usable(const Candidate& c) {
  return c.infiniband && (c.state == kPortStateActive || (c.state >= kPortStateInit && c.phys_state == kPhysLinkUp));
}

std::string where(const UmadPortOptions& o) {
  if (o.port_guid != 0) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "port guid 0x%016llx", static_cast<unsigned long long>(o.port_guid));
    return buf;
  }
  return (o.ca_name.empty() ? std::string("any CA") : "CA " + o.ca_name) + " port " +
         (o.port_num < 0 ? std::string("(first usable)") : std::to_string(o.port_num));
}

Result<Candidate> choose(const UmadPortOptions& o) {
  const auto cas = ca_names();
  if (cas.empty()) return make_error(ErrorCode::kTransport, "no InfiniBand CA found (umad_get_cas_names)");
  std::vector<Candidate> fallback;
  for (const auto& ca : cas) {
    if (!o.ca_name.empty() && o.port_guid == 0 && ca != o.ca_name) continue;
    for (const auto& c : ports_of(ca)) {
      if (o.port_guid != 0) {
        if (c.guid == o.port_guid) return c;
        continue;
      }
      if (o.port_num >= 0) {
        if (c.port == static_cast<unsigned>(o.port_num)) return c;
        continue;
      }
      if (c.state == kPortStateActive && c.infiniband) return c;
      if (usable(c)) fallback.push_back(c);
    }
  }
  if (!fallback.empty()) return fallback.front();
  return make_error(ErrorCode::kTransport, where(o) + ": no such port, or no usable port");
}

// The SMI and GSI devices of the chosen port: as libibumad pairs them where it can (rdma-core 53+), else the
// port itself for both. A pairing that fails (an older kernel's sysfs) is the port itself too, so the SM
// opens as it always did.
SmiGsiPair smi_gsi_of(const Candidate& c) {
  SmiGsiPair same{c.ca, c.port, c.ca, c.port};
#ifdef SMD_HAVE_UMAD_SMI_GSI
  umad_ca_pair pair{};
  if (umad_get_smi_gsi_pair_by_ca_name(c.ca.c_str(), static_cast<std::uint8_t>(c.port), &pair, 0) != 0) {
    spdlog::debug("{} port {}: no SMI/GSI pairing from libibumad; opening the port itself", c.ca, c.port);
    return same;
  }
  SmiGsiPair out{pair.smi_name, pair.smi_preferred_port, pair.gsi_name, pair.gsi_preferred_port};
  // A switch's SM port is its port 0, which the pairing reports as it does a CA's port 1: keep the
  // chosen number where the device is the chosen one.
  if (out.smi_ca == c.ca) out.smi_port = c.port;
  if (out.gsi_ca == c.ca) out.gsi_port = c.port;
  if (out.smi_ca.empty() || out.gsi_ca.empty()) return same;
  return out;
#else
  return same;
#endif
}

// The SMI device opened for SMPs; the call libibumad has for it where it has one.
int open_smi(const SmiGsiPair& d) {
#ifdef SMD_HAVE_UMAD_SMI_GSI
  return umad_open_smi_port(d.smi_ca.c_str(), static_cast<int>(d.smi_port));
#else
  return umad_open_port(d.smi_ca.c_str(), static_cast<int>(d.smi_port));
#endif
}

constexpr const char* kOpenCall =
#ifdef SMD_HAVE_UMAD_SMI_GSI
    "umad_open_smi_port";
#else
    "umad_open_port";
#endif

void set_method_bit(long (&mask)[16 / sizeof(long)], std::uint8_t method) {
  constexpr unsigned kBitsPerLong = 8 * sizeof(long);
  mask[method / kBitsPerLong] |= 1L << (method % kBitsPerLong);
}

}  // namespace

Result<std::unique_ptr<UmadPort>> UmadPort::open(const UmadPortOptions& options) {
  if (umad_init() < 0) return make_error(ErrorCode::kTransport, "umad_init failed: is ib_umad loaded?");
  auto chosen = choose(options);
  if (!chosen.ok()) return chosen.error();
  const Candidate& c = chosen.value();

  std::unique_ptr<UmadPort> port(new UmadPort());
  port->ca_name_ = c.ca;
  port->port_num_ = c.port;
  port->port_guid_ = c.guid;
  port->lid_ = c.lid;
  port->sm_lid_ = c.sm_lid;
  const std::string name = port->describe();

  port->devices_ = smi_gsi_of(c);
  const SmiGsiPair& dev = port->devices_;
  port->fd_ = open_smi(dev);
  if (port->fd_ < 0) {
    return make_error(ErrorCode::kTransport, name + ": " + kOpenCall + " " + dev.smi_ca + " port " +
                                                 std::to_string(dev.smi_port) + " failed: " + std::strerror(-port->fd_));
  }
  if (dev.separate()) {
    port->gsi_fd_ = umad_open_port(dev.gsi_ca.c_str(), static_cast<int>(dev.gsi_port));
    if (port->gsi_fd_ < 0) {
      const int err = -port->gsi_fd_;
      port->gsi_fd_ = -1;
      return make_error(ErrorCode::kTransport, name + ": umad_open_port of the GSI device " + dev.gsi_ca + " port " +
                                                   std::to_string(dev.gsi_port) + " failed: " + std::strerror(err));
    }
  }
  for (const auto& reg : classes_to_register()) {
    long mask[16 / sizeof(long)] = {};
    for (auto m : reg.request_methods) set_method_bit(mask, m);
    const int agent =
        umad_register(port->fd_of(reg.mgmt_class), reg.mgmt_class, reg.version, reg.rmpp_version, mask);
    if (agent < 0) {
      char cls[8];
      std::snprintf(cls, sizeof cls, "0x%02x", reg.mgmt_class);
      return make_error(ErrorCode::kTransport, name + ": umad_register class " + cls + " version " +
                                                   std::to_string(reg.version) + " failed: " + std::strerror(-agent) +
                                                   " (another SM running?)");
    }
    port->agents_[reg.mgmt_class] = agent;
  }
  if (options.open_issm) {
    // The kernel sets IsSM on the port while issmN is open (and clears it on close); the ibsim shim
    // intercepts the same open() and marks this client as the node's SM so it receives traps.
    char path[256] = {};
    // IsSM is a bit of the port the SMPs leave from: the SMI device's.
    if (umad_get_issm_path(dev.smi_ca.c_str(), static_cast<int>(dev.smi_port), path, sizeof path) < 0) {
      return make_error(ErrorCode::kTransport, name + ": no issm device (umad_get_issm_path)");
    }
    port->issm_fd_ = ::open(path, O_RDWR | O_CLOEXEC);
    if (port->issm_fd_ < 0) {
      return make_error(ErrorCode::kTransport,
                        name + ": open " + path + " failed: " + std::strerror(errno) + " (another SM holds it?)");
    }
    port->issm_path_ = path;
  }
  if (dev.separate()) {
    spdlog::info("SM port {} opened: SMPs through the SMI device {} port {} ({}), SA and PerfMgt through {} port {}",
                 name, dev.smi_ca, dev.smi_port, kOpenCall, dev.gsi_ca, dev.gsi_port);
  } else {
    spdlog::info("SM port {} opened ({}; SMI and GSI on one device)", name, kOpenCall);
  }
  return port;
}

// ibsim's umad2sim shim copies more than umad_size() + 256 bytes in and out of the buffer it is handed
// (valgrind: reads and writes up to a few dozen bytes past the end), so every umad buffer carries slack.
constexpr std::size_t kShimSlack = 256;

UmadPort::UmadPort() : tx_umad_(umad_size() + kMadSize + kShimSlack), rx_umad_(umad_size() + kMadSize + kShimSlack) {
  agents_.fill(-1);
}

UmadPort::~UmadPort() { close(); }

int UmadPort::send(std::span<const std::uint8_t, kMadSize> mad, const MadAddress& to, unsigned timeout_ms) {
  const int agent = agents_[mad[1]];
  if (fd_ < 0 || agent < 0) return -EINVAL;
  const std::lock_guard lock(send_mutex_);
  std::memcpy(umad_get_mad(tx_umad_.data()), mad.data(), kMadSize);
  umad_set_addr(tx_umad_.data(), to.lid, static_cast<int>(to.qpn), to.sl, static_cast<int>(to.qkey));
  umad_set_pkey(tx_umad_.data(), to.pkey_index);
  // Retries are the transport's own, so the kernel's are 0; ibsim's shim ignores both numbers.
  return umad_send(fd_of(mad[1]), agent, tx_umad_.data(), static_cast<int>(kMadSize), static_cast<int>(timeout_ms), 0);
}

int UmadPort::send_gmp(std::span<const std::uint8_t> mad, const MadAddress& to) {
  const int agent = mad.size() > 1 ? agents_[mad[1]] : -1;
  if (fd_ < 0 || agent < 0 || mad.size() < 56) return -EINVAL;
  // One buffer per sending thread, reused: the SA thread answers at MAD rate.
  thread_local std::vector<std::uint8_t> umad;
  umad.assign(umad_size() + mad.size(), 0);
  std::memcpy(umad_get_mad(umad.data()), mad.data(), mad.size());
  umad_set_addr(umad.data(), to.lid, static_cast<int>(to.qpn), to.sl, static_cast<int>(to.qkey));
  umad_set_pkey(umad.data(), to.pkey_index);
  const std::lock_guard lock(send_mutex_);
  return umad_send(fd_of(mad[1]), agent, umad.data(), static_cast<int>(mad.size()), 0, 0);
}

int UmadPort::receive(std::span<std::uint8_t, kMadSize> mad, MadAddress& from, int& status, int timeout_ms) {
  int len = static_cast<int>(kMadSize);
  const int agent = gsi_fd_ < 0 ? umad_recv(fd_, rx_umad_.data(), &len, timeout_ms) : receive_either(len, timeout_ms);
  if (agent == -ETIMEDOUT) return 0;
  if (agent < 0) return agent;
  // A shorter MAD leaves the tail zero; RMPP is not registered, so none is longer.
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(std::max(len, 0)), kMadSize);
  std::memcpy(mad.data(), umad_get_mad(rx_umad_.data()), n);
  std::fill(mad.begin() + static_cast<std::ptrdiff_t>(n), mad.end(), std::uint8_t{0});
  const ib_mad_addr_t* addr = umad_get_mad_addr(rx_umad_.data());
  from.lid = ntohs(addr->lid);
  from.qpn = ntohl(addr->qpn);
  from.qkey = ntohl(addr->qkey);
  from.sl = addr->sl;
  from.path_bits = addr->path_bits;
  from.pkey_index = addr->pkey_index;
  status = umad_status(rx_umad_.data());
  return 1;
}

// Two devices are real kernel descriptors (the ibsim shim has one device per port, so it never gets here):
// poll both, then read the one that is ready without waiting, taking turns when both are.
int UmadPort::receive_either(int& len, int timeout_ms) {
  std::array<pollfd, 2> fds{{{umad_get_fd(fd_), POLLIN, 0}, {umad_get_fd(gsi_fd_), POLLIN, 0}}};
  const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
  if (ready == 0) return -ETIMEDOUT;
  if (ready < 0) return errno == EINTR ? -ETIMEDOUT : -errno;
  const bool smi_ready = (fds[0].revents & POLLIN) != 0, gsi_ready = (fds[1].revents & POLLIN) != 0;
  const bool take_gsi = gsi_ready && (!smi_ready || gsi_turn_);
  gsi_turn_ = !take_gsi;
  return umad_recv(take_gsi ? gsi_fd_ : fd_, rx_umad_.data(), &len, 0);
}

Status UmadPort::renew_is_sm() {
  if (issm_path_.empty()) return make_error(ErrorCode::kTransport, describe() + ": opened without the issm device");
  // Under ibsim's shim a second open succeeds (the same fake descriptor comes back) and sets the bit. The
  // kernel lets one process hold issmN at a time: a second open fails with EAGAIN, and the bit comes back
  // only by closing the device (which clears it) and opening it again.
  const int again = ::open(issm_path_.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK);
  if (again >= 0) {
    if (again != issm_fd_) {
      if (issm_fd_ >= 0) ::close(issm_fd_);
      issm_fd_ = again;
    }
    return Ok{};
  }
  if (errno != EAGAIN && errno != EBUSY) {
    return make_error(ErrorCode::kTransport, describe() + ": open " + issm_path_ + ": " + std::strerror(errno));
  }
  if (issm_fd_ >= 0) ::close(issm_fd_);
  issm_fd_ = ::open(issm_path_.c_str(), O_RDWR | O_CLOEXEC);
  if (issm_fd_ < 0) {
    return make_error(ErrorCode::kTransport, describe() + ": reopen " + issm_path_ + ": " + std::strerror(errno));
  }
  return Ok{};
}

void UmadPort::close() {
  if (fd_ >= 0) {
    for (std::size_t cls = 0; cls < agents_.size(); ++cls) {
      if (agents_[cls] >= 0) umad_unregister(fd_of(static_cast<std::uint8_t>(cls)), agents_[cls]);
      agents_[cls] = -1;
    }
    umad_close_port(fd_);
    fd_ = -1;
  }
  if (gsi_fd_ >= 0) {
    umad_close_port(gsi_fd_);
    gsi_fd_ = -1;
  }
  if (issm_fd_ >= 0) {
    ::close(issm_fd_);
    issm_fd_ = -1;
  }
}

std::string UmadPort::describe() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s port %u (guid 0x%016llx, lid %u)", ca_name_.c_str(), port_num_,
                static_cast<unsigned long long>(port_guid_), static_cast<unsigned>(lid_));
  return buf;
}

bool UmadPort::wake_receiver() {
  std::array<std::uint8_t, kMadSize> mad{};
  encode_smp(smp_get(DrPath{}, attr::kNodeInfo), kWakeReceiverTid, mad);
  MadAddress to;
  to.lid = 0xFFFF;  // directed route: the permissive DLID
  if (const int rc = send(mad, to, 0); rc < 0) {
    spdlog::debug("{}: wake-up NodeInfo not sent: {}", describe(), std::strerror(-rc));
    return false;
  }
  return true;
}

}  // namespace smd::mad
