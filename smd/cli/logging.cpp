#include "smd/cli/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace smd {

Status setup_logging(const LogPolicy& log) {
  const auto level = spdlog::level::from_str(log.level);
  if (level == spdlog::level::off && log.level != "off") {
    return make_error(ErrorCode::kInvalidInput, "unknown log level '" + log.level + "'");
  }
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (log.file.empty()) {
      logger = std::make_shared<spdlog::logger>("smd", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    } else {
      logger = std::make_shared<spdlog::logger>(
          "smd", std::make_shared<spdlog::sinks::basic_file_sink_mt>(log.file, /*truncate=*/false));
    }
  } catch (const spdlog::spdlog_ex& e) {
    return make_error(ErrorCode::kIo, std::string("log.file: ") + e.what());
  }
  logger->set_level(level);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  spdlog::set_default_logger(logger);
  return Ok{};
}

}  // namespace smd
