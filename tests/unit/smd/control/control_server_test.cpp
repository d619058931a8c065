// ControlServer over a real Unix socket: the io_context runs in the test thread, clients run beside it.
// Every test stops its server and bounds its waits.
#include "smd/control/control_server.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <filesystem>
#include <fstream>
#include <future>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "smd/control/command_table.h"
#include "smd/smctl/smctl_client.h"
#include "tests/unit/smd/null_control.h"

namespace smd::control_server_test {
namespace {

using control::Json;
using namespace std::chrono_literals;

struct FakeControl : test::NullControl {
  int heavy = 0;
  void request_heavy_sweep(const std::string&) override { ++heavy; }
};

// A raw client: connect, send bytes, read until EOF or `until` bytes or a newline, with a deadline.
struct RawClient {
  int fd = -1;
  explicit RawClient(const std::string& path) {
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ~RawClient() {
    if (fd >= 0) ::close(fd);
  }
  void send(const std::string& data) const { (void)::send(fd, data.data(), data.size(), MSG_NOSIGNAL); }
  // Everything until the peer closes (or 3 s pass); `closed` says whether EOF was seen.
  std::string read_all(bool& closed) const {
    std::string out;
    closed = false;
    const auto deadline = std::chrono::steady_clock::now() + 3s;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        closed = true;
        break;
      }
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }
};

class ControlServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "smd-ctl-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
    path = dir + "/control.socket";
    auto topo = make_single_switch(2);
    ASSERT_TRUE(topo.ok());
    auto snap = std::make_shared<FabricSnapshot>();
    snap->topo = std::make_shared<const Topology>(std::move(topo.value()));
    auto lids = assign_lids(*snap->topo, {}, {});
    ASSERT_TRUE(lids.ok());
    snap->lids = std::make_shared<const LidMap>(std::move(lids.value()));
    snap->sm_state = "STANDBY";
    control.snap = snap;
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // Run the io_context until `f` is ready (at most 5 s); the client runs on its own thread.
  template <typename T>
  T run_until(std::future<T>& f) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (f.wait_for(0s) != std::future_status::ready && std::chrono::steady_clock::now() < deadline) {
      io.run_for(10ms);
    }
    EXPECT_EQ(f.wait_for(0s), std::future_status::ready) << "client did not finish in time";
    return f.get();
  }

  Result<Json> ask(const Json& request) {
    auto f = std::async(std::launch::async, [&] { return control::call(path, request, 3s); });
    return run_until(f);
  }

  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{io.get_executor()};
  FakeControl control;
  std::string dir, path;
};

