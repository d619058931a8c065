// Shorthand for the layout tables of the record files: at() and bytes_at() of mad/codec/field_table.h (found
// from this namespace, which nests in smd::mad), a field by byte offset, first bit (0 = the byte's most
// significant) and width, as the IBA tables give them; and the two shapes every SA record codec has over
// its FieldTable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "mad/codec/field_table.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// `Record` with every member `table` binds read from `rec` (which holds every field of the table);
/// members the table does not bind keep their defaults.
template <class Record, class Table>
Record decode_record(std::span<const std::uint8_t> rec, const Table& table) {
  Record r;
  decode_fields(rec.data(), r, table);
  return r;
}

/// Zero the first `size` bytes of `rec`, then write every member `table` binds: a record leaves with its
/// reserved bits zero (IBA 15.2.5), whatever the buffer held.
template <class Record, class Table>
void encode_record(const Record& r, std::span<std::uint8_t> rec, std::size_t size, const Table& table) {
  std::fill_n(rec.begin(), size, std::uint8_t{0});
  encode_fields(rec.data(), r, table);
}

}  // namespace smd::mad::sa
