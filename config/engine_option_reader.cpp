#include "config/engine_option_reader.h"

namespace smd {

bool MapOptionReader::read_guid_list(std::string_view key, std::vector<Guid>& out) {
  return clean([&] { section_.read_guid_list(key, out); });
}

bool MapOptionReader::read_bool(std::string_view key, bool& out) {
  return clean([&] { section_.read_bool(key, out); });
}

bool MapOptionReader::read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out) {
  return clean([&] { section_.read_unsigned(key, lo, hi, out); });
}

void MapOptionReader::fail(std::string_view key, const std::string& message) { section_.fail_key(key, message); }

}  // namespace smd
