// smctl's client (smd/smctl/smctl_client.h) against a fake daemon that answers one line each: replies that are
// not smd's {"ok": bool, "error": string} shape are refused as malformed, never thrown out of the client.
#include "smd/smctl/smctl_client.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "tests/unit/temp_dir.h"

namespace smd::smctl_client_test {
namespace {

using namespace std::chrono_literals;

/// Listens on a Unix socket and answers the first request line with `reply`, then closes.
class OneReplyServer {
 public:
  OneReplyServer(const std::string& path, std::string reply) : reply_(std::move(reply)) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    ready_ = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 && ::listen(fd_, 1) == 0;
    if (ready_) thread_ = std::thread([this] { serve(); });
  }
  ~OneReplyServer() {
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  bool ready() const { return ready_; }

 private:
  void serve() {
    const int client = ::accept(fd_, nullptr, nullptr);
    if (client < 0) return;
    char c = 0;
    while (::read(client, &c, 1) == 1 && c != '\n') {
    }
    (void)::send(client, reply_.data(), reply_.size(), MSG_NOSIGNAL);
    ::close(client);
  }
  std::string reply_;
  int fd_ = -1;
  bool ready_ = false;
  std::thread thread_;
};

class SmctlClient : public test::TempDirTest {
 protected:
  Result<control::Json> exchange(const std::string& reply, const std::string& name) {
    const std::string path = dir_ + "/" + name;
    OneReplyServer server(path, reply);
    EXPECT_TRUE(server.ready());
    return control::call(path, control::Json{{"cmd", "status"}}, 3s);
  }
};

TEST_F(SmctlClient, RefusesRepliesOfTheWrongShape) {
  int n = 0;
  for (const char* reply : {"{\"ok\":\"yes\"}\n", "{\"ok\":false,\"error\":5}\n", "{\"ok\":false}\n", "[1,2]\n",
                            "{\"result\":{}}\n", "not json\n"}) {
    SCOPED_TRACE(reply);
    const std::string name = "s" + std::to_string(n++);
    auto r = exchange(reply, name);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "malformed response from smd on " + dir_ + "/" + name);
  }
}

TEST_F(SmctlClient, AcceptsSmdsShape) {
  auto ok = exchange("{\"ok\":true,\"result\":{\"state\":\"MASTER\"}}\n", "good");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ((*ok)["result"]["state"], "MASTER");
  auto refused = exchange("{\"ok\":false,\"error\":\"unknown command\"}\n", "refused");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ((*refused)["error"], "unknown command");
}

}  // namespace
}  // namespace smd::smctl_client_test
