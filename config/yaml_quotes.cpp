#include "config/yaml_quotes.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

namespace smd {

namespace {

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

// Sees every scalar; for a quoted one (yaml-cpp's non-specific tag "!", or an explicit tag), finds its
// opening quote after any anchor or tag the mark points at, and checks that it closes.
class QuoteChecker : public YAML::EventHandler {
 public:
  explicit QuoteChecker(const std::string& text) : text_(text) {}
  std::optional<UnclosedQuote> found;

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t, const std::string&) override {
    if (found || tag == "?" || mark.pos < 0) return;  // "?": a plain scalar
    YAML::Mark at = mark;
    std::size_t i = static_cast<std::size_t>(mark.pos);
    // Skip "&anchor" and "!tag" properties and the space or line breaks around them.
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
    found = UnclosedQuote{
        at, text_[i] == '"' ? "double-quoted scalar is never closed" : "single-quoted scalar is never closed"};
  }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

 private:
  const std::string& text_;
};

}  // namespace

std::optional<UnclosedQuote> find_unclosed_quote(const std::string& yaml) {
  std::istringstream in(yaml);
  QuoteChecker checker(yaml);
  try {
    YAML::Parser parser(in);
    while (!checker.found && parser.HandleNextDocument(checker)) {
    }
  } catch (const YAML::Exception&) {
    return std::nullopt;
  }
  return checker.found;
}

}  // namespace smd
