// guid2lid reader (smd/guid2lid_file): any text keeps only entries that are valid and do not clash (LIDs
// 1..0xBFFF, LMC-aligned ranges, one GUID per LID, one range per GUID); every problem names "name:line";
// and what is kept, written back, reads again unchanged and without problems.
#include <map>
#include <string>

#include "fuzz_util.h"
#include "smd/state/guid2lid_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const Guid2LidLoad load = parse_guid2lid(text, "g2l");
  std::map<Lid, Guid> owner;
  for (const auto& [guid, range] : load.entries) {
    fuzz::check(range.min >= 1 && range.max <= kMaxUnicastLid && range.min <= range.max, "LIDs unicast, min<=max");
    const unsigned count = range.max - range.min + 1u;
    fuzz::check((count & (count - 1)) == 0 && count <= 128 && range.min % count == 0, "LMC-aligned range");
    for (unsigned l = range.min; l <= range.max; ++l) {
      fuzz::check(owner.emplace(static_cast<Lid>(l), guid).second, "one GUID per LID");
    }
  }
  for (const std::string& p : load.problems) {
    fuzz::check(p.rfind("g2l:", 0) == 0 && p.size() > 4 && p[4] >= '1' && p[4] <= '9', "problems name g2l:LINE");
  }
  const Guid2LidLoad again = parse_guid2lid(format_guid2lid(load.entries), "again");
  fuzz::check(again.problems.empty(), "what was kept is written without problems");
  fuzz::check(again.entries.size() == load.entries.size(), "what was kept reads back entirely");
  for (const auto& [guid, range] : load.entries) {
    const auto it = again.entries.find(guid);
    fuzz::check(it != again.entries.end() && it->second.min == range.min && it->second.max == range.max,
                "what was kept reads back unchanged");
  }
  return 0;
}
