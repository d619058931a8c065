// One-line human summary of an effective Policy, for `smd check-config` and the daemon's start-up log.
#pragma once

#include <string>

#include "config/policy.h"

namespace smd {

/// "engines=ftree,minhop adaptive=off lmc=0 priority=0 port=auto sweep=10s mad.window=32 ..." — every
/// setting that changes what the SM does, in the order config/smd.yaml documents them; GUIDs and keys in hex.
/// sm_key is shown only as set/unset: the summary goes to logs, the key is a secret.
std::string summarize_policy(const Policy& policy);

}  // namespace smd
