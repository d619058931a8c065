#include "smd/control/control_server.h"

#include <grp.h>
#include <pwd.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <unordered_set>
#include <vector>

namespace smd {
namespace {

namespace asio = boost::asio;
using stream = asio::local::stream_protocol;

Error io_error(const std::string& what, const std::string& path, const std::string& why) {
  return make_error(ErrorCode::kIo, "control socket " + path + ": " + what + ": " + why);
}

std::optional<gid_t> group_id(const std::string& name) {
  std::vector<char> buf(16384);
  group gr{};
  group* found = nullptr;
  int rc;
  while ((rc = getgrnam_r(name.c_str(), &gr, buf.data(), buf.size(), &found)) == ERANGE) buf.resize(buf.size() * 2);
  if (rc != 0 || found == nullptr) return std::nullopt;
  return gr.gr_gid;
}

// Supplementary groups come from the group database (getgrouplist), the same source login uses; a
// process that dropped groups at run time is still judged by its user's membership.
bool user_in_group(uid_t uid, gid_t wanted) {
  std::vector<char> buf(16384);
  passwd pw{};
  passwd* found = nullptr;
  int rc;
  while ((rc = getpwuid_r(uid, &pw, buf.data(), buf.size(), &found)) == ERANGE) buf.resize(buf.size() * 2);
  if (rc != 0 || found == nullptr) return false;
  if (pw.pw_gid == wanted) return true;
  int count = 64;
  std::vector<gid_t> groups(static_cast<std::size_t>(count));
  while (getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &count) < 0) {
    groups.resize(static_cast<std::size_t>(count) + 64);
    count = static_cast<int>(groups.size());
  }
  groups.resize(static_cast<std::size_t>(count));
  for (gid_t g : groups) {
    if (g == wanted) return true;
  }
  return false;
}

std::optional<PeerCredentials> peer_of(stream::socket& socket) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (getsockopt(socket.native_handle(), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return std::nullopt;
  return PeerCredentials{cred.pid, cred.uid, cred.gid};
}

}  // namespace

bool peer_allowed(const PeerCredentials& peer, const std::string& group) {
  if (peer.uid == 0) return true;
  const auto gid = group_id(group);
  if (!gid) return false;  // no such group: root only
  return peer.gid == *gid || user_in_group(peer.uid, *gid);
}

/// State the sessions share with the server; kept alive by queued handlers after the server is gone.
struct ControlServer::Shared {
  Shared(DaemonControl& c, ControlServerOptions o) : control(c), options(std::move(o)) {}
  DaemonControl& control;
  ControlServerOptions options;
  std::unordered_set<std::shared_ptr<Session>> sessions;
  bool stopped = true;
};

/// One client: read a line, answer it, repeat until the client closes, errs or idles out.
class ControlServer::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(stream::socket socket, std::shared_ptr<Shared> shared)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        in_(shared->options.max_request_bytes),
        shared_(std::move(shared)) {}

  /// Refuse with one error line, or start reading requests from `peer` (named in what its requests start).
  void start(const std::string& refusal, const std::optional<PeerCredentials>& peer) {
    if (peer) requester_ = "uid " + std::to_string(peer->uid) + " pid " + std::to_string(peer->pid);
    if (!refusal.empty()) {
      send(control::to_line(control::error_response(refusal)), /*then_read=*/false);
      return;
    }
    read();
  }

  void close() {
    boost::system::error_code ignored;
    timer_.cancel();
    socket_.close(ignored);
    shared_->sessions.erase(shared_from_this());
  }

 private:
  void arm_deadline() {
    timer_.expires_after(shared_->options.idle_timeout);
    timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      // A re-armed timer reports operation_aborted; only a real expiry closes the client.
      if (!ec && self->timer_.expiry() <= asio::steady_timer::clock_type::now()) self->close();
    });
  }

  void read() {
    arm_deadline();
    asio::async_read_until(
        socket_, in_, '\n',
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) { self->on_line(ec, n); });
  }

  void on_line(const boost::system::error_code& ec, std::size_t n) {
    if (ec == asio::error::not_found) {  // the buffer filled up without a newline
      send(control::to_line(control::error_response("request longer than " +
                                                    std::to_string(shared_->options.max_request_bytes) + " bytes")),
           false);
      return;
    }
    if (ec || shared_->stopped) {
      close();
      return;
    }
    std::string line(asio::buffers_begin(in_.data()), asio::buffers_begin(in_.data()) + static_cast<long>(n) - 1);
    in_.consume(n);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) {
      read();  // blank lines are keep-alives, not requests
      return;
    }
    auto request = control::parse_request(line);
    if (!request.ok()) spdlog::info("control socket: bad request from {}: {}", requester_, request.error().message);
    const control::Json response = request.ok() ? control::handle_request(*request, shared_->control, requester_)
                                                : control::error_response(request.error().message);
    send(control::to_line(response), true);
  }

  void send(std::string line, bool then_read) {
    out_ = std::move(line);
    arm_deadline();
    asio::async_write(socket_, asio::buffer(out_),
                      [self = shared_from_this(), then_read](const boost::system::error_code& ec, std::size_t) {
                        if (ec || !then_read || self->shared_->stopped) {
                          self->close();
                          return;
                        }
                        self->read();
                      });
  }

  stream::socket socket_;
  asio::steady_timer timer_;
  asio::streambuf in_;
  std::string out_;
  std::string requester_ = "an unidentified peer";  // "uid U pid P" from SO_PEERCRED
  std::shared_ptr<Shared> shared_;
};

