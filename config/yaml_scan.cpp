#include "config/yaml_scan.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

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

  void OnDocumentStart(const YAML::Mark& mark) override {
    document_start = mark;
    root.reset();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

  // A quoted scalar has yaml-cpp's non-specific tag "!" or an explicit tag ("?" is a plain scalar); its
  // mark points at any anchor or tag in front of the opening quote.
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t, const std::string&) override {
    node(mark);
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
  const std::string& text_;
};

}  // namespace

YamlScan scan_yaml(const std::string& yaml) {
  YamlScan scan;
  std::istringstream in(yaml);
  YAML::Parser parser(in);
  Scanner scanner(yaml);
  std::optional<int> previous_start;
  while (scan.documents < kMaxDocuments && !scanner.unclosed && parser.HandleNextDocument(scanner)) {
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
  return scan;
}

}  // namespace smd
