// The log file sink (log.file): appends line by line, and reopen() closes the file and opens the same path
// again, so that after logrotate renames the file (and sends SIGUSR1) the lines that follow land in a new
// file at the configured path, not in the renamed one.
#pragma once

#include <spdlog/details/file_helper.h>
#include <spdlog/sinks/base_sink.h>

#include <mutex>
#include <string>

#include "routing/base/status.h"

namespace smd {

class ReopenableFileSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  /// Opens (creating, appending to) `path`. Throws spdlog::spdlog_ex when it cannot be opened.
  explicit ReopenableFileSink(std::string path);

  /// Close the file and open `path` again (a new file when the old one was moved away). Lines logged by
  /// other threads meanwhile wait for the sink's lock: none is lost or split. Never blocks: a FIFO or
  /// socket now at the path is refused. Errors: kIo naming the path; the lines then go to stderr (the
  /// journal) until a later reopen succeeds.
  Status reopen();

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override;

 private:
  std::string path_;
  spdlog::details::file_helper file_;
  bool open_ = false;
};

}  // namespace smd
