#include "smd/control/stream_server.h"

#include <spdlog/spdlog.h>

namespace smd::control {

void log_accept_error(const std::string& label, const boost::system::error_code& ec) {
  spdlog::warn("{}: accept: {}", label, ec.message());
}

}  // namespace smd::control
