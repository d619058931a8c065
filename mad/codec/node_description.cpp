// NodeDescription codec: the whole 64-byte payload is the string (IBA vol. 1, 14.2.5.2).
#include "mad/codec/node_description.h"

#include <algorithm>
#include <cstring>

namespace smd::mad {

namespace {
std::string trim_at_nul(const SmpData& data) {
  const auto end = std::find(data.begin(), data.end(), std::uint8_t{0});
  return std::string(data.begin(), end);
}
}  // namespace

NodeDescription NodeDescription::decode(const SmpData& data) { return NodeDescription{trim_at_nul(data), data}; }

void NodeDescription::encode(SmpData& data) const {
  // Unchanged text: give back the exact bytes (trailing garbage after the NUL included).
  if (text == trim_at_nul(raw)) {
    data = raw;
    return;
  }
  data.fill(0);
  std::memcpy(data.data(), text.data(), std::min(text.size(), data.size()));
}

}  // namespace smd::mad
