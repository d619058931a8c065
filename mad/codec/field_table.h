// Field tables: one mechanism for every attribute codec. The IBA gives each attribute as a table of fields
// (byte offset, bit offset, width; IBA vol. 1, 13.4.2 byte and bit order: most significant bit first). A codec
// here is that table written once, each row bound to the struct member it fills, and one generic decoder
// and encoder that walk it. The rows are constexpr and the walk is a fold over them, so after inlining each
// field is a load or store at a constant offset, as a hand-written codec would be.
//
// The same BitSpan rows serve the SA's ComponentMask tables (mad/sa/record_layout.h), so a record's
// offsets cannot differ between its codec and its matching.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

namespace smd::mad {

/// A field: `bit_width` bits starting `bit_offset` bits into the attribute, most significant bit first.
struct BitSpan {
  std::uint16_t bit_offset = 0;
  std::uint16_t bit_width = 0;
};

/// Field at byte `byte`, starting `msb` bits below that byte's most significant bit, `width` bits wide (as
/// the IBA tables give them; `width` may run past the byte, e.g. PathRecord:FlowLabel).
constexpr BitSpan at(std::size_t byte, unsigned msb, unsigned width) {
  return BitSpan{static_cast<std::uint16_t>(byte * 8 + msb), static_cast<std::uint16_t>(width)};
}
/// Whole-byte field: `bytes` bytes at byte offset `byte`.
constexpr BitSpan bytes_at(std::size_t byte, std::size_t bytes) {
  return BitSpan{static_cast<std::uint16_t>(byte * 8), static_cast<std::uint16_t>(bytes * 8)};
}
/// `f` moved `bytes` later: an attribute embedded in a record (PortInfo in PortInfoRecord at byte 4).
constexpr BitSpan shifted(BitSpan f, std::size_t bytes) {
  return BitSpan{static_cast<std::uint16_t>(f.bit_offset + bytes * 8), f.bit_width};
}

/// Read a field of at most 64 bits. `p` must hold the whole field.
constexpr std::uint64_t read_field(const std::uint8_t* p, BitSpan f) {
  const std::size_t byte = f.bit_offset / 8u;
  const unsigned first = f.bit_offset % 8u;
  std::uint64_t v = 0;
  if (first == 0 && f.bit_width % 8 == 0) {  // whole bytes, big-endian
    for (std::size_t i = 0; i < f.bit_width / 8u; ++i) v = (v << 8) | p[byte + i];
    return v;
  }
  if (first + f.bit_width <= 8) {  // inside one byte
    return (p[byte] >> (8 - first - f.bit_width)) & ((1u << f.bit_width) - 1u);
  }
  for (std::size_t b = f.bit_offset; b < std::size_t{f.bit_offset} + f.bit_width; ++b) {
    v = (v << 1) | ((p[b / 8] >> (7 - b % 8)) & 1u);
  }
  return v;
}

/// Write the low bit_width bits of `v` into a field of at most 64 bits; the bits around it are kept (which
/// is what preserves reserved bits across a read-modify-write).
constexpr void write_field(std::uint8_t* p, BitSpan f, std::uint64_t v) {
  const std::size_t byte = f.bit_offset / 8u;
  const unsigned first = f.bit_offset % 8u;
  if (first == 0 && f.bit_width % 8 == 0) {
    for (std::size_t i = f.bit_width / 8u; i-- > 0;) {
      p[byte + i] = static_cast<std::uint8_t>(v & 0xFF);
      v >>= 8;
    }
    return;
  }
  if (first + f.bit_width <= 8) {
    const unsigned shift = 8 - first - f.bit_width;
    const auto mask = static_cast<std::uint8_t>(((1u << f.bit_width) - 1u) << shift);
    p[byte] = static_cast<std::uint8_t>((p[byte] & ~mask) | ((v << shift) & mask));
    return;
  }
  for (std::size_t b = std::size_t{f.bit_offset} + f.bit_width; b-- > f.bit_offset;) {
    const auto mask = static_cast<std::uint8_t>(1u << (7 - b % 8));
    p[b / 8] = static_cast<std::uint8_t>((v & 1u) ? (p[b / 8] | mask) : (p[b / 8] & ~mask));
    v >>= 1;
  }
}

/// read_field with the span known at compile time: the shape is chosen while compiling, so a whole-byte
/// field is a fixed run of loads and a sub-byte field one shift and mask.
template <BitSpan F>
constexpr std::uint64_t read_field(const std::uint8_t* p) {
  constexpr std::size_t kByte = F.bit_offset / 8u;
  if constexpr (F.bit_offset % 8 == 0 && F.bit_width % 8 == 0) {
    // Unrolled while compiling (a loop here stays a loop at -O2): the compiler sees one big-endian load.
    return [p]<std::size_t... I>(std::index_sequence<I...>) {
      std::uint64_t v = 0;
      ((v = (v << 8) | p[kByte + I]), ...);
      return v;
    }(std::make_index_sequence<F.bit_width / 8u>{});
  } else if constexpr (F.bit_offset % 8 + F.bit_width <= 8) {
    return (p[kByte] >> (8 - F.bit_offset % 8 - F.bit_width)) & ((1u << F.bit_width) - 1u);
  } else {
    return read_field(p, F);
  }
}

/// write_field with the span known at compile time (as read_field<F>).
template <BitSpan F>
constexpr void write_field(std::uint8_t* p, std::uint64_t v) {
  constexpr std::size_t kByte = F.bit_offset / 8u;
  if constexpr (F.bit_offset % 8 == 0 && F.bit_width % 8 == 0) {
    constexpr std::size_t kBytes = F.bit_width / 8u;
    [p, v]<std::size_t... I>(std::index_sequence<I...>) {  // unrolled as read_field<F>: one big-endian store
      ((p[kByte + I] = static_cast<std::uint8_t>(v >> (8 * (kBytes - 1 - I)))), ...);
    }(std::make_index_sequence<kBytes>{});
  } else if constexpr (F.bit_offset % 8 + F.bit_width <= 8) {
    constexpr unsigned kShift = 8 - F.bit_offset % 8 - F.bit_width;
    constexpr auto kMask = static_cast<std::uint8_t>(((1u << F.bit_width) - 1u) << kShift);
    p[kByte] = static_cast<std::uint8_t>((p[kByte] & ~kMask) | ((v << kShift) & kMask));
  } else {
    write_field(p, F, v);
  }
}

/// One row of a codec table: struct member `Member` (a pointer to an integer, bool or enum data member) is
/// the field at `Span`.
template <auto Member, BitSpan Span>
struct Bound {
  static constexpr BitSpan kSpan = Span;
  static constexpr bool kListed = true;  ///< has a ComponentMask position
  template <class Record>
  static constexpr void decode(const std::uint8_t* p, Record& rec) {
    using T = std::remove_cvref_t<decltype(rec.*Member)>;
    rec.*Member = static_cast<T>(read_field<Span>(p));
  }
  template <class Record>
  static constexpr void encode(std::uint8_t* p, const Record& rec) {
    write_field<Span>(p, static_cast<std::uint64_t>(rec.*Member));
  }
};
/// The row binding `Member` to `Span`: `bind<&NodeInfo::node_guid, bytes_at(12, 8)>`.
template <auto Member, BitSpan Span>
inline constexpr Bound<Member, Span> bind{};

/// A position in an SA record's ComponentMask table that the table does not code: a reserved run (IBA 15.2.5
/// counts reserved fields too), or a field coded apart (a GID, half of a 64-bit ServiceID).
template <BitSpan Span>
struct Position {
  static constexpr BitSpan kSpan = Span;
  static constexpr bool kListed = true;
  template <class Record>
  static constexpr void decode(const std::uint8_t*, Record&) {}
  template <class Record>
  static constexpr void encode(std::uint8_t*, const Record&) {}
};
template <BitSpan Span>
inline constexpr Position<Span> reserved{};
template <BitSpan Span>
inline constexpr Position<Span> coded_apart{};

/// A member whose bits an older table revision counts inside a reserved run (PortInfo's XDR speeds of IBA 1.7
/// in byte 56): coded, but no ComponentMask position of its own.
template <auto Member, BitSpan Span>
struct Unlisted : Bound<Member, Span> {
  static constexpr bool kListed = false;
};
template <auto Member, BitSpan Span>
inline constexpr Unlisted<Member, Span> bind_unlisted{};

/// A codec table: its rows, e.g. `constexpr FieldTable kTable{bind<&NodeInfo::node_guid, bytes_at(12, 8)>, ...}`.
/// The rows are empty types: every offset is a template argument, so the walk folds to constant offsets.
template <class... Rows>
struct FieldTable {
  constexpr explicit FieldTable(Rows...) {}
};

/// Fill every member `table` names from the attribute bytes at `p` (which hold every field of the table).
template <class Record, class... Rows>
constexpr void decode_fields(const std::uint8_t* p, Record& rec, const FieldTable<Rows...>&) {
  (Rows::decode(p, rec), ...);
}

/// Write every member `table` names into the attribute bytes at `p`; bytes no row names are kept.
template <class Record, class... Rows>
constexpr void encode_fields(std::uint8_t* p, const Record& rec, const FieldTable<Rows...>&) {
  (Rows::encode(p, rec), ...);
}

/// The ComponentMask table of `table`: the span of every row but the Unlisted ones, in order.
template <class... Rows>
constexpr auto component_spans(const FieldTable<Rows...>&) {
  constexpr std::size_t kCount = (std::size_t{Rows::kListed} + ... + 0);
  std::array<BitSpan, kCount> out{};
  std::size_t n = 0;
  ((Rows::kListed ? void(out[n++] = Rows::kSpan) : void()), ...);
  return out;
}

/// The spans of `inner` moved `bytes` later and appended to `head`: a record that embeds an attribute (its
/// ComponentMask table continues with the attribute's fields).
template <std::size_t H, std::size_t N>
constexpr std::array<BitSpan, H + N> concat_shifted(const std::array<BitSpan, H>& head,
                                                    const std::array<BitSpan, N>& inner, std::size_t bytes) {
  std::array<BitSpan, H + N> out{};
  for (std::size_t i = 0; i < H; ++i) out[i] = head[i];
  for (std::size_t i = 0; i < N; ++i) out[H + i] = shifted(inner[i], bytes);
  return out;
}

}  // namespace smd::mad
