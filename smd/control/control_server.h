// ControlServer: the Unix stream socket smctl talks to, served on the daemon's io_context.
// Every client is asynchronous with a bounded request size and an idle deadline, and the number of
// clients is capped, so a slow or hostile client costs a file descriptor, never the sweep loop.
// Only root and members of the `smd` group (SO_PEERCRED) get answers; others get one error line.
#pragma once

#include <sys/types.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "routing/base/status.h"
#include "smd/control/requests.h"
#include "smd/control/stream_server.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

/// The peer process of a control connection, as the kernel reports it (SO_PEERCRED).
struct PeerCredentials {
  pid_t pid = 0;
  uid_t uid = 0;
  gid_t gid = 0;
};

/// Root, or a member of `group` (primary or supplementary). A group missing from the system means root
/// only. Reads the group and user databases (getgrnam_r, getpwuid_r, getgrouplist).
bool peer_allowed(const PeerCredentials& peer, const std::string& group);

struct ControlServerOptions {
  std::size_t max_request_bytes = control::kMaxRequestBytes;  ///< longer lines get an error, then close
  std::size_t max_clients = 16;                               ///< further clients get an error, then close
  std::chrono::milliseconds idle_timeout{30000};              ///< no complete request/reply within: close
  std::string group = "smd";                                  ///< group allowed besides root; socket group
  /// Decides who may talk; empty = peer_allowed(peer, group). Tests inject a refusal here.
  std::function<bool(const PeerCredentials&)> authorize;
};

class ControlServer {
 public:
  /// Serve `control` on the Unix socket `path` with permissions `mode` (e.g. 0660). Nothing happens
  /// before start(). `control` must outlive the server; it is only called on `io`'s thread.
  ControlServer(boost::asio::io_context& io, DaemonControl& control, std::string path, unsigned mode,
                ControlServerOptions options = {});
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  /// Create the socket (parent directory too), replacing a stale socket file; chmod to `mode` and chgrp
  /// to the group when it exists; start accepting. Errors: kIo when the path is a live socket of another
  /// process, is not a socket, or bind/listen/chmod fail (message names the path and errno text).
  Status start();
  /// Close the listener and every client, remove the socket file. Idempotent. Errors: kIo when the file
  /// cannot be removed.
  Status stop();

  const std::string& path() const { return path_; }
  /// Clients connected right now.
  std::size_t clients() const { return core_.live(); }

 private:
  class Session;
  Status replace_stale_socket();
  std::shared_ptr<control::ServedConnection> admit(boost::asio::local::stream_protocol::socket socket,
                                                   std::size_t live);

  boost::asio::io_context& io_;
  DaemonControl& control_;
  std::string path_;
  unsigned mode_;
  ControlServerOptions options_;
  control::StreamServer<boost::asio::local::stream_protocol> core_;
};

}  // namespace smd
