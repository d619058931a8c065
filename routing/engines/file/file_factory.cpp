#include "routing/engines/file/file_factory.h"

#include "routing/engines/file/file_engine.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

bool FileOptions::read(OptionReader& in) {
  OptionReader::File file;
  if (!in.read_file("lfts_file", kMaxLftsDumpBytes, file)) return false;
  if (file.path.empty()) return true;
  auto parsed = parse_lfts_dump(file.text, file.resolved);
  if (!parsed) {
    // The message carries the dump's own file:line:column after the policy key's.
    in.fail("lfts_file", parsed.error().message);
    return false;
  }
  lfts_file = std::move(file.path);
  dump = std::make_shared<const LftsDump>(std::move(parsed).value());
  return true;
}

std::vector<OptionSummary> FileOptions::summary() const {
  return {{"lfts_file", lfts_file.empty() ? "none" : lfts_file}};
}

const EngineFactory& file_factory() {
  static const SectionEngineFactory<FileOptions, FileEngine> factory;
  return factory;
}

}  // namespace smd
