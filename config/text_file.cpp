#include "config/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace smd {

const char* file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

namespace {

// Closes the descriptor on every return path.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, const std::string& what) {
  const std::string name = what + " " + path;
  const auto fail = [&](const std::string& why) {
    return make_error(ErrorCode::kIo, "cannot read " + name + ": " + why);
  };
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat can refuse it.
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return make_error(ErrorCode::kIo, "cannot open " + name + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail(std::string("it is ") + file_kind(st.st_mode) + ", not a regular file");
  const std::string too_big = "larger than " + std::to_string(max_bytes) + " bytes";
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return fail(too_big);
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::strerror(errno));
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) return fail(too_big);
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace smd
