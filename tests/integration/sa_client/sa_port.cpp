// sa_port: libibumad calls and the transaction window (see sa_port.h).
#include "tests/integration/sa_client/sa_port.h"

#include <endian.h>
#include <fcntl.h>
#include <infiniband/umad.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>

namespace sa_client {

namespace {

// Registers a class with no unsolicited methods; only so that a MAD of that class cannot crash the shim.
void register_quietly(int fd, int mgmt_class, int version) {
  if (umad_register(fd, mgmt_class, version, 0, nullptr) < 0)
    std::fprintf(stderr, "sa_client: warning: umad_register class 0x%02x failed\n", mgmt_class);
}

// The umad2sim shim reads and writes a few dozen bytes past umad_size() + 256 (its memcpy is 320 bytes),
// so the buffer carries slack.
constexpr std::size_t kShimSlack = 256;

}  // namespace

UmadPort::UmadPort() : buf_(umad_size() + kMadSize + kShimSlack) {
  if (umad_init() < 0) throw std::runtime_error("umad_init failed");
  umad_port_t p{};
  if (umad_get_port(nullptr, 0, &p) < 0) throw std::runtime_error("umad_get_port failed (no IB port?)");
  info_.ca = p.ca_name;
  info_.port = p.portnum;
  info_.lid = static_cast<uint16_t>(p.base_lid);
  info_.sm_lid = static_cast<uint16_t>(p.sm_lid);
  info_.prefix = be64toh(p.gid_prefix);
  info_.guid = be64toh(p.port_guid);
  umad_release_port(&p);
  fd_ = umad_open_port(info_.ca.c_str(), info_.port);
  if (fd_ < 0) throw std::runtime_error("umad_open_port " + info_.ca + " failed");
  // Class 0x03 v2, with Report (0x06) as the one unsolicited method this client takes.
  long methods[16 / sizeof(long)] = {};
  methods[kMethodReport / (8 * sizeof(long))] |= 1L << (kMethodReport % (8 * sizeof(long)));
  sa_agent_ = umad_register(fd_, kClassSa, kSaClassVersion, 0, methods);
  if (sa_agent_ < 0) throw std::runtime_error("umad_register class 0x03 version 2 failed");
  // Under the shim an unsolicited MAD of an unregistered class crashes the client (IBSIM.md).
  register_quietly(fd_, 0x01, 1);
  register_quietly(fd_, 0x81, 1);
  register_quietly(fd_, 0x04, 1);
}

UmadPort::~UmadPort() {
  if (issm_fd_ >= 0) close(issm_fd_);
  if (fd_ >= 0) umad_close_port(fd_);
}

void UmadPort::open_issm() {
  char path[256] = {};
  if (umad_get_issm_path(info_.ca.c_str(), info_.port, path, sizeof path) < 0)
    throw std::runtime_error("umad_get_issm_path " + info_.ca + " failed");
  issm_fd_ = open(path, O_RDWR);
  if (issm_fd_ < 0) throw std::runtime_error(std::string("cannot open ") + path);
}

bool UmadPort::send(const Mad& mad, uint16_t dlid, uint32_t qpn, uint32_t qkey) {
  std::memcpy(umad_get_mad(buf_.data()), mad.data(), mad.size());
  umad_set_addr(buf_.data(), dlid, static_cast<int>(qpn), 0, static_cast<int>(qkey));
  umad_set_pkey(buf_.data(), 0);
  return umad_send(fd_, sa_agent_, buf_.data(), static_cast<int>(mad.size()), 0, 0) >= 0;
}

std::optional<Received> UmadPort::recv(int timeout_ms) {
  int len = static_cast<int>(kMadSize);
  if (umad_recv(fd_, buf_.data(), &len, timeout_ms) < 0) return std::nullopt;
  Received r;
  const auto* mad = static_cast<const uint8_t*>(umad_get_mad(buf_.data()));
  std::memcpy(r.mad.data(), mad, std::min<std::size_t>(static_cast<std::size_t>(std::max(len, 0)), kMadSize));
  r.length = len;
  r.status = umad_status(buf_.data());
  const ib_mad_addr_t* a = umad_get_mad_addr(buf_.data());
  r.src_lid = be16toh(a->lid);
  r.src_qpn = be32toh(a->qpn);
  r.qkey = be32toh(a->qkey);
  return r;
}

Transactions::Transactions(UmadPort& port, uint16_t sm_lid, int timeout_ms, int retries)
    : port_(port),
      sm_lid_(sm_lid),
      timeout_(timeout_ms),
      retries_(retries),
      next_tid_(static_cast<uint32_t>(std::random_device{}()) | 1) {}

void Transactions::submit(Mad mad, Done done) {
  uint32_t tid = next_tid_++;
  if (tid == 0) tid = next_tid_++;  // TID 0 is what ibsim's traps carry
  put_be(mad, 12, 4, tid);
  auto [it, _] = pending_.emplace(tid, Pending{mad, {}, 0, std::move(done)});
  transmit(it->second);
}

// (Re)sends one request and restarts its timer; a refused send counts as a try.
void Transactions::transmit(Pending& p) {
  ++p.tries;
  p.sent = Clock::now();
  if (!port_.send(p.mad, sm_lid_, 1, kGsiQkey))
    std::fprintf(stderr, "sa_client: umad_send to SM LID %u failed\n", static_cast<unsigned>(sm_lid_));
}

void Transactions::pump(int max_wait_ms) {
  int wait = max_wait_ms;
  const auto now = Clock::now();
  for (const auto& [tid, p] : pending_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(p.sent + timeout_ - now).count();
    wait = static_cast<int>(std::clamp<int64_t>(left, 0, wait));
  }
  if (auto r = port_.recv(std::max(wait, 1))) {
    deliver(*r);
    while (auto more = port_.recv(0)) deliver(*more);  // drain what is already queued
  }
  expire();
}

// Matches an answer to its request, or hands an unsolicited MAD to the callback.
void Transactions::deliver(const Received& r) {
  const uint8_t method = r.mad[3];
  if (r.mad[1] != kClassSa) return;  // SMPs or PerfMgt forwarded by the shim: not ours
  const bool answer = (method & kResponseBit) != 0 || r.status != 0;
  if (!answer) {
    if (unsolicited_) unsolicited_(r);
    return;
  }
  const auto tid = static_cast<uint32_t>(get_be(r.mad, 12, 4));
  auto it = pending_.find(tid);
  if (it == pending_.end()) {
    ++stray_;
    return;
  }
  Outcome o;
  o.tries = it->second.tries;
  o.latency_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - it->second.sent).count();
  if (r.status != 0) {
    o.unroutable = true;  // the shim gave our own request back: no route to the SM
  } else {
    o.answer = r;
  }
  Done done = std::move(it->second.done);
  pending_.erase(it);
  done(o);
}

// Retries the requests whose timer ran out, or fails them after the last try.
void Transactions::expire() {
  const auto now = Clock::now();
  for (auto it = pending_.begin(); it != pending_.end();) {
    Pending& p = it->second;
    if (now < p.sent + timeout_) {
      ++it;
      continue;
    }
    if (p.tries <= retries_) {
      transmit(p);
      ++it;
      continue;
    }
    Outcome o;
    o.tries = p.tries;
    Done done = std::move(p.done);
    it = pending_.erase(it);
    done(o);
  }
}

}  // namespace sa_client
