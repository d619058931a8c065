// split_key_path of config/key_path.h: the map keys a dotted policy key walks.
#include "config/key_path.h"

#include <gtest/gtest.h>

namespace smd::key_path_test {
namespace {

using Parts = std::vector<std::string>;

TEST(KeyPath, SplitsAtEveryDot) {
  EXPECT_EQ(split_key_path("sm.priority"), (Parts{"sm", "priority"}));
  EXPECT_EQ(split_key_path("routing.updn.roots"), (Parts{"routing", "updn", "roots"}));
  EXPECT_EQ(split_key_path("partitions"), (Parts{"partitions"}));
}

TEST(KeyPath, KeepsEmptyParts) {
  EXPECT_EQ(split_key_path(""), (Parts{""}));
  EXPECT_EQ(split_key_path("a..b"), (Parts{"a", "", "b"}));
  EXPECT_EQ(split_key_path(".a."), (Parts{"", "a", ""}));
}

}  // namespace
}  // namespace smd::key_path_test
