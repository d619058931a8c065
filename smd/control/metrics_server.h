// MetricsServer: a Prometheus scrape endpoint (GET /metrics, HTTP/1.1 via Boost.Beast) on the daemon's
// io_context. Each scrape renders the snapshot the daemon last published (metrics_text.h), so a scrape
// never waits for a sweep. Connections are capped and time out. The same listener serves the read-only
// fabric view (page at /, JSON under /api/v1/, view_routes.h); any other path gets 404, another method 405.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "routing/base/status.h"
#include "smd/control/stream_server.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

/// "127.0.0.1:9464", "[::1]:9464", "0.0.0.0:0" (port 0 = any free port) -> endpoint. Host must be a
/// literal address or "localhost" (the daemon must not block on DNS). Errors: kInvalidInput naming the text.
Result<boost::asio::ip::tcp::endpoint> parse_listen(const std::string& listen);

struct MetricsServerOptions {
  /// Connections beyond this are closed at once. A browser keeps about 4 keep-alive connections per open
  /// fabric view, so 32 leaves room for several views and the scrapers beside them.
  std::size_t max_clients = 32;
  std::chrono::milliseconds timeout{10000};  ///< per request read and per response write
};

class MetricsServer {
 public:
  using SnapshotFn = std::function<std::shared_ptr<const FabricSnapshot>()>;

  /// Serve `snapshot()` on `listen` (host:port). `snapshot` is called on io's thread per scrape and may
  /// return null before the first publication (the scrape then gets 503). Nothing happens before start().
  MetricsServer(boost::asio::io_context& io, SnapshotFn snapshot, std::string listen,
                MetricsServerOptions options = {});
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// Bind and listen. Errors: kInvalidInput for a bad listen string, kIo when bind/listen fail (message
  /// names the address and the cause, e.g. "Address already in use").
  Status start();
  /// Close the listener and every connection. Idempotent; always succeeds.
  Status stop();
  /// The bound port (after start(); resolves port 0), 0 when not listening.
  unsigned short port() const;
  /// The bound address as "host:port" ("[v6]:port" for IPv6), "" when not listening.
  std::string address() const;

 private:
  class Session;
  std::shared_ptr<control::ServedConnection> admit(boost::asio::ip::tcp::socket socket, std::size_t live);

  std::string listen_;
  SnapshotFn snapshot_;
  MetricsServerOptions options_;
  control::StreamServer<boost::asio::ip::tcp> core_;
};

}  // namespace smd
