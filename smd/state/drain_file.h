// state_dir/drained: the operator's drains (`smctl drain`), kept across restarts because an operator
// expects a drained switch to stay drained. One line per part, by GUID (names change, GUIDs do not):
//   0x<node GUID, 16 hex> <port: 0 = the whole switch, else the cable end's port> checked|forced
// "forced" marks a drain recorded with --force although it cut CA pairs off. Written atomically
// (atomic_file.h): a crash leaves the old list or the new one.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// One recorded drain.
struct DrainRecord {
  PortKey part;         ///< node GUID, port 0 for a switch, else one end of the cable
  bool forced = false;  ///< recorded with --force
  auto operator<=>(const DrainRecord&) const = default;
};

/// Hash of a part, for the sets that keep a large drain file's load linear.
struct PortKeyHash {
  std::size_t operator()(const PortKey& k) const noexcept;
};

/// What reading the file produced: the valid lines, and one problem per bad line ("PATH:LINE: what").
struct DrainFileLoad {
  std::vector<DrainRecord> records;
  std::vector<unsigned> lines;  ///< lines[i]: records[i]'s line in the file (1-based), for later warnings
  std::vector<std::string> problems;
};

/// The file's name under sm.state_dir.
inline constexpr std::string_view kDrainFileName = "drained";
/// A larger file is refused as a whole (a drain per port of a 2,000-switch fabric is ~5 MB).
inline constexpr std::size_t kMaxDrainFileBytes = 16u << 20;

/// Parse the text of a drain file named `name` (for messages). A line is kept when it has exactly three
/// fields: a 0x GUID (not 0), a port 0..254 and "checked" or "forced"; a part listed twice is kept once.
/// Every other line is a problem, never fatal: the other drains still hold.
DrainFileLoad parse_drain_file(std::string_view text, const std::string& name);

/// The file's text: one line per record, in the order given.
std::string format_drain_file(std::span<const DrainRecord> records);

/// Read and parse `path`; a missing file is no drain. Errors: kIo for a file that cannot be read, is not a
/// regular file, or is larger than kMaxDrainFileBytes.
Result<DrainFileLoad> read_drain_file(const std::string& path);

/// Replace `path` with format_drain_file(records), atomically. Errors: kIo naming the path.
Status write_drain_file(const std::string& path, std::span<const DrainRecord> records);

}  // namespace smd
