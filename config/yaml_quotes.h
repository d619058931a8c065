// A guard for one yaml-cpp 0.7 leniency: a quoted scalar whose closing quote is missing is read as running
// to the end of the text (everything after it folded in) without an error when the text ends in a
// newline. A policy like `state_dir: "/var/lib/smd` followed by more keys would then load with those keys
// silently swallowed; this check turns it into a syntax error at the opening quote.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace smd {

/// An unclosed quoted scalar: where its opening quote is (0-based, as yaml-cpp marks) and what is wrong.
struct UnclosedQuote {
  YAML::Mark mark;
  std::string message;  ///< "double-quoted scalar is never closed" / "single-quoted scalar is never closed"
};

/// The first quoted scalar of `yaml` that has no closing quote, or nullopt. Quoted scalars are found with
/// yaml-cpp's own event parser (so quotes inside plain scalars, comments or block scalars are not
/// mistaken for openings); each is then followed in the text with YAML's escape rules (\" inside double
/// quotes, '' inside single quotes). Text yaml-cpp cannot parse at all gives nullopt (its own error wins).
std::optional<UnclosedQuote> find_unclosed_quote(const std::string& yaml);

}  // namespace smd
