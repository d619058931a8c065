// smctl's exit codes, and the one answer that is not just "the daemon answered": `smctl what-if drain`
// exits kExitWouldLosePairs when the drain would leave CA pairs without any path, so a maintenance script
// can stop before `smctl drain` without reading the report. The code is the one `smd plan --drain` gives
// for the same verdict (smd.8), so both read alike in a script.
#pragma once

#include <string_view>

#include "smd/protocol/control_protocol.h"

namespace smd::smctl {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDaemonError = 1;     ///< the daemon answered with an error
inline constexpr int kExitNoConnection = 2;    ///< usage error, no connection, `dump -o FILE` unwritable
inline constexpr int kExitBadInput = 2;       ///< what-if drain: a name that names no part (as `smd plan --drain`)
inline constexpr int kExitWouldLosePairs = 5;  ///< what-if drain: some CA pair would lose every path
inline constexpr int kExitBusy = 6;            ///< what-if drain: another what-if is running; ask again later

/// The exit code for the daemon's answer `response` ({ok, result | error[, code]}) to command `cmd`:
/// kExitDaemonError for an error, except a what_if_drain's whose code is "invalid-input" (kExitBadInput) or
/// "timeout" (kExitBusy: the daemon's one what-if worker is taken); kExitWouldLosePairs for a what_if_drain
/// whose result is not "safe" (or has no verdict: an answer that cannot be read as safe is not safe), else
/// kExitOk.
int answer_exit_code(std::string_view cmd, const control::Json& response);

}  // namespace smd::smctl
