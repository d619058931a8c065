// routing.file: the options of the file engine, read (and the dump parsed) when the policy loads.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"
#include "routing/engines/file/lfts_dump.h"

namespace smd {

/// routing.file.lfts_file: the opensm-lfts.dump to replay, read and parsed when the policy loads (config/
/// does the reading, so that routing/ stays free of I/O). Empty path and null dump = none configured.
struct FileOptions : EngineOptions {
  static constexpr std::string_view kEngine = "file";
  std::string lfts_file;                 ///< the path as the policy names it
  std::shared_ptr<const LftsDump> dump;  ///< its parsed contents; shared by every copy of the options

  /// Reads lfts_file and parses the dump it names, so a malformed dump refuses the policy at start or
  /// reload; false when refused (the reader holds the error: the key's place, then the dump's
  /// file:line:column).
  bool read(OptionReader& in);
  /// lfts_file as the policy summary shows it ("none" when unset).
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
