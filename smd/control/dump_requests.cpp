#include "smd/control/dump_requests.h"

#include <string>

#include "smd/dump/opensm_lfts.h"
#include "smd/dump/opensm_mcfdbs.h"
#include "smd/dump/opensm_sl2vl.h"
#include "smd/dump/opensm_subnet.h"

namespace smd::control {
namespace {

Error dump_bad_input(std::string message) { return make_error(ErrorCode::kInvalidInput, std::move(message)); }

Json answer(const std::string& what, const char* file, std::string text) {
  return Json{{"what", what}, {"file", file}, {"text", std::move(text)}};
}

}  // namespace

Result<Json> dump_json(const Json& request, const FabricSnapshot& snap) {
  const auto it = request.find("what");
  if (it == request.end() || !it->is_string()) return dump_bad_input("dump needs what: lfts, subnet, mcfdbs or sl2vl");
  const std::string what = it->get<std::string>();
  if (what != "lfts" && what != "subnet" && what != "mcfdbs" && what != "sl2vl") {
    return dump_bad_input("unknown dump '" + what + "' (known: lfts, mcfdbs, sl2vl, subnet)");
  }
  if (!snap.topo || !snap.lids || !snap.tables) return dump_bad_input("dump " + what + ": no swept fabric yet");
  if (what == "lfts") return answer(what, "opensm-lfts.dump", dump::opensm_lfts(*snap.topo, *snap.lids, *snap.tables));
  if (what == "subnet") {
    Result<std::string> text = dump::opensm_subnet_list(snap);
    if (!text.ok()) return text.error();
    return answer(what, "opensm-subnet.lst", std::move(text).value());
  }
  if (what == "mcfdbs") {
    static const McastTables kNone;
    return answer(what, "opensm.mcfdbs",
                  dump::opensm_mcfdbs(*snap.topo, snap.mcast_tables ? *snap.mcast_tables : kNone));
  }
  if (!snap.sl2vl) {
    return dump_bad_input(
        "dump sl2vl: the last sweep wrote no SL2VL tables (qos.enabled is false and the routing engine "
        "has no VL layers; OpenSM writes no opensm-sl2vl.dump then either)");
  }
  return answer(what, "opensm-sl2vl.dump", dump::opensm_sl2vl(*snap.topo, *snap.lids, *snap.sl2vl));
}

}  // namespace smd::control
