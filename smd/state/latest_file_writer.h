// One state file written on a thread of its own, so that the thread producing its content never waits for
// the disk: an fsync behind other writers' traffic can take hundreds of ms (bench/README.md, "IPv6
// solicited-node join storm": one held 64 joins ~220 ms). Only the newest content matters for a state
// file, so content offered while a write is under way replaces any that still waits.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace smd {

class LatestFileWriter {
 public:
  /// Starts the thread (named `thread_name`, at most 15 characters) that writes `path`.
  LatestFileWriter(std::string path, const char* thread_name);
  /// Writes what still waits, then ends the thread.
  ~LatestFileWriter();
  LatestFileWriter(const LatestFileWriter&) = delete;
  LatestFileWriter& operator=(const LatestFileWriter&) = delete;

  /// Queue `content` as the file's next content (write_file_atomic: whole, fsynced); replaces content
  /// offered before that is not being written yet. A failed write is logged with the path and errno
  /// text; the file keeps its previous content and the next offer tries again.
  void offer(std::string content);
  /// Block until everything offered so far is written (or has failed).
  void drain();

 private:
  void run();

  std::string path_;
  std::mutex mutex_;
  std::condition_variable wake_;  // content offered, or stop
  std::condition_variable idle_;  // nothing waits and nothing is being written
  std::optional<std::string> pending_;
  bool writing_ = false;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace smd
