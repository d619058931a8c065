#include "smd/cli/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <string_view>
#include <thread>

#include "routing/base/safe_text.h"
#include "smd/cli/reopenable_file_sink.h"
#include "smd/cli/repeat_collapsing_sink.h"

namespace smd {
namespace {

constexpr const char* kPattern = "%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v";
// Identical warnings within a minute are written once, then counted (smd/cli/repeat_collapsing_sink.h).
constexpr std::chrono::seconds kRepeatWindow{60};

// How often the ticker closes ended windows: a count comes out at most this long after its minute.
constexpr std::chrono::seconds kTickInterval{5};

// The log file sink setup_logging made last (null: logging to stderr); SIGUSR1 reopens it.
std::mutex file_sink_mutex;
std::shared_ptr<ReopenableFileSink> file_sink;
std::weak_ptr<RepeatCollapsingSink> collapsing_sink;  // under file_sink_mutex

// Writes the "[N more in T s]" lines of ended windows while nothing else is logged (a node silent for good
// would otherwise get its count only with the next line). One thread for the process, started by the first
// setup_logging; it holds the sink weakly, so a later setup_logging's sink is the one it ticks.
void start_ticker() {
  static std::jthread ticker([](std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    while (!stop.stop_requested()) {
      // Returns at the interval, or at once when the process ends (the jthread's stop request).
      (void)cv.wait_for(lock, stop, kTickInterval, [] { return false; });
      if (stop.stop_requested()) break;
      std::shared_ptr<RepeatCollapsingSink> sink;
      {
        const std::lock_guard guard(file_sink_mutex);
        sink = collapsing_sink.lock();
      }
      if (sink) sink->close_ended_windows(spdlog::log_clock::now());
    }
  });
}

/// spdlog's pattern formatter, fed a copy of each message with its payload made printable.
class PrintableFormatter final : public spdlog::formatter {
 public:
  PrintableFormatter() : inner_(std::make_unique<spdlog::pattern_formatter>(kPattern)) {}

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const std::string safe = printable_text(std::string_view(msg.payload.data(), msg.payload.size()));
    spdlog::details::log_msg copy(msg);
    copy.payload = spdlog::string_view_t(safe.data(), safe.size());
    inner_->format(copy, dest);
  }

  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<PrintableFormatter>(); }

 private:
  std::unique_ptr<spdlog::formatter> inner_;
};

}  // namespace

std::unique_ptr<spdlog::formatter> make_log_formatter() { return std::make_unique<PrintableFormatter>(); }

Status setup_logging(const LogPolicy& log) {
  const auto level = spdlog::level::from_str(log.level);
  if (level == spdlog::level::off && log.level != "off") {
    return make_error(ErrorCode::kInvalidInput, "unknown log level '" + log.level + "'");
  }
  if (!log.file.empty()) {
    // Opening a FIFO for writing waits for a reader: smd would hang at start-up without a word.
    struct stat st {};
    if (::stat(log.file.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
      return make_error(ErrorCode::kIo, "log.file: " + log.file + " is a " +
                                            (S_ISFIFO(st.st_mode) ? "FIFO" : "socket") +
                                            ", not a file smd can append to");
    }
  }
  std::shared_ptr<spdlog::logger> logger;
  try {
    std::shared_ptr<spdlog::sinks::sink> out;
    std::shared_ptr<ReopenableFileSink> file;
    if (log.file.empty()) {
      out = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    } else {
      file = std::make_shared<ReopenableFileSink>(log.file);
      out = file;
    }
    auto collapsing = std::make_shared<RepeatCollapsingSink>(out, kRepeatWindow);
    const std::lock_guard lock(file_sink_mutex);
    file_sink = std::move(file);
    collapsing_sink = collapsing;
    logger = std::make_shared<spdlog::logger>("smd", std::move(collapsing));
  } catch (const spdlog::spdlog_ex& e) {
    return make_error(ErrorCode::kIo, std::string("log.file: ") + e.what());
  }
  logger->set_level(level);
  logger->set_formatter(make_log_formatter());
  spdlog::set_default_logger(logger);
  start_ticker();
  return Ok{};
}

Status reopen_log_file() {
  std::shared_ptr<ReopenableFileSink> file;
  {
    const std::lock_guard lock(file_sink_mutex);
    file = file_sink;
  }
  if (!file) return Ok{};  // stderr: the journal rotates itself
  return file->reopen();
}

}  // namespace smd
