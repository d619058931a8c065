#include "smd/state/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

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

/// A rename over `path` would silently replace whatever sits there: a device node (/dev/full), a FIFO, an
/// operator's symlink. Only a regular file, or nothing, may be replaced.
Status check_replaceable(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Ok{};
    return make_error(ErrorCode::kIo, errno_text("stat", path));
  }
  if (S_ISREG(st.st_mode)) return Ok{};
  const char* kind = S_ISLNK(st.st_mode)    ? "a symbolic link"
                     : S_ISDIR(st.st_mode)  ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "a device node";
  return make_error(ErrorCode::kIo, path + " is " + kind + ", not a regular file; refusing to replace it");
}

/// Start the temporary afresh: a leftover from a crash is removed, and a symlink planted at `tmp` is not followed.
int create_temporary(const std::string& tmp) {
  ::unlink(tmp.c_str());
  return ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/// fsync the directory holding `path`, so that a rename into it is durable. Best effort.
void sync_parent_dir(const std::string& path) {
  // The rename is durable only once the directory entry is on disk.
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

/// Rename the finished temporary over `path` and make the rename durable; the temporary is removed on error.
Status commit(const std::string& tmp, const std::string& path) {
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Error e = make_error(ErrorCode::kIo, errno_text("rename to", path));
    ::unlink(tmp.c_str());
    return e;
  }
  sync_parent_dir(path);
  return Ok{};
}

/// `content` into `path`.tmp, made afresh after the refusals of check_replaceable; fsynced when `sync`.
/// The temporary is removed on error.
Status fill_temporary(const std::string& path, const std::string& content, bool sync) {
  if (Status st = check_replaceable(path); !st.ok()) return st;
  const std::string tmp = path + ".tmp";
  const int fd = create_temporary(tmp);
  if (fd < 0) return make_error(ErrorCode::kIo, errno_text("create", tmp));
  Status st = write_all(fd, content, tmp);
  if (sync && st.ok() && ::fsync(fd) != 0) st = make_error(ErrorCode::kIo, errno_text("fsync", tmp));
  if (::close(fd) != 0 && st.ok()) st = make_error(ErrorCode::kIo, errno_text("close", tmp));
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

}  // namespace

Status write_file_atomic(const std::string& path, const std::string& content) {
  if (Status st = fill_temporary(path, content, /*sync=*/true); !st.ok()) return st;
  return commit(path + ".tmp", path);
}

Status write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& fill) {
  if (Status st = check_replaceable(path); !st.ok()) return st;
  const std::string tmp = path + ".tmp";
  // Create it exclusively first, so the stream below opens the file made here and nothing planted.
  if (const int fd = create_temporary(tmp); fd < 0) {
    return make_error(ErrorCode::kIo, errno_text("create", tmp));
  } else {
    ::close(fd);
  }
  {
    std::ofstream out(tmp, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!out) return make_error(ErrorCode::kIo, errno_text("create", tmp));
    fill(out);
    out.close();
    if (!out) {
      ::unlink(tmp.c_str());
      return make_error(ErrorCode::kIo, "write " + tmp + ": stream failed (disk full?)");
    }
  }
  // fsync works on any descriptor of the file; the stream above has no descriptor to offer.
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  Status st = Ok{};
  if (fd < 0) {
    st = make_error(ErrorCode::kIo, errno_text("open", tmp));
  } else {
    if (::fsync(fd) != 0) st = make_error(ErrorCode::kIo, errno_text("fsync", tmp));
    ::close(fd);
  }
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  return commit(tmp, path);
}

Status write_temporary(const std::string& path, const std::string& content) {
  return fill_temporary(path, content, /*sync=*/false);
}

void discard_temporary(const std::string& path) { ::unlink((path + ".tmp").c_str()); }

Status commit_temporary(const std::string& path) {
  const std::string tmp = path + ".tmp";
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Error e = make_error(ErrorCode::kIo, errno_text("rename to", path));
    ::unlink(tmp.c_str());
    return e;
  }
  return Ok{};
}

}  // namespace smd
