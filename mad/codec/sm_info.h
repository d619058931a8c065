// SMInfo attribute (0x0020, IBA vol. 1, 14.2.5.13): how SMs find each other and elect a master (14.4.1).
#pragma once

#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

/// SMInfo:SMState values.
enum class SmState : std::uint8_t { kNotActive = 0, kDiscovering = 1, kStandby = 2, kMaster = 3 };

/// SMInfo attribute modifiers of a Set (IBA 14.4.1, table 186).
namespace sminfo_mod {
inline constexpr std::uint32_t kHandover = 1;
inline constexpr std::uint32_t kAcknowledge = 2;
inline constexpr std::uint32_t kDisable = 3;
inline constexpr std::uint32_t kStandby = 4;
inline constexpr std::uint32_t kDiscover = 5;
}  // namespace sminfo_mod

const char* to_string(SmState state);

struct SmInfo {
  std::uint64_t guid = 0;               ///< port GUID of the SM
  std::uint64_t sm_key = 0;             ///< SM_Key (0 in a Get response unless the requester proved the key)
  std::uint32_t act_count = 0;          ///< ActCount: bumped by a master so standbys see it is alive
  std::uint8_t priority = 0;            ///< 0..15, higher wins; ties go to the lower GUID
  SmState state = SmState::kNotActive;  ///< 4-bit SMState
  SmpData raw{};                        ///< payload as received (bytes 21..63 are reserved)

  static SmInfo decode(const SmpData& data);
  void encode(SmpData& data) const;
};

}  // namespace smd::mad
