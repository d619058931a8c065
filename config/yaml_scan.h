// One pass of yaml-cpp's event parser over a policy before it is loaded, to stop two yaml-cpp 0.7 flaws:
//  - YAML::LoadAll() loops forever, allocating, on a text it cannot get past (a stray ',' at the start of
//    a document: yaml-cpp issue #1040, fixed upstream after 0.7). The scan counts documents itself and
//    stops when a document starts where the previous one did;
//  - a quoted scalar whose closing quote is missing is read as running to the end of the text (the keys
//    after it swallowed) without an error when the text ends in a newline;
//  - aliases are shared, not copied, by yaml-cpp, but every reader of the policy walks each alias as the
//    node it names: a few KB of anchors and aliases ("billion laughs") make millions of partition members
//    and a daemon that dies of bad_alloc on SIGHUP. The scan counts nodes with every alias expanded and
//    stops at kMaxExpandedYamlNodes.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <optional>
#include <string>

namespace smd {

/// Nodes a policy may have with its aliases expanded: about what 1 MiB (kMaxPolicyBytes) of YAML holds
/// written out in full (4 bytes, "- 1\n", the smallest node on a line of its own), so aliases can shorten
/// a policy but not make it bigger than one without them could be.
inline constexpr std::size_t kMaxExpandedYamlNodes = std::size_t{1} << 18;

/// Something yaml-cpp accepts or loops on that a policy must not be: where, and what.
struct YamlProblem {
  YAML::Mark mark;      ///< 0-based, as yaml-cpp marks
  std::string message;  ///< "double-quoted scalar is never closed", "unexpected ','", ...
  bool syntax = true;   ///< false: well-formed YAML, refused for its size (aliases past the cap)
};

/// What the scan found.
struct YamlScan {
  std::size_t documents = 0;              ///< documents in the text (counting stops at a problem)
  std::optional<YAML::Mark> second_root;  ///< root node of the second document, when there is one
  std::optional<YamlProblem> problem;     ///< the first problem, if any
};

/// Scan `yaml` with yaml-cpp's event parser: count its documents (without the LoadAll loop) and find the
/// first quoted scalar without a closing quote (quoted scalars are found by the parser, so quotes inside
/// plain scalars, comments or block scalars are not mistaken for openings; each is then followed in the
/// text with YAML's escapes: \" inside double quotes, '' inside single quotes), and the first alias that
/// takes the document past kMaxExpandedYamlNodes nodes when every alias counts as the node it names.
/// Throws YAML::Exception where yaml-cpp's own parser does (a syntax error it detects).
YamlScan scan_yaml(const std::string& yaml);

}  // namespace smd
