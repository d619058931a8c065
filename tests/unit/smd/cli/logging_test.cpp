// The log sink of `log.file` (smd/cli/logging.h): a path that would block the daemon at start-up is
// refused with a message, a regular file is appended to.
#include "smd/cli/logging.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/unit/temp_dir.h"

namespace smd::logging_test {
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

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// logrotate renames the file and sends SIGUSR1: lines before stay in the renamed file, lines after land in
// a new file at log.file. Each line is on disk when the call returns (no flush needed to read it).
TEST_F(Logging, ReopenWritesLaterLinesToANewFileAtThePath) {
  const std::string file = dir_ + "/smd.log";
  const std::string rotated = dir_ + "/smd.log.1";
  LogPolicy log;
  log.level = "info";
  log.file = file;
  const auto before = spdlog::default_logger();
  ASSERT_TRUE(setup_logging(log).ok());
  spdlog::info("before the rotation");
  ASSERT_EQ(::rename(file.c_str(), rotated.c_str()), 0);
  spdlog::info("after the rename, before the reopen");
  const Status st = reopen_log_file();
  spdlog::info("after the reopen");
  spdlog::set_default_logger(before);
  ASSERT_TRUE(st.ok()) << st.error().message;
  const std::string old_text = read_all(rotated);
  const std::string new_text = read_all(file);
  EXPECT_NE(old_text.find("before the rotation"), std::string::npos);
  EXPECT_NE(old_text.find("after the rename, before the reopen"), std::string::npos);
  EXPECT_EQ(old_text.find("after the reopen"), std::string::npos);
  EXPECT_NE(new_text.find("after the reopen"), std::string::npos) << new_text;
  EXPECT_EQ(new_text.find("before the rotation"), std::string::npos);
}

// A path that can no longer be opened (its folder is gone) is an error naming it; logging to stderr
// has nothing to reopen.
TEST_F(Logging, ReopenOfAPathThatCannotBeOpenedSaysWhich) {
  const std::string sub = dir_ + "/logs";
  ASSERT_EQ(::mkdir(sub.c_str(), 0700), 0);
  LogPolicy log;
  log.file = sub + "/smd.log";
  const auto before = spdlog::default_logger();
  ASSERT_TRUE(setup_logging(log).ok());
  ASSERT_EQ(::unlink(log.file.c_str()), 0);
  ASSERT_EQ(::rmdir(sub.c_str()), 0);
  std::ofstream(sub) << "a file where the folder was\n";  // the folder cannot be made again, even by root
  const Status st = reopen_log_file();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kIo);
  EXPECT_EQ(st.error().message.rfind("log.file " + log.file + ": ", 0), 0u) << st.error().message;
  ASSERT_TRUE(setup_logging(LogPolicy{}).ok());
  EXPECT_TRUE(reopen_log_file().ok());
  spdlog::set_default_logger(before);
}

// logrotate's folder is not the daemon's: by SIGUSR1 the path may be a FIFO. Opening it for writing would
// wait for a reader with the daemon's only thread (and every log line behind the sink's lock); the reopen
// refuses it at once instead, with a reader or without, and the lines that follow, the one saying why
// first, reach stderr (the journal) rather than nowhere.
TEST_F(Logging, ReopenOntoAFifoIsRefusedAndLinesGoToStderr) {
  const std::string file = dir_ + "/smd.log";
  LogPolicy log;
  log.level = "info";
  log.file = file;
  const auto before = spdlog::default_logger();
  ASSERT_TRUE(setup_logging(log).ok());
  ASSERT_EQ(::unlink(file.c_str()), 0);
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);

  // With a reader the open would succeed and the log would feed whoever holds the FIFO.
  const int reader = ::open(file.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const Status with_reader = reopen_log_file();
  ::close(reader);
  // Without one the open would block forever; it must fail now.
  const Status without_reader = reopen_log_file();

  const std::string captured = dir_ + "/stderr.txt";
  std::fflush(stderr);
  const int saved = ::dup(2);
  const int out = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(out, 0);
  ::dup2(out, 2);
  spdlog::error("a line after the failed reopen");
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  ::close(out);
  spdlog::set_default_logger(before);

  ASSERT_FALSE(with_reader.ok());
  EXPECT_EQ(with_reader.error().message, "log.file " + file + ": a FIFO, not a file smd can append to");
  ASSERT_FALSE(without_reader.ok());
  EXPECT_EQ(without_reader.error().message, "log.file " + file + ": a FIFO without a reader");
  EXPECT_NE(read_all(captured).find("a line after the failed reopen"), std::string::npos) << read_all(captured);
}

}  // namespace
}  // namespace smd::logging_test
