// The two shapes every attribute codec has, written once over a FieldTable (field_table.h):
//  - an SMP attribute that keeps its 64 bytes (`raw`) so a Set is a read-modify-write that carries every
//    reserved bit back (IBA 14.2.5: the SM sends the whole attribute);
//  - a GMP attribute (PMA, CC) of `kSize` bytes, where shorter data decodes as all zero and is not written.
#pragma once

#include <span>

#include "mad/codec/field_table.h"
#include "mad/codec/smp.h"

namespace smd::mad {

/// `Attr` with every field of `table` read from `data`, and `data` kept as its raw bytes.
template <class Attr, class Table>
Attr decode_keeping_raw(const SmpData& data, const Table& table) {
  Attr a;
  decode_fields(data.data(), a, table);
  a.raw = data;
  return a;
}

/// `data` = `a.raw` with every field of `table` written over it.
template <class Attr, class Table>
void encode_over_raw(const Attr& a, SmpData& data, const Table& table) {
  data = a.raw;
  encode_fields(data.data(), a, table);
}

/// `Attr` read from `data` when it holds at least `size` bytes, else all zero.
template <class Attr, class Table>
Attr decode_sized(std::span<const std::uint8_t> data, std::size_t size, const Table& table) {
  Attr a;
  if (data.size() >= size) decode_fields(data.data(), a, table);
  return a;
}

/// Write `a` into `data` when it holds at least `size` bytes; else nothing is written.
template <class Attr, class Table>
void encode_sized(const Attr& a, std::span<std::uint8_t> data, std::size_t size, const Table& table) {
  if (data.size() >= size) encode_fields(data.data(), a, table);
}

}  // namespace smd::mad
