// A gtest fixture that gives each test a fresh private directory (mkdtemp under the system temp dir) in
// dir_, removed with everything in it after the test: for tests of code that reads and writes files.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace smd::test {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "smd-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr) << "mkdtemp " << tmpl;
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }
  /// Writes `text` to dir_/`name`, mode 0644 whatever the umask (readers refuse group- or world-writable
  /// policy files); returns the path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    ::chmod(path.c_str(), 0644);
    return path;
  }
  std::string dir_;
};

}  // namespace smd::test
