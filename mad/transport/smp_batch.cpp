#include "mad/transport/smp_batch.h"

#include <boost/asio/io_context.hpp>

namespace smd {

void SmpBatch::wait() {
  while (outstanding_ > 0) {
    if (io_.run_one() == 0) io_.restart();
  }
}

}  // namespace smd
