// The node-name map: the operator's names for nodes, by node GUID, in the file format OpenSM
// (node_name_map_name) and infiniband-diags (--node-name-map, node-name-map(5)) read, so one file serves
// all three.
//
// Format, one entry a line:   0x0002c90300001234 "leaf01 rack 3"
//   - a node GUID (0x and 1..16 hex digits, or decimal), then blanks, then the name;
//   - the name in double quotes (it may hold blanks and '#'), or unquoted up to a '#' or the end of the
//     line, trailing blanks dropped (libibnetdisc stops an unquoted name at '"' or '#' as well);
//   - '#' starts a comment (after the name, or as a whole line); blank lines are skipped; CRLF is read
//     as LF.
//   - a GUID named twice: the first name counts, as in infiniband-diags' map (its lookup keeps the first
//     entry); the later line is a warning, unless it repeats the same name.
// Stricter than infiniband-diags, which skips such lines silently or keeps a fragment: a GUID without a
// name, an empty name "", an unclosed quote, text after the closing quote, a quote inside an unquoted
// name, GUID 0, and control characters in a name are errors, each at file:line:column (1-based, bytes).
// Cost: linear in the file; lookup is a hash lookup.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// A map file larger than this is refused before it is parsed (~200,000 entries of 80 bytes).
inline constexpr std::size_t kMaxNodeNameMapBytes = 16u << 20;

/// Node GUID -> the operator's name for the node. Immutable once parsed; shared by the snapshots that
/// render names.
class NodeNameMap {
 public:
  NodeNameMap() = default;

  /// The name the map gives the node with GUID `node_guid`, or nullptr when it names none.
  const std::string* find(Guid node_guid) const;

  std::size_t size() const { return names_.size(); }
  /// The file the map was read from ("" for a map parsed from text without a file name).
  const std::string& source() const { return source_; }

 private:
  friend Result<NodeNameMap> parse_node_name_map(std::string_view, const std::string&, std::vector<std::string>*);
  std::unordered_map<Guid, std::string> names_;
  std::string source_;
};

/// Parse the text of a map file; `source` names it in messages. Warnings ("SOURCE:L:C: warning: ...",
/// a GUID named again with another name) are appended to `warnings` when it is not null.
/// Errors: kInvalidInput, every problem of the file one a line ("SOURCE:L:C: ..."), at most 20 listed.
Result<NodeNameMap> parse_node_name_map(std::string_view text, const std::string& source,
                                        std::vector<std::string>* warnings = nullptr);

/// Read and parse the map file `path` (a regular file of at most kMaxNodeNameMapBytes).
/// Errors: kIo from read_regular_file ("cannot open node name map PATH: No such file or directory"),
/// else as parse_node_name_map.
Result<NodeNameMap> read_node_name_map_file(const std::string& path, std::vector<std::string>* warnings = nullptr);

}  // namespace smd
