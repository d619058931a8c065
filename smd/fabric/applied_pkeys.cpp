#include "smd/fabric/applied_pkeys.h"

namespace smd {

void AppliedPKeys::record_block(Guid node_guid, PortNum p, unsigned b, const AppliedPortPKeys::Block& data) {
  AppliedPortPKeys& t = record_of(node_guid, p);
  if (t.blocks.size() <= b) t.blocks.resize(b + 1);
  t.blocks[b] = data;
}

void AppliedPKeys::forget_block(Guid node_guid, PortNum p, unsigned b) {
  AppliedPortPKeys* t = find(node_guid, p);
  if (t && b < t->blocks.size()) t->blocks[b].reset();
}

void AppliedPKeys::record_enforcement(Guid node_guid, PortNum p, bool in, bool out) {
  AppliedPortPKeys& t = record_of(node_guid, p);
  t.enforce_in = in;
  t.enforce_out = out;
}

}  // namespace smd
