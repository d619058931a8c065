#include "smd/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace smd {

namespace {

std::string errno_text(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

Status write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::kIo, errno_text("write", path));
    }
    done += static_cast<std::size_t>(n);
  }
  return Ok{};
}

}  // namespace

Status write_file_atomic(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(ErrorCode::kIo, errno_text("create", tmp));
  Status st = write_all(fd, content, tmp);
  if (st.ok() && ::fsync(fd) != 0) st = make_error(ErrorCode::kIo, errno_text("fsync", tmp));
  if (::close(fd) != 0 && st.ok()) st = make_error(ErrorCode::kIo, errno_text("close", tmp));
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Error e = make_error(ErrorCode::kIo, errno_text("rename to", path));
    ::unlink(tmp.c_str());
    return e;
  }
  // The rename is durable only once the directory entry is on disk.
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Ok{};
}

}  // namespace smd
