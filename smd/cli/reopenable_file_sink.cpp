#include "smd/cli/reopenable_file_sink.h"

namespace smd {

ReopenableFileSink::ReopenableFileSink(std::string path) : path_(std::move(path)) {
  file_.open(path_, /*truncate=*/false);
  open_ = true;
}

Status ReopenableFileSink::reopen() {
  const std::lock_guard lock(mutex_);
  file_.close();
  open_ = false;
  try {
    file_.open(path_, /*truncate=*/false);
  } catch (const spdlog::spdlog_ex& e) {
    return make_error(ErrorCode::kIo, "log.file " + path_ + ": " + e.what());
  }
  open_ = true;
  return Ok{};
}

void ReopenableFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  if (!open_) return;
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  file_.write(line);
  // Line by line: `tail -f` and a crash both see every line written so far.
  file_.flush();
}

void ReopenableFileSink::flush_() {
  if (open_) file_.flush();
}

}  // namespace smd
