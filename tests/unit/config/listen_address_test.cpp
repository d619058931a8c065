// metrics.listen syntax: the forms the daemon can bind, and a message for each form it cannot.
#include "config/listen_address.h"

#include <gtest/gtest.h>

namespace smd::listen_address_test {
namespace {

TEST(ListenAddress, AcceptsIpv4Ipv6AndLocalhost) {
  auto a = parse_listen_address("127.0.0.1:9464");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->host, "127.0.0.1");
  EXPECT_EQ(a->port, 9464u);
  EXPECT_EQ(parse_listen_address("[::1]:80")->host, "::1");
  EXPECT_EQ(parse_listen_address("[fe80::1%lo]:80").ok(), false);  // zone ids are not bindable from a policy
  EXPECT_EQ(parse_listen_address("localhost:0")->host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address("0.0.0.0:65535")->port, 65535u);
}

TEST(ListenAddress, RefusesWhatCannotBeBound) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c :
       {Case{"nohost", "expected host:port"}, Case{"9464", "expected host:port"},
        Case{"127.0.0.1:99999", "port must be 0..65535"}, Case{"127.0.0.1:", "port must be 0..65535"},
        Case{"127.0.0.1:+80", "port must be 0..65535"}, Case{"127.0.0.1:0080x", "port must be 0..65535"},
        Case{"127.0.0.1:000000080", "port must be 0..65535"},
        Case{"example.com:80", "host must be an IP address or localhost"},
        Case{":80", "host must be an IP address or localhost"},
        Case{"[localhost]:80", "host must be an IP address or localhost"},
        Case{"256.1.1.1:80", "host must be an IP address or localhost"}}) {
    auto r = parse_listen_address(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().message, c.message) << c.text;
  }
}

}  // namespace
}  // namespace smd::listen_address_test
