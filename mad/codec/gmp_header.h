// The header of a GMP that a manager thread sends to an agent and reads back (PMA class 0x04, IBA 16.1;
// Congestion Control class 0x21, IBA Annex A10): the common MAD header (IBA 13.4.2), laid out by the one
// table mad_header_fields.h holds, so the PMA and CC request builders and response parsers share it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/smp.h"

namespace smd::mad {

/// The common MAD header's fields a GMP manager sets or reads (IBA 13.4.2, table 145).
struct GmpHeader {
  std::uint8_t mgmt_class = 0;
  std::uint8_t class_version = 0;
  std::uint8_t method = 0;   ///< R bit 0x80 set in a response
  std::uint16_t status = 0;  ///< MAD status (IBA 13.4.7); zero in a request
  std::uint64_t tid = 0;
  std::uint16_t attr_id = 0;
  std::uint32_t attr_mod = 0;
};

/// A zeroed MAD holding `h` as a request: BaseVersion 1, then the header fields; status is not written.
std::array<std::uint8_t, kMadSize> make_gmp_request(const GmpHeader& h);

/// The header of `mad` when it is a response (R bit set) of `mgmt_class`; nullopt for any other class or
/// for a request.
std::optional<GmpHeader> read_gmp_response(std::span<const std::uint8_t, kMadSize> mad, std::uint8_t mgmt_class);

}  // namespace smd::mad
