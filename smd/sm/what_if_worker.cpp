#include "smd/sm/what_if_worker.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>
#include <utility>

namespace smd {
namespace {

// Linux keeps a nice value per thread (setpriority on the thread's id, sched(7)).
constexpr int kWhatIfNice = 10;

}  // namespace

WhatIfWorker::~WhatIfWorker() {
  if (thread_.joinable()) thread_.join();
}

bool WhatIfWorker::start(Job job, Done done) {
  if (busy_.exchange(true)) return false;
  if (thread_.joinable()) thread_.join();  // the previous job's thread has finished: busy_ was clear
  thread_ = std::thread([this, job = std::move(job), done = std::move(done)]() mutable {
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    if (::setpriority(PRIO_PROCESS, tid, kWhatIfNice) != 0) {
      spdlog::debug("what-if: worker priority not lowered: {}", std::strerror(errno));
    }
    Result<control::Json> result = job();
    busy_ = false;
    boost::asio::post(io_, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
  });
  return true;
}

}  // namespace smd
