// Logging set-up from the policy: spdlog to stderr (or a file), level from log.level, every line through
// the formatter below so that no log line carries a control character.
#pragma once

#include <spdlog/formatter.h>

#include <memory>

#include "config/policy.h"
#include "routing/base/status.h"

namespace smd {

/// The formatter of every smd log line: "2025-01-02T03:04:05.678 info message". The message goes
/// through printable_text (routing/base/safe_text.h) first: a NodeDescription with a newline or a
/// terminal escape (the fabric chooses them) cannot forge a log line or drive the reader's terminal.
std::unique_ptr<spdlog::formatter> make_log_formatter();

/// Install the default spdlog logger; identical warnings within 60 s are written once and counted
/// (repeat_collapsing_sink.h). Errors: kInvalidInput for an unknown level, kIo when the file cannot
/// be opened.
Status setup_logging(const LogPolicy& log);

/// Close the log file setup_logging opened and open its path again (SIGUSR1, after logrotate moved the
/// file): later lines go to a new file. Ok and nothing done when logging goes to stderr. Errors: kIo naming
/// the file (the daemon logs to nowhere until a later reopen succeeds).
Status reopen_log_file();

}  // namespace smd
