// OpenSM's command-line overrides of the policy (opensm -p, -g, -R): parsing the option values, and
// applying them over a loaded policy. The daemon applies them after the policy file and after --instance,
// at start and again on every SIGHUP reload, so an operator who started `smd -p 10` keeps priority 10.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/policy.h"
#include "routing/base/status.h"

namespace smd {

/// -p/--priority: an SMInfo priority 0..15 (IBA 14.2.5.13), decimal or 0x hex.
/// Errors: kInvalidInput naming the option and the value.
Result<unsigned> parse_priority_override(std::string_view text);

/// -g/--guid: the SM port's port GUID, 0x hex as OpenSM takes it (decimal accepted); 0 names no port.
/// Errors: kInvalidInput naming the option and the value.
Result<Guid> parse_guid_override(std::string_view text);

/// -R/--routing-engine: the engine chain, comma separated as OpenSM takes it ("ftree,updn,minhop"); each
/// name one the registry knows, none twice, none empty.
/// Errors: kInvalidInput naming the bad element, with the known engines.
Result<std::vector<std::string>> parse_engine_list_override(std::string_view text);

/// Sets the keys `overrides` names and stores them in policy.overrides. --guid selects the port by
/// itself: sm.ca and sm.port are cleared, as sm.port_guid in the file requires. --log-level (smd's own,
/// not OpenSM's) is carried the same way so that `config --effective` names it.
void apply_overrides(Policy& policy, const PolicyOverrides& overrides);

/// The policy key an override sets and the option that set it ("sm.priority", "--priority"), in option
/// order; --guid names sm.port_guid, sm.ca and sm.port. Only the overrides `overrides` holds.
std::vector<std::pair<std::string, std::string>> overridden_keys(const PolicyOverrides& overrides);

}  // namespace smd