TEST_F(ControlServerTest, ServesStatusWithModeAndRemovesSocket) {
  ControlServer server(io, control, path, 0660);
  ASSERT_TRUE(server.start().ok());
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0660u);

  auto r = ask({{"cmd", "status"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["ok"], true);
  EXPECT_EQ((*r)["result"]["state"], "STANDBY");
  EXPECT_EQ((*r)["result"]["fabric"]["cas"], 2);

  auto s = ask({{"cmd", "sweep"}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(control.heavy, 1);
  ASSERT_TRUE(server.stop().ok());
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(ControlServerTest, SeveralRequestsOnOneConnection) {
  ControlServer server(io, control, path, 0660);
  ASSERT_TRUE(server.start().ok());
  auto f = std::async(std::launch::async, [&] {
    RawClient c(path);
    c.send("{\"cmd\":\"status\"}\n\n{\"cmd\":\"nope\"}\nnot json\n");
    ::shutdown(c.fd, SHUT_WR);
    bool closed = false;
    return c.read_all(closed);
  });
  const std::string out = run_until(f);
  const auto first_nl = out.find('\n');
  ASSERT_NE(first_nl, std::string::npos);
  EXPECT_EQ(Json::parse(out.substr(0, first_nl))["result"]["state"], "STANDBY");
  EXPECT_EQ(out.substr(first_nl + 1),
            // The list is the command table's (control_protocol_test checks it); this test is about the framing.
            "{\"error\":\"unknown command 'nope' (known: " + control::control_command_names() +
                ")\",\"ok\":false}\n{\"error\":\"request is not valid "
                "JSON\",\"ok\":false}\n");
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(ControlServerTest, RefusedPeerGetsErrorAndClose) {
  ControlServerOptions options;
  options.authorize = [](const PeerCredentials& peer) { return peer.uid == 4242424; };
  ControlServer server(io, control, path, 0660, options);
  ASSERT_TRUE(server.start().ok());
  auto r = ask({{"cmd", "status"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["ok"], false);
  EXPECT_EQ((*r)["error"],
            "permission denied: uid " + std::to_string(::getuid()) + " is neither root nor in group smd");
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(ControlServerTest, OversizedRequestIsRefused) {
  ControlServerOptions options;
  options.max_request_bytes = 1024;
  ControlServer server(io, control, path, 0660, options);
  ASSERT_TRUE(server.start().ok());
  auto f = std::async(std::launch::async, [&] {
    RawClient c(path);
    c.send(std::string(4096, 'x'));
    bool closed = false;
    std::string out = c.read_all(closed);
    return out + (closed ? "<closed>" : "<open>");
  });
  EXPECT_EQ(run_until(f), "{\"error\":\"request longer than 1024 bytes\",\"ok\":false}\n<closed>");
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(ControlServerTest, IdleClientIsClosedAndDoesNotBlockOthers) {
  ControlServerOptions options;
  options.idle_timeout = 200ms;
  options.max_clients = 2;
  ControlServer server(io, control, path, 0660, options);
  ASSERT_TRUE(server.start().ok());
  auto idle = std::async(std::launch::async, [&] {
    RawClient c(path);
    c.send("{\"cmd\":");  // half a request, then silence
    bool closed = false;
    std::string out = c.read_all(closed);
    return out + (closed ? "<closed>" : "<open>");
  });
  // While the idle client holds a slot, a second one is served at once.
  auto r = ask({{"cmd", "status"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["ok"], true);
  EXPECT_EQ(run_until(idle), "<closed>");
  EXPECT_EQ(server.clients(), 0u);
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(ControlServerTest, TooManyClients) {
  ControlServerOptions options;
  options.max_clients = 1;
  ControlServer server(io, control, path, 0660, options);
  ASSERT_TRUE(server.start().ok());
  RawClient holder(path);
  ASSERT_GE(holder.fd, 0);
  // Let the server accept the holder before the next client arrives.
  const auto deadline = std::chrono::steady_clock::now() + 3s;
  while (server.clients() == 0 && std::chrono::steady_clock::now() < deadline) io.run_for(10ms);
  ASSERT_EQ(server.clients(), 1u);
  auto r = ask({{"cmd", "status"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["error"], "too many control clients (1)");
  ASSERT_TRUE(server.stop().ok());
}

TEST_F(ControlServerTest, StaleSocketReplacedLiveOneAndFilesRefused) {
  {  // a socket file nobody listens on any more
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ::close(fd);
  }
  ControlServer server(io, control, path, 0660);
  ASSERT_TRUE(server.start().ok());

  ControlServer second(io, control, path, 0660);
  const Status live = second.start();
  ASSERT_FALSE(live.ok());
  EXPECT_EQ(live.error().code, ErrorCode::kIo);
  EXPECT_EQ(live.error().message, "control socket " + path + ": in use: another process is serving it");
  ASSERT_TRUE(server.stop().ok());

  const std::string file = dir + "/plain";
  { std::ofstream(file) << "x"; }
  ControlServer third(io, control, file, 0660);
  EXPECT_EQ(third.start().error().message, "control socket " + file + ": exists: not a socket; refusing to replace it");
  EXPECT_TRUE(std::filesystem::exists(file));
}

TEST_F(ControlServerTest, ClientNamesMissingSocket) {
  auto r = control::call(dir + "/absent.socket", {{"cmd", "status"}}, 1s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "control socket " + dir + "/absent.socket does not exist: is smd running? (--socket PATH or SMCTL_SOCKET)");
}

TEST(PeerAllowed, RootAlwaysOthersOnlyByGroup) {
  EXPECT_TRUE(peer_allowed({.pid = 1, .uid = 0, .gid = 0}, "no-such-group-smd-test"));
  EXPECT_FALSE(peer_allowed({.pid = 1, .uid = 4242424, .gid = 4242424}, "no-such-group-smd-test"));
  // gid 0 is group "root" on Debian: a non-root uid whose primary gid is root's group is a member.
  EXPECT_TRUE(peer_allowed({.pid = 1, .uid = 4242424, .gid = 0}, "root"));
  EXPECT_FALSE(peer_allowed({.pid = 1, .uid = 4242424, .gid = 4242424}, "root"));
}

}  // namespace
}  // namespace smd::control_server_test