ControlServer::ControlServer(asio::io_context& io, DaemonControl& control, std::string path, unsigned mode,
                             ControlServerOptions options)
    : io_(io), path_(std::move(path)), mode_(mode), shared_(std::make_shared<Shared>(control, std::move(options))) {}

ControlServer::~ControlServer() { (void)stop(); }

std::size_t ControlServer::clients() const { return shared_->sessions.size(); }

Status ControlServer::start() {
  if (!shared_->stopped) return Ok{};
  // The kernel keeps a Unix socket's path in sockaddr_un::sun_path; a longer one cannot be bound at all.
  if (path_.size() >= sizeof(sockaddr_un::sun_path)) {
    return io_error("bind", path_,
                    "path is " + std::to_string(path_.size()) + " bytes; a Unix socket path holds at most " +
                        std::to_string(sizeof(sockaddr_un::sun_path) - 1));
  }
  struct stat st {};
  if (lstat(path_.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) return io_error("exists", path_, "not a socket; refusing to replace it");
    // A socket file that accepts a connection belongs to a live daemon; one that refuses is stale.
    stream::socket probe(io_);
    boost::system::error_code ec;
    probe.connect(stream::endpoint(path_), ec);
    if (!ec) return io_error("in use", path_, "another process is serving it");
    if (unlink(path_.c_str()) != 0) return io_error("remove stale socket", path_, std::strerror(errno));
  }
  std::error_code fs_ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), fs_ec);

  auto acceptor = std::make_unique<stream::acceptor>(io_);
  boost::system::error_code ec;
  acceptor->open(stream(), ec);
  if (ec) return io_error("socket", path_, ec.message());
  // umask is process-wide; for the moment of bind it keeps the file private (0600) until the chmod
  // below widens it to mode_, so there is no window where anyone else may connect.
  const mode_t old_mask = ::umask(0177);
  acceptor->bind(stream::endpoint(path_), ec);
  ::umask(old_mask);
  if (ec) return io_error("bind", path_, ec.message());
  acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return io_error("listen", path_, ec.message());
  if (const auto gid = group_id(shared_->options.group)) {
    if (::chown(path_.c_str(), static_cast<uid_t>(-1), *gid) != 0) {
      spdlog::warn("control socket {}: chgrp {}: {}", path_, shared_->options.group, std::strerror(errno));
    }
  }
  if (::chmod(path_.c_str(), static_cast<mode_t>(mode_)) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(path_.c_str());
    return io_error("chmod", path_, why);
  }
  acceptor_ = std::move(acceptor);
  shared_->stopped = false;
  accept_next();
  spdlog::info("control socket listening on {}", path_);
  return Ok{};
}

void ControlServer::accept_next() {
  acceptor_->async_accept([this, shared = shared_](const boost::system::error_code& ec, stream::socket socket) {
    if (shared->stopped) return;  // the server (this) may be gone: touch nothing
    if (ec) {
      // EMFILE and friends: keep listening rather than going deaf for good.
      spdlog::warn("control socket {}: accept: {}", path_, ec.message());
      accept_next();
      return;
    }
    std::string refusal;
    const auto peer = peer_of(socket);
    const auto& opts = shared->options;
    if (shared->sessions.size() >= opts.max_clients) {
      refusal = "too many control clients (" + std::to_string(opts.max_clients) + ")";
    } else if (!peer) {
      refusal = "cannot identify the peer (SO_PEERCRED)";
    } else if (!(opts.authorize ? opts.authorize(*peer) : peer_allowed(*peer, opts.group))) {
      refusal = "permission denied: uid " + std::to_string(peer->uid) + " is neither root nor in group " + opts.group;
      spdlog::warn("control socket {}: refused uid {} pid {}", path_, peer->uid, peer->pid);
    }
    auto session = std::make_shared<Session>(std::move(socket), shared);
    shared->sessions.insert(session);
    session->start(refusal, peer);
    accept_next();
  });
}

Status ControlServer::stop() {
  if (shared_->stopped) return Ok{};
  shared_->stopped = true;
  boost::system::error_code ignored;
  acceptor_->close(ignored);
  acceptor_.reset();
  const auto sessions = shared_->sessions;  // close() erases from the set
  for (const auto& s : sessions) s->close();
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) return io_error("remove", path_, std::strerror(errno));
  return Ok{};
}

}  // namespace smd
