// GmpManagerThread: see gmp_thread.h.
#include "mad/transport/gmp_thread.h"

#include <pthread.h>

#include <utility>

namespace smd::mad {

void GmpManagerThread::start(const char* name, std::function<void()> loop) {
  if (thread_.joinable()) return;
  stop_.store(false);
  // Named from inside, before the loop runs, so whatever the loop logs or shows already carries the name.
  thread_ = std::thread([name, loop = std::move(loop)] {
    pthread_setname_np(pthread_self(), name);
    loop();
  });
}

void GmpManagerThread::stop() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  thread_.join();
}

void GmpManagerThread::submit(std::span<const std::uint8_t, kMadSize> mad) {
  {
    const std::lock_guard lock(mutex_);
    if (!inbox_.push(mad)) return;
  }
  wake_.notify_all();
}

void GmpManagerThread::take(std::chrono::steady_clock::time_point until, std::vector<GmpInbox::Mad>& out) {
  std::unique_lock lock(mutex_);
  inbox_.take(
      lock, wake_, until, [this] { return stopping(); }, out);
}

}  // namespace smd::mad
