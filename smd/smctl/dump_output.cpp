#include "smd/smctl/dump_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace smd::smctl {

namespace {

std::string errno_text(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// "" when a regular file or nothing stands at `path`, else what does.
std::string refuse_special(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT ? "" : errno_text("cannot stat", path);
  if (S_ISREG(st.st_mode)) return "";
  const char* kind = S_ISLNK(st.st_mode)    ? "a symbolic link"
                     : S_ISDIR(st.st_mode)  ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "a device node";
  return path + " is " + kind + ", not a regular file; write to a file, or leave -o out for stdout";
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string write_whole_file(const std::string& path, const std::string& text) {
  if (std::string refused = refuse_special(path); !refused.empty()) return refused;
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  ::unlink(tmp.c_str());  // a leftover, or a symlink someone planted: removed, not followed
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return errno_text("cannot create", tmp);
  const bool written = write_all(fd, text);
  const std::string write_error = written ? "" : errno_text("cannot write", tmp);
  if (::close(fd) != 0 && written) {
    ::unlink(tmp.c_str());
    return errno_text("cannot write", tmp);
  }
  if (!written) {
    ::unlink(tmp.c_str());
    return write_error;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string error = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return error;
  }
  return "";
}

}  // namespace smd::smctl
