// NodeDescription attribute (0x0010, IBA vol. 1, 14.2.5.2): a 64-byte UTF-8 text naming the node.
#pragma once

#include <string>

#include "mad/codec/smp.h"

namespace smd::mad {

struct NodeDescription {
  std::string text;  ///< the bytes up to the first NUL (or all 64 when there is none)
  SmpData raw{};     ///< payload as received: bytes after the NUL survive encode() while text is unchanged

  /// Decode the 64-byte payload. Never fails; invalid UTF-8 is kept as bytes.
  static NodeDescription decode(const SmpData& data);
  /// Write `text` (cut at 64 bytes) padded with NULs; if `text` equals the decoded text, `raw` is reproduced.
  void encode(SmpData& data) const;
};

}  // namespace smd::mad
