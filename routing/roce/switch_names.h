// One name per switch of the RoCE plan that is at once its FRR `hostname`, its directory under
// --frr-dir / state_dir/frr, and the identifier the plan JSON refers to it by (beside its node GUID).
// NodeDescriptions come from the fabric: they need not be unique and may hold any byte, and FRR refuses
// a hostname that does not start with a letter or digit ("Please specify string starting with alphabet
// or number", lib/command.c), which makes frr-reload.py refuse the whole file.
#pragma once

#include <string>
#include <vector>

#include "routing/base/ids.h"

namespace smd::roce {

/// Longest name given: a DNS label (RFC 1123 section 2.1) and HOST_NAME_MAX - 1 on Linux.
inline constexpr std::size_t kMaxSwitchNameLength = 63;

/// Names for switches with these descriptions and node GUIDs (same length, in plan order). Each name is
/// the description with every byte outside [A-Za-z0-9._-] replaced by '_', cut to its first and last
/// letter or digit and to kMaxSwitchNameLength ("switch" when nothing is left). A name already taken by
/// an earlier switch gets "-<node GUID, 16 hex digits>" (the base shortened to fit), which does not
/// change when other switches join or leave; "-<index>" is added only if even that is taken.
std::vector<std::string> switch_names(const std::vector<std::string>& descriptions, const std::vector<Guid>& guids);

}  // namespace smd::roce
