// MKeyTransport: puts the SM's M_Key into every SMP it forwards (IBA 14.2.4: once a port holds an M_Key
// with protection, Sets, and from level 2 on Gets, that do not carry it are discarded by the SMA).
#pragma once

#include <cstdint>
#include <utility>

#include "mad/transport/transport.h"

namespace smd::mad {

/// A SmpTransport in front of another: requests that carry no M_Key of their own (0) get `m_key`.
/// Statistics and the window are the inner transport's.
class MKeyTransport final : public SmpTransport {
 public:
  explicit MKeyTransport(SmpTransport& inner, std::uint64_t m_key = 0) : inner_(inner), m_key_(m_key) {}

  /// The key for requests submitted from now on (0 = none), e.g. after a policy reload.
  void set_m_key(std::uint64_t m_key) { m_key_ = m_key; }
  std::uint64_t m_key() const { return m_key_; }

  void submit(SmpRequest req, SmpCallback done) override {
    if (req.m_key == 0) req.m_key = m_key_;
    inner_.submit(std::move(req), std::move(done));
  }
  std::size_t pending() const override { return inner_.pending(); }
  TransportStats stats() const override { return inner_.stats(); }

 private:
  SmpTransport& inner_;
  std::uint64_t m_key_;
};

}  // namespace smd::mad
