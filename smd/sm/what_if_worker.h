// WhatIfWorker: runs one what-if at a time on a thread of its own, so the SM's thread keeps sweeping and
// answering the control socket while it computes (a what-if on a large fabric runs an engine chain, a
// verifier and two quality reports). The thread runs at nice +10: the SA's thread and the sweeps, at the
// process's priority, go first when the cores are busy. The answer is posted to the io_context, so `done`
// runs on the SM's thread like every other handler.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <functional>
#include <thread>

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"

namespace smd {

class WhatIfWorker {
 public:
  using Job = std::function<Result<control::Json>()>;
  using Done = std::function<void(Result<control::Json>)>;

  explicit WhatIfWorker(boost::asio::io_context& io) : io_(io) {}
  /// Waits for a running job (its answer is then dropped with the io_context's handlers).
  ~WhatIfWorker();
  WhatIfWorker(const WhatIfWorker&) = delete;
  WhatIfWorker& operator=(const WhatIfWorker&) = delete;

  /// Start `job`; `done` gets its result on the io_context's thread. False (nothing started) while the
  /// previous job runs: the caller answers "busy".
  bool start(Job job, Done done);

 private:
  boost::asio::io_context& io_;
  std::thread thread_;
  std::atomic<bool> busy_{false};
};

}  // namespace smd
