// routing.file: the options of the file engine, as file_factory's parse accepted them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "routing/engines/engine_options.h"
#include "routing/engines/file/lfts_dump.h"

namespace smd {

/// routing.file.lfts_file: the opensm-lfts.dump to replay, read and parsed when the policy loads (config/
/// does the reading, so that routing/ stays free of I/O). Empty path and null dump = none configured.
struct FileOptions : EngineOptions {
  static constexpr std::string_view kEngine = "file";
  std::string lfts_file;                 ///< the path as the policy names it
  std::shared_ptr<const LftsDump> dump;  ///< its parsed contents; shared by every copy of the options
};

}  // namespace smd
