// The engines of a routing chain that declined (routing/chain/registry.h ChainAttempt), as `smd plan` and
// `smd plan --drain` show them: one JSON array and one text line each, so both reports read alike.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <span>

#include "routing/chain/registry.h"

namespace smd {

/// [{"engine": name, "reason": "<error code>: <message>"}, ...] in chain order.
nlohmann::ordered_json declined_json(std::span<const ChainAttempt> declined);

/// "declined      <engine>: <error code>: <message>" per attempt, in chain order.
void print_declined(std::ostream& out, std::span<const ChainAttempt> declined);

}  // namespace smd
