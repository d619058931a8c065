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

/// One client: read a line, answer it, repeat until the client closes, errs or idles out.
class ControlServer::Session : public control::ServedConnection {
 public:
  /// `refusal` non-empty: send it as one error line and close. `peer` names the requester in the log.
  Session(stream::socket socket, std::shared_ptr<control::ConnectionRegistry> registry, DaemonControl& daemon,
          const ControlServerOptions& options, std::string refusal, const std::optional<PeerCredentials>& peer)
      : ServedConnection(std::move(registry)),
        socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        in_(options.max_request_bytes),
        daemon_(daemon),
        max_request_bytes_(options.max_request_bytes),
        idle_timeout_(options.idle_timeout),
        refusal_(std::move(refusal)) {
    if (peer) requester_ = "uid " + std::to_string(peer->uid) + " pid " + std::to_string(peer->pid);
  }

  void begin() override {
    if (!refusal_.empty()) {
      send(control::to_line(control::error_response(refusal_)), /*then_read=*/false);
      return;
    }
    read();
  }

 private:
  void shut() override {
    boost::system::error_code ignored;
    timer_.cancel();
    socket_.close(ignored);
  }

  void arm_deadline() {
    timer_.expires_after(idle_timeout_);
    timer_.async_wait([self = self<Session>()](const boost::system::error_code& ec) {
      // A re-armed timer reports operation_aborted; only a real expiry closes the client.
      if (!ec && self->timer_.expiry() <= asio::steady_timer::clock_type::now()) self->close();
    });
  }

  void read() {
    arm_deadline();
    asio::async_read_until(
        socket_, in_, '\n',
        [self = self<Session>()](const boost::system::error_code& ec, std::size_t n) { self->on_line(ec, n); });
  }

  void on_line(const boost::system::error_code& ec, std::size_t n) {
    if (ec == asio::error::not_found) {  // the buffer filled up without a newline
      send(control::to_line(
               control::error_response("request longer than " + std::to_string(max_request_bytes_) + " bytes")),
           false);
      return;
    }
    if (ec || server_stopped()) {
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
    if (!request.ok()) {
      spdlog::info("control socket: bad request from {}: {}", requester_, request.error().message);
      send(control::to_line(control::error_response(request.error().message)), true);
      return;
    }
    // Most answers come at once; a what-if's comes from the daemon's thread when its worker is done. The
    // deadline is re-armed so the wait counts from the request, not from the client's last line.
    arm_deadline();
    control::handle_request_async(*request, daemon_, requester_, [self = self<Session>()](control::Json response) {
      if (self->server_stopped()) {
        self->close();
        return;
      }
      self->send(control::to_line(response), true);
    });
  }

  void send(std::string line, bool then_read) {
    out_ = std::move(line);
    arm_deadline();
    asio::async_write(socket_, asio::buffer(out_),
                      [self = self<Session>(), then_read](const boost::system::error_code& ec, std::size_t) {
                        if (ec || !then_read || self->server_stopped()) {
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
  DaemonControl& daemon_;
  std::size_t max_request_bytes_;
  std::chrono::milliseconds idle_timeout_;
  std::string refusal_;
  std::string requester_ = "an unidentified peer";  // "uid U pid P" from SO_PEERCRED
};

ControlServer::ControlServer(asio::io_context& io, DaemonControl& control, std::string path, unsigned mode,
                             ControlServerOptions options)
    : io_(io),
      control_(control),
      path_(std::move(path)),
      mode_(mode),
      options_(std::move(options)),
      core_(io, "control socket " + path_,
            [this](stream::socket socket, std::size_t live) { return admit(std::move(socket), live); }) {}

ControlServer::~ControlServer() { (void)stop(); }

// A socket file that accepts a connection belongs to a live daemon; one that refuses is stale.
Status ControlServer::replace_stale_socket() {
  struct stat st {};
  if (lstat(path_.c_str(), &st) != 0) return Ok{};
  if (!S_ISSOCK(st.st_mode)) return io_error("exists", path_, "not a socket; refusing to replace it");
  stream::socket probe(io_);
  boost::system::error_code ec;
  probe.connect(stream::endpoint(path_), ec);
  if (!ec) return io_error("in use", path_, "another process is serving it");
  if (unlink(path_.c_str()) != 0) return io_error("remove stale socket", path_, std::strerror(errno));
  return Ok{};
}

Status ControlServer::start() {
  if (core_.listening()) return Ok{};
  // The kernel keeps a Unix socket's path in sockaddr_un::sun_path; a longer one cannot be bound at all.
  if (path_.size() >= sizeof(sockaddr_un::sun_path)) {
    return io_error("bind", path_,
                    "path is " + std::to_string(path_.size()) + " bytes; a Unix socket path holds at most " +
                        std::to_string(sizeof(sockaddr_un::sun_path) - 1));
  }
  if (auto replaced = replace_stale_socket(); !replaced.ok()) return replaced;
  std::error_code fs_ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), fs_ec);
  // Born 0600; the chmod below widens it to mode_ once the group is set.
  if (auto listening = core_.listen(stream::endpoint(path_), {.reuse_address = false, .bind_umask = 0177});
      !listening.ok())
    return listening;
  if (const auto gid = group_id(options_.group)) {
    if (::chown(path_.c_str(), static_cast<uid_t>(-1), *gid) != 0) {
      spdlog::warn("control socket {}: chgrp {}: {}", path_, options_.group, std::strerror(errno));
    }
  }
  if (::chmod(path_.c_str(), static_cast<mode_t>(mode_)) != 0) {
    const std::string why = std::strerror(errno);
    core_.stop();
    ::unlink(path_.c_str());
    return io_error("chmod", path_, why);
  }
  spdlog::info("control socket listening on {}", path_);
  return Ok{};
}

// Everyone accepted gets a session; one refused (over the cap, unidentified, not authorized) gets a
// session that writes the reason and closes, so smctl can print why.
std::shared_ptr<control::ServedConnection> ControlServer::admit(stream::socket socket, std::size_t live) {
  std::string refusal;
  const auto peer = peer_of(socket);
  if (live >= options_.max_clients) {
    refusal = "too many control clients (" + std::to_string(options_.max_clients) + ")";
  } else if (!peer) {
    refusal = "cannot identify the peer (SO_PEERCRED)";
  } else if (!(options_.authorize ? options_.authorize(*peer) : peer_allowed(*peer, options_.group))) {
    refusal = "permission denied: uid " + std::to_string(peer->uid) + " is neither root nor in group " + options_.group;
    spdlog::warn("control socket {}: refused uid {} pid {}", path_, peer->uid, peer->pid);
  }
  return std::make_shared<Session>(std::move(socket), core_.registry(), control_, options_, std::move(refusal), peer);
}

Status ControlServer::stop() {
  if (!core_.listening()) return Ok{};
  core_.stop();
  if (::unlink(path_.c_str()) != 0 && errno != ENOENT) return io_error("remove", path_, std::strerror(errno));
  return Ok{};
}

}  // namespace smd
