// The socket-server core (smd/control/stream_server.h) under a protocol of its own: a connection that
// writes one greeting and waits for the peer to close. What the core promises is checked from outside,
// with plain sockets: listen errors name the label, the admission callback sees how many are live,
// stop() closes every connection (the peer reads EOF), and a handler queued after the server is
// destroyed touches nothing. The io_context runs in the test thread; every wait is bounded.
#include "smd/control/stream_server.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "tests/unit/temp_dir.h"

namespace smd::control::stream_server_test {
namespace {

using stream = boost::asio::local::stream_protocol;
using namespace std::chrono_literals;

// Greets with "hello N\n" (N = connections live when it was admitted), then waits for EOF.
class Greeter : public ServedConnection {
 public:
  Greeter(stream::socket socket, std::shared_ptr<ConnectionRegistry> registry, std::size_t live)
      : ServedConnection(std::move(registry)),
        socket_(std::move(socket)),
        text_("hello " + std::to_string(live) + "\n") {}
  void begin() override {
    boost::asio::async_write(socket_, boost::asio::buffer(text_), [self = self<Greeter>()](auto ec, std::size_t) {
      if (ec) return self->close();
      self->socket_.async_read_some(boost::asio::buffer(self->byte_), [self](auto, std::size_t) { self->close(); });
    });
  }

 private:
  void shut() override {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }
  stream::socket socket_;
  std::string text_;
  char byte_[1];
};

int connect_to(const std::string& path) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Run `io` until `fd` has `want` bytes or EOF (returns what came; `eof` says which), at most 3 s.
std::string read_some(boost::asio::io_context& io, int fd, std::size_t want, bool& eof) {
  std::string out;
  eof = false;
  const auto deadline = std::chrono::steady_clock::now() + 3s;
  while (out.size() < want && std::chrono::steady_clock::now() < deadline) {
    io.run_for(10ms);
    io.restart();
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) continue;
    char buf[256];
    const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0) {
      eof = true;
      break;
    }
    if (n > 0) out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

class StreamServerTest : public test::TempDirTest {};

struct Rig {
  explicit Rig(std::string socket_path) : path(std::move(socket_path)) {}
  boost::asio::io_context io;
  std::string path;
  std::vector<std::size_t> admitted;  // the `live` each admission saw
  std::size_t cap = 2;
  StreamServer<stream> server{
      io, "test core " + path, [this](stream::socket s, std::size_t live) {
        admitted.push_back(live);
        if (live >= cap) return std::shared_ptr<ServedConnection>();  // dropped: socket closes
        return std::shared_ptr<ServedConnection>(std::make_shared<Greeter>(std::move(s), server.registry(), live));
      }};
};

TEST_F(StreamServerTest, CountsLiveConnectionsAndTurnsAwayOverTheCap) {
  Rig rig(dir_ + "/core.sock");
  ASSERT_TRUE(rig.server.listen(stream::endpoint(rig.path)).ok());
  EXPECT_TRUE(rig.server.listening());
  bool eof = false;
  const int a = connect_to(rig.path), b = connect_to(rig.path), c = connect_to(rig.path);
  ASSERT_GE(a, 0);
  EXPECT_EQ(read_some(rig.io, a, 8, eof), "hello 0\n");
  EXPECT_EQ(read_some(rig.io, b, 8, eof), "hello 1\n");
  // The third saw two live and was refused: the core closed its socket unanswered.
  EXPECT_EQ(read_some(rig.io, c, 8, eof), "");
  EXPECT_TRUE(eof);
  EXPECT_EQ(rig.admitted, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(rig.server.live(), 2u);
  // A peer that closes frees its slot: the next one is admitted with one live.
  ::close(a);
  for (int i = 0; i < 50 && rig.server.live() != 1; ++i) rig.io.run_for(10ms), rig.io.restart();
  EXPECT_EQ(rig.server.live(), 1u);
  const int d = connect_to(rig.path);
  EXPECT_EQ(read_some(rig.io, d, 8, eof), "hello 1\n");
  ::close(b);
  ::close(c);
  ::close(d);
  rig.server.stop();
}

TEST_F(StreamServerTest, StopClosesEveryConnectionAndTheListener) {
  Rig rig(dir_ + "/core.sock");
  ASSERT_TRUE(rig.server.listen(stream::endpoint(rig.path)).ok());
  bool eof = false;
  const int a = connect_to(rig.path);
  EXPECT_EQ(read_some(rig.io, a, 8, eof), "hello 0\n");
  rig.server.stop();
  EXPECT_FALSE(rig.server.listening());
  EXPECT_EQ(rig.server.live(), 0u);
  EXPECT_EQ(rig.server.local_endpoint(), std::nullopt);
  read_some(rig.io, a, 1, eof);
  EXPECT_TRUE(eof);   // the connection was closed by stop(), not by the peer
  rig.server.stop();  // idempotent
  ::close(a);
}

TEST_F(StreamServerTest, ListenErrorsNameTheLabelAndTheStep) {
  Rig rig(dir_ + "/core.sock");
  ASSERT_TRUE(rig.server.listen(stream::endpoint(rig.path)).ok());
  StreamServer<stream> second{rig.io, "second " + rig.path, [](stream::socket, std::size_t) { return nullptr; }};
  const Status st = second.listen(stream::endpoint(rig.path));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kIo);
  EXPECT_EQ(st.error().message.rfind("second " + rig.path + ": bind: ", 0), 0u) << st.error().message;
  EXPECT_FALSE(second.listening());
  rig.server.stop();
}

TEST_F(StreamServerTest, HandlersQueuedAfterTheServerIsGoneTouchNothing) {
  boost::asio::io_context io;
  const std::string path = dir_ + "/gone.sock";
  int admitted = 0;
  {
    StreamServer<stream> server{io, "gone", [&](stream::socket, std::size_t) {
                                  ++admitted;
                                  return nullptr;
                                }};
    ASSERT_TRUE(server.listen(stream::endpoint(path)).ok());
  }  // destroyed with its accept still queued: the handler runs with operation_aborted
  io.run_for(50ms);
  EXPECT_EQ(admitted, 0);
}

}  // namespace
}  // namespace smd::control::stream_server_test
