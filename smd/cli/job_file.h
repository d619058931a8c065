// `smd plan --compare --job FILE`: a job's rank list read from a file, one endpoint per line in rank
// order, named by its port GUID (0x...), its base LID (decimal) or its CA's NodeDescription (the quoted
// id of an ibsim netfile, or an ibnetdiscover description with its spaces: the whole line, trimmed, is
// the name; a name several ports answer to, two CAs' or a multi-port CA's, is refused: the port GUID or
// LID says which port is the rank). '#' starts a comment;
// blank lines are skipped. On a multi-HCA fabric (routing/roce/rail_layout.h) a line may also name a host,
// the "<host>" of its HCAs' "<host> <device>" names, standing for all its HCAs in rail order, and a job
// must hold whole hosts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/roce/placement.h"
#include "routing/roce/rail_layout.h"

namespace smd {

/// What a job file may call endpoint e (index in roce::compare_endpoints' order).
struct JobEndpoint {
  Guid port_guid = 0;
  Lid lid = 0;
  std::string name;  ///< the CA's NodeDescription
};

/// The comparison's endpoints as a job file names them.
std::vector<JobEndpoint> job_endpoints(const Topology& topo, const LidMap& lids, const RoutingTables& tables);

/// Read the job at `path` over `endpoints`; the job is named after the path. Errors: kInvalidInput as
/// "PATH:LINE: ..." for an unknown endpoint or an endpoint already in the job;
/// "PATH: ..." when the file cannot be read (read_regular_file: not a regular file, over 16 MiB) or holds
/// fewer than 2 ranks. With `rails` (the fabric's hosts over the same endpoints) a host name is read as
/// its HCAs, and "PATH:LINE: host ..." names the line of the first HCA of a host the job holds only in part.
Result<roce::Job> read_job_file(const std::string& path, const std::vector<JobEndpoint>& endpoints,
                                const roce::RailLayout* rails = nullptr);

}  // namespace smd
