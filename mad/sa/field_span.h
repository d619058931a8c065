// Shorthand for the layout tables of the record files: a field by byte offset, first bit (0 = the byte's
// most significant) and width, as the IBA tables give them.
#pragma once

#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// Field at byte `byte`, starting `msb` bits below that byte's most significant bit, `width` bits wide.
constexpr FieldSpan at(std::size_t byte, unsigned msb, unsigned width) {
  return FieldSpan{static_cast<std::uint16_t>(byte * 8 + msb), static_cast<std::uint16_t>(width)};
}
/// Whole-byte field: `bytes` bytes at byte offset `byte`.
constexpr FieldSpan bytes_at(std::size_t byte, std::size_t bytes) {
  return FieldSpan{static_cast<std::uint16_t>(byte * 8), static_cast<std::uint16_t>(bytes * 8)};
}

}  // namespace smd::mad::sa
