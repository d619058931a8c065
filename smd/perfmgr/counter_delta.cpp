// counter_delta: see counter_delta.h.
#include "smd/perfmgr/counter_delta.h"

namespace smd {

CounterDelta counter_delta(std::uint64_t before, std::uint64_t now, unsigned width_bits, CounterKind kind) {
  const std::uint64_t top = counter_max(width_bits);
  before &= top;
  now &= top;
  CounterDelta d;
  if (kind == CounterKind::kWrapping) {
    d.wrapped = now < before;
    d.value = (now - before) & top;  // unsigned arithmetic is modulo 2^64; the mask makes it modulo 2^width
    return d;
  }
  if (now < before) {
    d.reset_seen = true;
    d.value = now;  // it counted from 0 since the clear; what it had before the clear is lost
    return d;
  }
  d.saturated = now == top;
  d.value = now - before;
  return d;
}

}  // namespace smd
