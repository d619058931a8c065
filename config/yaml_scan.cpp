#include "config/yaml_scan.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>
#include <utility>
#include <vector>

namespace smd {

namespace {

constexpr std::size_t kMaxDocuments = 1000;  // a policy has one; counting further only costs time

// Index just past the closing quote of the scalar opened at `open`, or npos when it never closes.
std::size_t closing_quote(const std::string& text, std::size_t open) {
  const char quote = text[open];
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;  // the escaped character, a quote included
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is an escaped single quote
        continue;
      }
      return i + 1;
    }
  }
  return std::string::npos;
}

// Records where each document starts and its root node, and checks every quoted scalar for its close.
class Scanner : public YAML::EventHandler {
 public:
  explicit Scanner(const std::string& text) : text_(text) {}

  std::optional<YamlProblem> unclosed;
  YAML::Mark document_start;
  std::optional<YAML::Mark> root;  // first node event of the current document

  std::optional<YamlProblem> too_big;  // the alias that took the expanded document past the cap

  void OnDocumentStart(const YAML::Mark& mark) override {
    document_start = mark;
    root.reset();
    expanded_ = 0;
    open_.clear();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    node(mark);
    count(mark, 1);
    anchored(anchor, 1);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    node(mark);
    // An alias to a node still open (it names one of its own ancestors) has no size yet; yaml-cpp and the
    // readers deal with that cycle themselves, so it counts as one node here.
    count(mark, anchor < size_.size() && size_[anchor] > 0 ? size_[anchor] : 1);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    node(mark);
    open(mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    node(mark);
    open(mark, anchor);
  }
  void OnMapEnd() override { close(); }

  // A quoted scalar has yaml-cpp's non-specific tag "!" or an explicit tag ("?" is a plain scalar); its
  // mark points at any anchor or tag in front of the opening quote.
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor, const std::string&) override {
    node(mark);
    count(mark, 1);
    anchored(anchor, 1);
    if (unclosed || tag == "?" || mark.pos < 0) return;
    YAML::Mark at = mark;
    std::size_t i = static_cast<std::size_t>(mark.pos);
    while (i < text_.size() && text_[i] != '"' && text_[i] != '\'') {
      const char c = text_[i];
      if (c == '&' || c == '!') {
        while (i < text_.size() && text_[i] != ' ' && text_[i] != '\t' && text_[i] != '\n') ++i, ++at.column;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i, ++at.column;
      } else if (c == '\n') {
        ++i, ++at.line, at.column = 0;
      } else {
        return;  // not a quoted scalar after all
      }
    }
    if (i >= text_.size() || closing_quote(text_, i) != std::string::npos) return;
    at.pos = static_cast<int>(i);
    unclosed = YamlProblem{
        at, text_[i] == '"' ? "double-quoted scalar is never closed" : "single-quoted scalar is never closed"};
  }

 private:
  void node(const YAML::Mark& mark) {
    if (!root) root = mark;
  }
  // Expanded node counting: `expanded_` nodes so far in this document; size_[anchor] the expanded size of
  // each finished anchored node (anchors are numbered from 1 in document order).
  void count(const YAML::Mark& mark, std::size_t nodes) {
    expanded_ += nodes;
    if (expanded_ > kMaxExpandedYamlNodes && !too_big) {
      too_big =
          YamlProblem{mark,
                      "with its aliases expanded the policy has more than " + std::to_string(kMaxExpandedYamlNodes) +
                          " nodes, more than 1 MiB of YAML written out could hold",
                      false};
    }
  }
  void anchored(YAML::anchor_t anchor, std::size_t nodes) {
    if (anchor == YAML::NullAnchor) return;
    if (size_.size() <= anchor) size_.resize(anchor + 1, 0);
    size_[anchor] = nodes;
  }
  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    count(mark, 1);
    open_.push_back({anchor, expanded_ - 1});
  }
  void close() {
    if (open_.empty()) return;
    const auto [anchor, before] = open_.back();
    open_.pop_back();
    anchored(anchor, expanded_ - before);
  }
  const std::string& text_;
  std::size_t expanded_ = 0;
  std::vector<std::pair<YAML::anchor_t, std::size_t>> open_;  // open collections: anchor, expanded_ before it
  std::vector<std::size_t> size_;                             // [anchor] expanded size, 0 = not finished
};

}  // namespace

YamlScan scan_yaml(const std::string& yaml) {
  YamlScan scan;
  std::istringstream in(yaml);
  YAML::Parser parser(in);
  Scanner scanner(yaml);
  std::optional<int> previous_start;
  while (scan.documents < kMaxDocuments && !scanner.unclosed && !scanner.too_big &&
         parser.HandleNextDocument(scanner)) {
    const YAML::Mark start = scanner.document_start;
    if (previous_start && *previous_start == start.pos) {
      // yaml-cpp handed back an empty document without consuming anything: it is stuck here for good.
      const std::size_t pos = static_cast<std::size_t>(start.pos);
      const std::string what = pos < yaml.size() ? "'" + std::string(1, yaml[pos]) + "'" : "text";
      scan.problem = YamlProblem{start, "unexpected " + what};
      return scan;
    }
    previous_start = start.pos;
    ++scan.documents;
    if (scan.documents == 2) scan.second_root = scanner.root.value_or(start);
  }
  if (scanner.unclosed) scan.problem = scanner.unclosed;
  if (!scan.problem && scanner.too_big) scan.problem = scanner.too_big;
  return scan;
}

}  // namespace smd
