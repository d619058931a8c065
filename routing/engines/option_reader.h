// OptionReader: how an engine's factory reads its own policy section (routing.<engine>) without knowing
// YAML. config/ implements it over its located YAML reader (config/engine_option_reader.h), so routing/
// stays free of yaml-cpp and every problem is still reported at the key's file:line:column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// One entry of a GUID-to-id map (routing.updn.ids): the switch and the id that replaces its GUID where
/// updn orders switches of equal rank (OpenSM's ids_guid_file).
struct GuidId {
  Guid guid = 0;
  std::uint64_t id = 0;
};

/// Typed reads of one section's keys. `key` is relative to the section ("roots"); errors name the full
/// dotted path ("routing.updn.roots"). A key that is absent leaves `out` untouched and reads as true. A key
/// that is present but wrong is reported at its value's file:line:column, leaves `out` untouched and
/// reads as false. Keys nobody reads are reported as unknown by the caller after the factory returns.
class OptionReader {
 public:
  virtual ~OptionReader() = default;

  /// A sequence of non-zero, distinct GUIDs (decimal or 0x hex); errors name the element ("roots[2]").
  virtual bool read_guid_list(std::string_view key, std::vector<Guid>& out) = 0;
  /// A path to a file of GUIDs in OpenSM's format (one a line, '#' comments; config/guid_list_file.h),
  /// read when the policy loads; "" = no file. A problem inside the file is reported at the key's place with the file's
  /// own "FILE:line:column" in the message, so both places are named.
  virtual bool read_guid_list_file(std::string_view key, std::vector<Guid>& out) = 0;
  /// A path to a GUID-to-id file in OpenSM's ids_guid_file format ("<guid> <id>" a line), read likewise.
  virtual bool read_guid_id_file(std::string_view key, std::vector<GuidId>& out) = 0;
  /// A mapping of distinct non-zero GUIDs to unsigned ids ({0x...: 3}); errors name the entry.
  virtual bool read_guid_id_map(std::string_view key, std::vector<GuidId>& out) = 0;
  /// true or false.
  virtual bool read_bool(std::string_view key, bool& out) = 0;
  /// An integer in lo..hi (decimal or 0x hex).
  virtual bool read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out) = 0;
  /// A file an engine takes its input from (routing.file.lfts_file): `path` as the policy writes it,
  /// `resolved` the path read (a relative one is taken from the policy file's folder), `text` all of it.
  struct File {
    std::string path;
    std::string resolved;
    std::string text;
  };
  /// A path to a regular file of at most `max_bytes`, read whole when the policy loads; "" reads as absent.
  /// A file that cannot be opened or read, is not a regular file or is larger is reported at the key.
  virtual bool read_file(std::string_view key, std::size_t max_bytes, File& out) = 0;
  /// Report a problem no single read can see (two keys that contradict each other) at `key`'s place, as
  /// "file:line:column: section.key: message"; at the section's own place when `key` is absent.
  virtual void fail(std::string_view key, const std::string& message) = 0;

  /// OpenSM keeps its routing inputs in files, smd's policy inline as well: `key` (read_guid_list) or
  /// `key`_file (read_guid_list_file) into `out`; both at once is an error at the file key. Both are read
  /// even when the first is wrong, so the earliest problem in the file is reported.
  bool read_guid_list_or_file(std::string_view key, std::vector<Guid>& out) {
    return read_inline_or_file(key, out, &OptionReader::read_guid_list, &OptionReader::read_guid_list_file);
  }
  /// The same for a GUID-to-id map (read_guid_id_map, or read_guid_id_file at `key`_file).
  bool read_guid_id_map_or_file(std::string_view key, std::vector<GuidId>& out) {
    return read_inline_or_file(key, out, &OptionReader::read_guid_id_map, &OptionReader::read_guid_id_file);
  }

 private:
  template <class T>
  using ListRead = bool (OptionReader::*)(std::string_view, std::vector<T>&);

  template <class T>
  bool read_inline_or_file(std::string_view key, std::vector<T>& out, ListRead<T> read_inline,
                           ListRead<T> read_listed_file) {
    const std::string file_key = std::string(key) + "_file";
    std::vector<T> inline_list;
    std::vector<T> from_file;
    const bool inline_ok = (this->*read_inline)(key, inline_list);
    const bool file_ok = (this->*read_listed_file)(file_key, from_file);
    if (!inline_ok || !file_ok) return false;
    if (!inline_list.empty() && !from_file.empty()) {
      fail(file_key, "give " + std::string(key) + " or " + file_key + ", not both");
      return false;
    }
    out = inline_list.empty() ? std::move(from_file) : std::move(inline_list);
    return true;
  }
};

}  // namespace smd
