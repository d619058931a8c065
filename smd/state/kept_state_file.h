// A state file this process keeps in step with a value (guid2lid, port-fields, ca-order): read at most
// once, and written only when the value differs from what this process last wrote there, or the file has
// gone. A sweep that changes nothing (a repair, a light change) then skips the fsyncs of a rewrite. A file
// that was there but could not be read is the operator's to look at: this process never replaces it.
#pragma once

#include <spdlog/spdlog.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "routing/base/status.h"

namespace smd {

template <typename T>
class KeptStateFile {
 public:
  /// Whether the file was read (or tried) by this process.
  bool loaded() const { return loaded_; }
  /// The file was read and holds `value`: no write is needed while the value stays the same.
  void loaded_as(const T& value) {
    loaded_ = true;
    written_ = value;
  }
  /// The file was read; nothing of it is assumed to be on disk.
  void mark_loaded() { loaded_ = true; }
  /// The file was there but unreadable: never written by this process.
  void refuse() {
    loaded_ = true;
    refused_ = true;
  }
  /// The next save() writes whatever the value (state_dir may have moved).
  void forget_written() { written_.reset(); }

  /// Write `value` to `path` in `dir` by `write` (a Status-returning writer of (path, value)) unless it is
  /// what this process last wrote there and the file still exists, or the file was refused. A failed
  /// write is logged under `what` and tried again by the next save().
  template <typename Write>
  void save(const std::string& dir, const std::string& path, const T& value, Write write, std::string_view what) {
    if (refused_) return;
    std::error_code ec;
    if (written_ == value && std::filesystem::exists(path, ec)) return;
    std::filesystem::create_directories(dir, ec);
    if (Status st = write(path, value); !st.ok()) {
      spdlog::error("{}: {}", what, st.error().message);
      written_.reset();
      return;
    }
    written_ = value;
  }

 private:
  bool loaded_ = false;
  bool refused_ = false;
  std::optional<T> written_;  ///< what this process last wrote (or read) there
};

}  // namespace smd
