#include "routing/engines/updn/updn_factory.h"

#include <string>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/updn/updn.h"

namespace smd {
namespace {

/// ids or ids_file into `out`; both at once is an error at ids_file.
bool read_ids(OptionReader& in, std::vector<GuidId>& out) {
  std::vector<GuidId> inline_map;
  std::vector<GuidId> from_file;
  const bool map_ok = in.read_guid_id_map("ids", inline_map);
  const bool file_ok = in.read_guid_id_file("ids_file", from_file);
  if (!map_ok || !file_ok) return false;
  if (!inline_map.empty() && !from_file.empty()) {
    in.fail("ids_file", "give ids or ids_file, not both");
    return false;
  }
  out = inline_map.empty() ? std::move(from_file) : std::move(inline_map);
  return true;
}

class UpdnFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return UpdnOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<UpdnOptions>();
    // Every key is read even after a problem, so the earliest one in the file is reported.
    const bool roots_ok = read_roots(in, options->roots);
    const bool order_ok = read_routing_order(in, options->guid_routing_order);
    const bool ids_ok = read_ids(in, options->ids);
    if (!roots_ok || !order_ok || !ids_ok) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    const UpdnOptions& o = options.engines.get<UpdnOptions>();
    return {{"roots", summarise_guids(o.roots)},
            {"guid_routing_order", summarise_order(o.guid_routing_order)},
            {"ids", o.ids.empty() ? "guids" : std::to_string(o.ids.size())}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<UpDownEngine>(options.engines.get<UpdnOptions>(), options.adaptive);
  }
};

}  // namespace

const EngineFactory& updn_factory() {
  static const UpdnFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_updn_engine(const RoutingOptions& options) {
  return updn_factory().create(options);
}

}  // namespace smd
