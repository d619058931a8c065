// SmpBatch: issue a set of SMPs (callbacks may issue more) and run the io_context until all of them
// completed. Sweep phases are written as "submit everything, then wait()", which keeps the transport's
// window full without one phase having to know about the next.
#pragma once

#include <cstddef>

#include "mad/transport/transport.h"

// Only a reference to the io_context is kept here: the Boost.Asio headers stay in the .cpp files that
// run or post to it, so the many sweep and programmer TUs that include this do not parse Asio.
namespace boost::asio {
class io_context;
}  // namespace boost::asio

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
  void wait();

  std::size_t outstanding() const { return outstanding_; }
  mad::SmpTransport& transport() { return transport_; }

 private:
  boost::asio::io_context& io_;
  mad::SmpTransport& transport_;
  std::size_t outstanding_ = 0;
};

}  // namespace smd
