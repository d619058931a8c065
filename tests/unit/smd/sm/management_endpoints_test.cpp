// ManagementEndpoints (smd/sm/management_endpoints.h): both endpoints start and stop together, and one that
// cannot start stays off without taking the other down.
#include "smd/sm/management_endpoints.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <boost/asio/ip/tcp.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/unit/smd/null_control.h"

namespace smd::management_endpoints_test {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "smd-endpoints-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

/// The port of "host:port" (0 when there is none).
unsigned port_of(const std::string& address) {
  const auto colon = address.rfind(':');
  return colon == std::string::npos ? 0 : static_cast<unsigned>(std::stoul(address.substr(colon + 1)));
}

Policy policy_in(const TempDir& dir) {
  Policy p;
  p.control.socket = (dir.path / "control.socket").string();
  p.metrics.enabled = true;
  p.metrics.listen = "127.0.0.1:0";
  return p;
}

TEST(ManagementEndpoints, BothServeUntilStopped) {
  TempDir dir;
  boost::asio::io_context io;
  test::NullControl control;
  const Policy policy = policy_in(dir);
  ManagementEndpoints endpoints;
  endpoints.start(io, control, policy, [] { return std::shared_ptr<const FabricSnapshot>(); });
  EXPECT_TRUE(endpoints.control_serving());
  EXPECT_TRUE(fs::is_socket(policy.control.socket));
  const std::string address = endpoints.metrics_address();
  ASSERT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  const unsigned port = port_of(address);
  ASSERT_NE(port, 0u);  // port 0 resolved to the one bound
  boost::asio::ip::tcp::socket client(io);
  boost::system::error_code ec;
  client.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)}, ec);
  EXPECT_FALSE(ec) << ec.message();
  client.close();
  endpoints.stop();
  EXPECT_EQ(endpoints.metrics_address(), "");
}

TEST(ManagementEndpoints, AControlSocketThatCannotBeMadeLeavesMetricsServing) {
  TempDir dir;
  std::ofstream(dir.path / "file") << "not a directory\n";
  boost::asio::io_context io;
  test::NullControl control;
  Policy policy = policy_in(dir);
  policy.control.socket = (dir.path / "file" / "control.socket").string();
  ManagementEndpoints endpoints;
  endpoints.start(io, control, policy, [] { return std::shared_ptr<const FabricSnapshot>(); });
  EXPECT_FALSE(endpoints.control_serving());
  EXPECT_NE(port_of(endpoints.metrics_address()), 0u);
  endpoints.stop();
}

TEST(ManagementEndpoints, MetricsOffMeansNoAddress) {
  TempDir dir;
  boost::asio::io_context io;
  test::NullControl control;
  Policy policy = policy_in(dir);
  policy.metrics.enabled = false;
  ManagementEndpoints endpoints;
  endpoints.start(io, control, policy, [] { return std::shared_ptr<const FabricSnapshot>(); });
  EXPECT_TRUE(endpoints.control_serving());
  EXPECT_EQ(endpoints.metrics_address(), "");
  endpoints.stop();
}

}  // namespace
}  // namespace smd::management_endpoints_test
