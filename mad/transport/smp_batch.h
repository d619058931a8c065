// SmpBatch: issue a set of SMPs (callbacks may issue more) and run the io_context until all of them
// completed. Sweep phases are written as "submit everything, then wait()", which keeps the transport's
// window full without one phase having to know about the next.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstddef>

#include "mad/transport/transport.h"

namespace smd {

class SmpBatch {
 public:
  /// `io` must be kept alive by a work guard (wait() blocks in run_one()).
  SmpBatch(boost::asio::io_context& io, mad::SmpTransport& transport) : io_(io), transport_(transport) {}

  /// Queue one request; `done` runs on the io_context thread inside wait().
  void submit(mad::SmpRequest req, mad::SmpCallback done) {
    ++outstanding_;
    transport_.submit(std::move(req), [this, done = std::move(done)](const mad::SmpReply& reply) {
      --outstanding_;
      done(reply);
    });
  }

  /// Run the io_context until every request submitted through this batch (including those submitted by
  /// callbacks) has completed.
  void wait() {
    while (outstanding_ > 0) {
      if (io_.run_one() == 0) io_.restart();
    }
  }

  std::size_t outstanding() const { return outstanding_; }
  mad::SmpTransport& transport() { return transport_; }

 private:
  boost::asio::io_context& io_;
  mad::SmpTransport& transport_;
  std::size_t outstanding_ = 0;
};

}  // namespace smd
