#include "smd/state/state_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "config/text_file.h"

namespace smd {

namespace {

Error io_error(const std::string& path, const std::string& what) {
  return make_error(ErrorCode::kIo, "sm.state_dir " + path + ": " + what);
}

}  // namespace

Status prepare_state_dir(const std::string& path) {
  if (path.empty()) return io_error(path, "empty path");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return make_error(ErrorCode::kIo, "sm.state_dir " + path + " is " + file_kind(st.st_mode) + ", not a directory");
    }
  } else if (errno != ENOENT) {
    return io_error(path, std::strerror(errno));
  } else {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) return io_error(path, "cannot create it: " + ec.message());
  }
  // access(2) answers for the real user, which is who runs smd; a read-only mount says EROFS here.
  if (::access(path.c_str(), W_OK | X_OK) != 0)
    return io_error(path, std::string("not writable: ") + std::strerror(errno));
  return Ok{};
}

}  // namespace smd
