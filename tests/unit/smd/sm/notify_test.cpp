// sd_notify wrapper against a test NOTIFY_SOCKET: a Unix datagram socket in a temp dir stands in for
// systemd, and every message is read back exactly.
#include "smd/sm/notify.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace smd::notify_test {
namespace {

class NotifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "smd-notify-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir = tmpl;
    const std::string path = dir + "/notify.socket";
    fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ::setenv("NOTIFY_SOCKET", path.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("NOTIFY_SOCKET");
    ::unsetenv("WATCHDOG_USEC");
    ::unsetenv("WATCHDOG_PID");
    if (fd >= 0) ::close(fd);
    std::filesystem::remove_all(dir);
  }
  // The next datagram, or "<none>" after 2 s.
  std::string receive() const {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 2000) <= 0) return "<none>";
    char buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    return n < 0 ? "<error>" : std::string(buf, static_cast<std::size_t>(n));
  }
  std::string dir;
  int fd = -1;
};

TEST_F(NotifyTest, ReadyCarriesStatus) {
  EXPECT_TRUE(notify::ready("MASTER, 22 nodes"));
  EXPECT_EQ(receive(), "READY=1\nSTATUS=MASTER, 22 nodes");
}

TEST_F(NotifyTest, StatusStoppingWatchdogReloading) {
  EXPECT_TRUE(notify::status("sweeping"));
  EXPECT_EQ(receive(), "STATUS=sweeping");
  EXPECT_TRUE(notify::stopping());
  EXPECT_EQ(receive(), "STOPPING=1");
  EXPECT_TRUE(notify::watchdog());
  EXPECT_EQ(receive(), "WATCHDOG=1");
  EXPECT_TRUE(notify::reloading());
  EXPECT_EQ(receive().rfind("RELOADING=1\nMONOTONIC_USEC=", 0), 0u);
}

TEST_F(NotifyTest, NoSocketMeansNoOp) {
  ::unsetenv("NOTIFY_SOCKET");
  EXPECT_FALSE(notify::ready("x"));
  EXPECT_FALSE(notify::watchdog());
  pollfd p{fd, POLLIN, 0};
  EXPECT_EQ(::poll(&p, 1, 100), 0);  // nothing arrived
}

TEST_F(NotifyTest, WatchdogInterval) {
  EXPECT_EQ(notify::watchdog_interval(), std::nullopt);
  ::setenv("WATCHDOG_USEC", "3000000", 1);
  ::setenv("WATCHDOG_PID", std::to_string(::getpid()).c_str(), 1);
  EXPECT_EQ(notify::watchdog_interval(), std::chrono::microseconds(3000000));
  ::setenv("WATCHDOG_PID", "1", 1);  // armed for another process: not ours
  EXPECT_EQ(notify::watchdog_interval(), std::nullopt);
}

}  // namespace
}  // namespace smd::notify_test
