#include "smd/cli/reopenable_file_sink.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace smd {

namespace {

// Whether `path` can be appended to without blocking. Opening a FIFO for writing waits for a reader: on
// SIGUSR1 that would stop the daemon's only thread, and every other thread's log line behind the sink's
// lock. O_NONBLOCK makes that open fail (ENXIO) or succeed at once; fstat then says what the path is.
Status check_appendable(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == ENXIO) return make_error(ErrorCode::kIo, "log.file " + path + ": a FIFO without a reader");
    // Let spdlog try (it makes missing folders) and report its own error.
    return Ok{};
  }
  struct stat st {};
  const int rc = ::fstat(fd, &st);
  ::close(fd);
  if (rc == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    return make_error(ErrorCode::kIo, "log.file " + path + ": a " + (S_ISFIFO(st.st_mode) ? "FIFO" : "socket") +
                                          ", not a file smd can append to");
  }
  return Ok{};
}

}  // namespace

ReopenableFileSink::ReopenableFileSink(std::string path) : path_(std::move(path)) {
  file_.open(path_, /*truncate=*/false);
  open_ = true;
}

Status ReopenableFileSink::reopen() {
  const std::lock_guard lock(mutex_);
  file_.close();
  open_ = false;
  if (Status st = check_appendable(path_); !st.ok()) return st;
  try {
    file_.open(path_, /*truncate=*/false);
  } catch (const spdlog::spdlog_ex& e) {
    return make_error(ErrorCode::kIo, "log.file " + path_ + ": " + e.what());
  }
  open_ = true;
  return Ok{};
}

void ReopenableFileSink::sink_it_(const spdlog::details::log_msg& msg) {
  spdlog::memory_buf_t line;
  formatter_->format(msg, line);
  if (!open_) {
    // No file (a reopen failed): stderr, the journal under systemd, so the line saying why is seen.
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
    return;
  }
  file_.write(line);
  // Line by line: `tail -f` and a crash both see every line written so far.
  file_.flush();
}

void ReopenableFileSink::flush_() {
  if (open_) file_.flush();
}

}  // namespace smd
