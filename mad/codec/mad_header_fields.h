// The common MAD header (IBA vol. 1, 13.4.2, table 145) as FieldTable rows, shared by every header codec
// whose struct names these members (SmpHeader, sa::SaHeader): the bytes every management class lays out
// the same way, written once. Status and bytes 6..7 are left to each class (the DR SMP's D bit and hop
// fields, the SA's ClassSpecific), as is BaseVersion, which an SMP header does not keep.
#pragma once

#include "mad/codec/field_table.h"

namespace smd::mad {

/// Byte offsets of the common MAD header (IBA 13.4.2) that the codecs use beside the table below.
namespace mad_header {
inline constexpr BitSpan kBaseVersion = bytes_at(0, 1);
inline constexpr BitSpan kMgmtClass = bytes_at(1, 1);
inline constexpr BitSpan kClassVersion = bytes_at(2, 1);
inline constexpr BitSpan kMethod = bytes_at(3, 1);  ///< R bit 7 (response), Method 6..0
inline constexpr BitSpan kStatus = bytes_at(4, 2);
inline constexpr BitSpan kTid = bytes_at(8, 8);
inline constexpr BitSpan kAttrId = bytes_at(16, 2);  ///< bytes 18..19 reserved
inline constexpr BitSpan kAttrMod = bytes_at(20, 4);
}  // namespace mad_header

/// MgmtClass, ClassVersion, Method, TransactionID, AttributeID and AttributeModifier of `Header` (a struct
/// with members mgmt_class, class_version, method, tid, attr_id, attr_mod).
template <class Header>
inline constexpr FieldTable kCommonMadHeader{
    bind<&Header::mgmt_class, mad_header::kMgmtClass>, bind<&Header::class_version, mad_header::kClassVersion>,
    bind<&Header::method, mad_header::kMethod>,         bind<&Header::tid, mad_header::kTid>,
    bind<&Header::attr_id, mad_header::kAttrId>,        bind<&Header::attr_mod, mad_header::kAttrMod>,
};

}  // namespace smd::mad
