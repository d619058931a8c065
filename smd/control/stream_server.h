// StreamServer: the socket-server core under the control socket (Unix stream, JSON lines) and the
// metrics endpoint (TCP, HTTP). It owns what both need and must get right once: binding the listener,
// an accept loop that keeps listening after an error, the set of live connections (so a cap can be
// counted and stop() can close them all), and a lifetime rule for handlers still queued after the
// server object is gone. A protocol supplies only its connection class and its admission decision.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/socket_base.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

#include "routing/base/status.h"

namespace smd::control {

class ServedConnection;

/// The live connections and whether the server stopped. Shared by the server and every connection:
/// a handler that runs after the server object is destroyed sees `stopped` and touches nothing else.
struct ConnectionRegistry {
  std::unordered_set<std::shared_ptr<ServedConnection>> live;
  bool stopped = true;
};

/// One accepted client as the core sees it. A protocol derives from it, starts its first read in
/// begin(), and calls close() when the client is done, errs or idles out.
class ServedConnection : public std::enable_shared_from_this<ServedConnection> {
 public:
  explicit ServedConnection(std::shared_ptr<ConnectionRegistry> registry) : registry_(std::move(registry)) {}
  virtual ~ServedConnection() = default;
  ServedConnection(const ServedConnection&) = delete;
  ServedConnection& operator=(const ServedConnection&) = delete;

  /// Start serving; called once, after the connection is counted among the live ones.
  virtual void begin() = 0;
  /// Close the socket and forget the connection (it lives on only while its handlers are queued).
  void close() {
    shut();
    registry_->live.erase(shared_from_this());
  }
  /// True once the server stopped: a handler finishing a request then closes instead of reading more.
  bool server_stopped() const { return registry_->stopped; }

 protected:
  /// Close the transport and cancel its timers; errors are ignored (the peer may be gone already).
  virtual void shut() = 0;
  /// This connection as its derived type, to keep it alive in a handler.
  template <class Derived>
  std::shared_ptr<Derived> self() {
    return std::static_pointer_cast<Derived>(shared_from_this());
  }

 private:
  std::shared_ptr<ConnectionRegistry> registry_;
};

/// Log an accept() failure as "<label>: accept: <cause>" (out of line, so this header needs no spdlog).
void log_accept_error(const std::string& label, const boost::system::error_code& ec);

/// How the listener is made. `bind_umask`, when set, is the process umask for the moment of bind, so a
/// Unix socket file is born private and a later chmod widens it (no window where anyone may connect).
struct ListenOptions {
  bool reuse_address = false;  ///< TCP: a restarted daemon must not wait out its predecessor's TIME_WAIT
  std::optional<mode_t> bind_umask;
};

/// The accept loop and connection set for `Protocol` (boost::asio::local::stream_protocol or ip::tcp).
/// Single-threaded: every member and every handler runs on `io`'s thread.
template <class Protocol>
class StreamServer {
 public:
  using Socket = typename Protocol::socket;
  using Acceptor = typename Protocol::acceptor;
  /// Decide about an accepted socket, given how many connections are live: return the connection that
  /// will serve it (possibly one that only sends a refusal), or null after closing the socket yourself.
  using Admit = std::function<std::shared_ptr<ServedConnection>(Socket socket, std::size_t live)>;

  /// `label` opens every log line and error ("control socket /run/smd.sock", "metrics 0.0.0.0:9464").
  StreamServer(boost::asio::io_context& io, std::string label, Admit admit)
      : io_(io),
        label_(std::move(label)),
        admit_(std::move(admit)),
        registry_(std::make_shared<ConnectionRegistry>()) {}
  ~StreamServer() { stop(); }
  StreamServer(const StreamServer&) = delete;
  StreamServer& operator=(const StreamServer&) = delete;

  /// Open, bind and listen on `endpoint`, then accept until stop(). Errors: kIo "<label>: socket|bind|
  /// listen: <cause>"; nothing stays open on error.
  Status listen(const typename Protocol::endpoint& endpoint, const ListenOptions& options = {}) {
    auto acceptor = std::make_unique<Acceptor>(io_);
    boost::system::error_code ec;
    const auto fail = [&](const char* what) {
      return make_error(ErrorCode::kIo, label_ + ": " + what + ": " + ec.message());
    };
    acceptor->open(endpoint.protocol(), ec);
    if (ec) return fail("socket");
    if (options.reuse_address) acceptor->set_option(boost::asio::socket_base::reuse_address(true), ec);
    const mode_t old_mask = options.bind_umask ? ::umask(*options.bind_umask) : 0;
    acceptor->bind(endpoint, ec);
    if (options.bind_umask) ::umask(old_mask);
    if (ec) return fail("bind");
    acceptor->listen(boost::asio::socket_base::max_listen_connections, ec);
    if (ec) return fail("listen");
    acceptor_ = std::move(acceptor);
    registry_->stopped = false;
    accept_next();
    return Ok{};
  }

  /// Close the listener and every live connection. Idempotent.
  void stop() {
    if (registry_->stopped) return;
    registry_->stopped = true;
    boost::system::error_code ignored;
    acceptor_->close(ignored);
    acceptor_.reset();
    const auto live = registry_->live;  // close() erases from the set
    for (const auto& c : live) c->close();
  }

  bool listening() const { return !registry_->stopped; }
  /// Connections open right now (refused ones count until their refusal is written).
  std::size_t live() const { return registry_->live.size(); }
  /// The bound endpoint; nullopt when not listening.
  std::optional<typename Protocol::endpoint> local_endpoint() const {
    if (!acceptor_) return std::nullopt;
    boost::system::error_code ec;
    auto ep = acceptor_->local_endpoint(ec);
    if (ec) return std::nullopt;
    return ep;
  }
  /// What connections are built with: the registry they report to.
  const std::shared_ptr<ConnectionRegistry>& registry() const { return registry_; }
  const std::string& label() const { return label_; }

 private:
  void accept_next() {
    acceptor_->async_accept([this, registry = registry_](const boost::system::error_code& ec, Socket socket) {
      if (registry->stopped) return;  // the server (this) may be gone: touch nothing
      if (ec) {
        // EMFILE and friends: keep listening rather than going deaf for good.
        log_accept_error(label_, ec);
      } else if (auto connection = admit_(std::move(socket), registry->live.size())) {
        registry->live.insert(connection);
        connection->begin();
      }
      accept_next();
    });
  }

  boost::asio::io_context& io_;
  std::string label_;
  Admit admit_;
  std::shared_ptr<ConnectionRegistry> registry_;
  std::unique_ptr<Acceptor> acceptor_;
};

}  // namespace smd::control
