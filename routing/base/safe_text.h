// Text that comes from the fabric, made safe for the place it is written. A NodeDescription is 64 bytes
// that any SMA chooses, not the operator (IBA vol. 1, 14.2.5.2: "not necessarily NUL-terminated ...
// UTF-8"): it may hold newlines, terminal escapes and bytes that are not UTF-8 at all. Every writer
// escapes for its own format; these are the rules, as pure functions. JSON writers use nlohmann's
// dump with error_handler_t::replace instead (control characters become \u00XX, invalid UTF-8 U+FFFD).
#pragma once

#include <string>
#include <string_view>

namespace smd {

/// `text` with every byte that is not part of a well-formed UTF-8 sequence (RFC 3629 section 4:
/// overlong forms, surrogates, code points above U+10FFFF and truncated sequences are not) replaced by
/// U+FFFD, one per byte.
std::string valid_utf8(std::string_view text);

/// For log lines and terminals (smctl, `smd --once` output, one-record-per-line state files): valid
/// UTF-8 is kept; control characters (C0, DEL, C1), the line and paragraph separators U+2028/U+2029,
/// the bidirectional controls U+200E/F, U+202A-E, U+2066-9, and bytes that are not UTF-8 become `\xNN`,
/// one per byte; a backslash becomes `\\` (and, with `escape_quote`, `"` becomes `\"`), so the text
/// reads back unambiguously. The result holds no control character and no newline.
std::string printable_text(std::string_view text, bool escape_quote = false);

/// Several lines of text (a policy file's errors, one a line) for a terminal: each line as printable_text
/// makes it, the newlines between them kept; a trailing newline is dropped.
std::string printable_lines(std::string_view text);

/// For configuration files read by a line- and word-oriented parser (frr.conf): printable ASCII only.
/// Every other byte becomes `\xNN` and a backslash `\\`; runs of spaces become one space, leading and
/// trailing spaces go (FRR joins the words of a LINE argument with single spaces, so the running
/// configuration then shows exactly this text and frr-reload.py finds nothing to change).
std::string config_text(std::string_view text);

/// A label value of the Prometheus text exposition format: valid_utf8 (the format is UTF-8), then
/// `\` -> `\\`, `"` -> `\"` and newline -> `\n`, the three escapes the format defines.
std::string prometheus_label_value(std::string_view text);

}  // namespace smd
