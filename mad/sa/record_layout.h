// Where each ComponentMask bit of an SA record lives (IBA vol. 1, 15.2.5: "the component mask bit of a
// field is its position in the record's table, counting from 0, reserved fields included"). One table per
// record is the single source of its field offsets: the codecs read and write through it and ComponentMask
// matching compares the fields it names, so a record's layout cannot disagree with its matching.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "mad/codec/field_table.h"

namespace smd::mad::sa {

/// One field: `bit_width` bits starting `bit_offset` bits into the record, most significant bit first
/// (IBA 13.4.2 byte and bit order); the same rows as the SMP codecs' field tables (mad/codec/field_table.h).
using FieldSpan = BitSpan;

/// A record's size in bytes and its fields in ComponentMask order (fields[n] is selected by bit n).
struct RecordLayout {
  const char* name;
  std::uint16_t attr_id;
  std::size_t size;
  std::span<const FieldSpan> fields;
};

/// Read a field of at most 64 bits. `rec` must hold the whole field.
inline std::uint64_t get_field(std::span<const std::uint8_t> rec, FieldSpan f) { return read_field(rec.data(), f); }
/// Write the low bit_width bits of `v` (a field of at most 64 bits); the bits around it are kept.
inline void put_field(std::span<std::uint8_t> rec, FieldSpan f, std::uint64_t v) { write_field(rec.data(), f, v); }
/// Whether field `f` (any width, e.g. a 128-bit GID or a 64-byte NodeDescription) is bit-for-bit the same
/// in `a` and `b`.
bool field_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, FieldSpan f);

/// ComponentMask matching (IBA 15.2.4): `candidate` matches the request `tmpl` when every field selected by
/// `comp_mask` is equal in both. Mask bits past the record's last field select nothing (OpenSM ignores
/// them too). Both spans must be at least layout.size bytes.
bool matches(const RecordLayout& layout, std::uint64_t comp_mask, std::span<const std::uint8_t> tmpl,
             std::span<const std::uint8_t> candidate);

/// The ComponentMask bit of field `f` (IBA 15.2.5: bit n selects field n of the record, reserved fields
/// counted). `f` is an enumerator of the record's fields in layout order (e.g. McMemberRecordField), so a
/// record's mask bits follow from its layout's order instead of being numbered by hand.
template <class Field>
  requires std::is_enum_v<Field>
constexpr std::uint64_t mask_bit(Field f) {
  return 1ull << static_cast<unsigned>(f);
}
/// The number of fields of a record's field enumeration (its last enumerator is kCount).
template <class Field>
  requires std::is_enum_v<Field>
constexpr std::size_t field_count() {
  return static_cast<std::size_t>(Field::kCount);
}

/// Mask of the ComponentMask bits that name a field of `layout`.
constexpr std::uint64_t known_components(const RecordLayout& layout) {
  return layout.fields.size() >= 64 ? ~0ull : (1ull << layout.fields.size()) - 1;
}

}  // namespace smd::mad::sa
