// How `smd --instance NAME` turns one shared policy into one SM of several on this host: which policy file
// it reads, and the paths and port it derives, so two instances never share a state folder, a control
// socket, a metrics port or an SM port. Used at start (smd/cli/main.cpp) and again on every SIGHUP reload.
#pragma once

#include <string>
#include <string_view>

#include "config/policy.h"

namespace smd {

/// The policy file of instance `name`: smd-NAME.yaml in the folder of `config` when that file exists
/// ("/etc/smd/smd.yaml", "rail0" -> "/etc/smd/smd-rail0.yaml"), else `config` itself. `name` passed
/// check_instance_name; an empty `config` stays empty (built-in defaults).
std::string instance_policy_path(const std::string& config, std::string_view name);

/// Applies the command-line instance options to a policy just loaded, and stores them in policy.instance:
/// - instance.metrics_listen, when given, replaces metrics.listen (instance or not);
/// with a name (check_instance_name passed):
/// - sm.state_dir gets the folder NAME ("/var/lib/smd" -> "/var/lib/smd/NAME"), control.socket too
///   ("/run/smd/control.socket" -> "/run/smd/NAME/control.socket"), whichever file the policy came from;
/// - a name that is a port GUID ("0x0002c90300a1b2c3") selects the SM port: sm.port_guid, sm.ca and
///   sm.port cleared;
/// - from the shared file (own_policy_file false): a log.file or sa.services_file it names gets the folder
///   NAME as control.socket does, and without --metrics-listen the metrics endpoint is off (one shared
///   metrics.listen cannot serve two daemons; an instance's own file or --metrics-listen names its port).
void apply_instance(Policy& policy, const InstancePolicy& instance);

/// One line for the log: "instance rail0 (policy /etc/smd/smd.yaml, shared): state_dir ..., socket ...,
/// metrics ...". Empty when the policy has no instance name.
std::string describe_instance(const Policy& policy);

}  // namespace smd
