#include "routing/engines/file/file_factory.h"

#include "routing/engines/file/file_engine.h"

namespace smd {
namespace {

class FileFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return FileOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    OptionReader::File file;
    if (!in.read_file("lfts_file", kMaxLftsDumpBytes, file)) return nullptr;
    auto options = std::make_shared<FileOptions>();
    if (file.path.empty()) return options;
    auto dump = parse_lfts_dump(file.text, file.resolved);
    if (!dump) {
      // The message carries the dump's own file:line:column after the policy key's.
      in.fail("lfts_file", dump.error().message);
      return nullptr;
    }
    options->lfts_file = std::move(file.path);
    options->dump = std::make_shared<const LftsDump>(std::move(dump).value());
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    const FileOptions& o = options.engines.get<FileOptions>();
    return {{"lfts_file", o.lfts_file.empty() ? "none" : o.lfts_file}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<FileEngine>(options.engines.get<FileOptions>());
  }
};

}  // namespace

const EngineFactory& file_factory() {
  static const FileFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_file_engine(const RoutingOptions& options) {
  return file_factory().create(options);
}

}  // namespace smd
