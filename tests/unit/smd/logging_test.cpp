// The log sink of `log.file` (smd/cli/logging.h): a path that would block the daemon at start-up is
// refused with a message, a regular file is appended to.
#include "smd/cli/logging.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/temp_dir.h"

namespace smd {
namespace {

class Logging : public test::TempDirTest {};

TEST_F(Logging, AFifoAsLogFileIsRefusedInsteadOfBlocking) {
  const std::string fifo = dir_ + "/log.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  LogPolicy log;
  log.level = "info";
  log.file = fifo;
  const Status st = setup_logging(log);  // opening the FIFO for writing would wait for a reader forever
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kIo);
  EXPECT_EQ(st.error().message, "log.file: " + fifo + " is a FIFO, not a file smd can append to");
}

TEST_F(Logging, ARegularFileIsAppendedTo) {
  const std::string file = dir_ + "/smd.log";
  std::ofstream(file) << "kept\n";
  LogPolicy log;
  log.level = "info";
  log.file = file;
  const auto before = spdlog::default_logger();
  ASSERT_TRUE(setup_logging(log).ok());
  spdlog::info("a line for the test");
  spdlog::default_logger()->flush();
  spdlog::set_default_logger(before);  // let go of the file; the other tests log where they did
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().rfind("kept\n", 0), 0u);
  EXPECT_NE(text.str().find("a line for the test"), std::string::npos);
}

}  // namespace
}  // namespace smd
