#include "smd/state/latest_file_writer.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <utility>

#include "smd/state/atomic_file.h"

namespace smd {

LatestFileWriter::LatestFileWriter(std::string path, const char* thread_name)
    : path_(std::move(path)), thread_([this] { run(); }) {
  pthread_setname_np(thread_.native_handle(), thread_name);
}

LatestFileWriter::~LatestFileWriter() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void LatestFileWriter::offer(std::string content) {
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(content);
  }
  wake_.notify_one();
}

void LatestFileWriter::drain() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [&] { return !pending_ && !writing_; });
}

void LatestFileWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || pending_; });
    if (!pending_) return;  // stopping, and everything offered is written
    std::string content = std::move(*pending_);
    pending_.reset();
    writing_ = true;
    lock.unlock();
    if (Status st = write_file_atomic(path_, content); !st) spdlog::error("cannot write {}: {}", path_, st.error().message);
    lock.lock();
    writing_ = false;
    if (!pending_) idle_.notify_all();
  }
}

}  // namespace smd
