#include "smd/smctl/smctl_client.h"

#include <sys/un.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <optional>

namespace smd::control {
namespace {

namespace asio = boost::asio;
using stream = asio::local::stream_protocol;

Error fail(const std::string& message) { return make_error(ErrorCode::kIo, message); }

// Turn a connect() failure into advice that names the path.
Error connect_error(const std::string& path, const boost::system::error_code& ec) {
  if (ec == asio::error::not_found || ec.value() == ENOENT) {
    return fail("control socket " + path + " does not exist: is smd running? (--socket PATH or SMCTL_SOCKET)");
  }
  if (ec == asio::error::access_denied || ec.value() == EACCES || ec.value() == EPERM) {
    return fail("permission denied on control socket " + path + ": run as root or as a member of group smd");
  }
  if (ec == asio::error::connection_refused) {
    return fail("nothing listens on control socket " + path + " (stale socket file?): is smd running?");
  }
  return fail("cannot connect to control socket " + path + ": " + ec.message());
}

}  // namespace

Result<Json> call(const std::string& socket_path, const Json& request, std::chrono::milliseconds timeout) {
  // Asynchronous operations with run_for() give the whole exchange one deadline; blocking calls would
  // wait forever on a wedged daemon.
  // A Unix socket path must fit sockaddr_un::sun_path; the endpoint constructor would throw otherwise.
  if (socket_path.size() >= sizeof(sockaddr_un{}.sun_path)) {
    return fail("control socket path " + socket_path.substr(0, 40) + "... is longer than " +
                std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) + " bytes");
  }
  asio::io_context io;
  stream::socket socket(io);
  std::optional<boost::system::error_code> connected;
  std::optional<boost::system::error_code> done;
  const std::string line = to_line(request);
  asio::streambuf in;

  socket.async_connect(stream::endpoint(socket_path), [&](const boost::system::error_code& ec) {
    connected = ec;
    if (ec) return;
    asio::async_write(socket, asio::buffer(line), [&](const boost::system::error_code&, std::size_t) {
      // Read even when the write failed: a refusing daemon writes its error line and closes before
      // reading ours, and that line is still waiting in the receive queue.
      asio::async_read_until(socket, in, '\n', [&](const boost::system::error_code& rec, std::size_t) { done = rec; });
    });
  });
  io.run_for(timeout);
  if (!connected) return fail("timed out connecting to control socket " + socket_path);
  if (*connected) return connect_error(socket_path, *connected);
  if (!done) return fail("no answer from smd on " + socket_path + " within " + std::to_string(timeout.count()) + " ms");
  if (*done && in.size() == 0) {
    return fail("smd closed the connection on " + socket_path + ": " + done->message());
  }
  std::string text(asio::buffers_begin(in.data()), asio::buffers_end(in.data()));
  const auto nl = text.find('\n');
  if (nl != std::string::npos) text.resize(nl);
  Json response = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  // The shape every caller relies on: {"ok": bool, "error": string when not ok}; anything else is not smd.
  const bool well_formed =
      !response.is_discarded() && response.is_object() && response.contains("ok") && response["ok"].is_boolean() &&
      (response["ok"].get<bool>() || (response.contains("error") && response["error"].is_string()));
  if (!well_formed) return fail("malformed response from smd on " + socket_path);
  return response;
}

}  // namespace smd::control
