// prepare_state_dir: sm.state_dir made when missing, refused when something other than a directory
// stands there (smd then exits 2 before sending anything), with the path and the kind in the message.
#include "smd/state/state_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/unit/temp_dir.h"

namespace smd::state_dir_test {
namespace {

namespace fs = std::filesystem;

class StateDir : public test::TempDirTest {};

TEST_F(StateDir, MissingDirectoriesAreMadeAndAnExistingOneIsKept) {
  const std::string nested = dir_ + "/a/b/state";
  ASSERT_TRUE(prepare_state_dir(nested).ok());
  EXPECT_TRUE(fs::is_directory(nested));
  std::ofstream(nested + "/guid2lid") << "kept\n";
  ASSERT_TRUE(prepare_state_dir(nested).ok());
  EXPECT_TRUE(fs::exists(nested + "/guid2lid"));
}

TEST_F(StateDir, AnythingButADirectoryIsRefusedByKind) {
  const std::string file = dir_ + "/state";
  std::ofstream(file) << "x";
  auto st = prepare_state_dir(file);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "sm.state_dir " + file + " is a regular file, not a directory");
  auto dev = prepare_state_dir("/dev/null");
  ASSERT_FALSE(dev.ok());
  EXPECT_EQ(dev.error().message, "sm.state_dir /dev/null is a character device, not a directory");
  auto below_a_file = prepare_state_dir(file + "/sub");
  ASSERT_FALSE(below_a_file.ok());
  EXPECT_EQ(below_a_file.error().message.rfind("sm.state_dir " + file + "/sub: ", 0), 0u)
      << below_a_file.error().message;
  EXPECT_FALSE(prepare_state_dir("").ok());
}

}  // namespace
}  // namespace smd::state_dir_test
