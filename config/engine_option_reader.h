// The routing engines' OptionReader (routing/engines/option_reader.h) over one YAML mapping of the policy:
// how an engine's factory reads routing.<engine> with the same messages and file:line:column as every
// other section of the policy.
#pragma once

#include "config/yaml_fields.h"
#include "routing/engines/option_reader.h"

namespace smd {

/// Reads the keys of `section` (errors recorded in `diag`, which must be the one `section` reports to).
/// Both must outlive the reader. The caller calls section.finish() afterwards for unknown keys.
class MapOptionReader final : public OptionReader {
 public:
  MapOptionReader(MapReader& section, Diagnostics& diag) : section_(section), diag_(diag) {}

  bool read_guid_list(std::string_view key, std::vector<Guid>& out) override;
  bool read_guid_list_file(std::string_view key, std::vector<Guid>& out) override;
  bool read_guid_id_file(std::string_view key, std::vector<GuidId>& out) override;
  bool read_guid_id_map(std::string_view key, std::vector<GuidId>& out) override;
  bool read_bool(std::string_view key, bool& out) override;
  bool read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out) override;
  bool read_file(std::string_view key, std::size_t max_bytes, File& out) override;
  void fail(std::string_view key, const std::string& message) override;

 private:
  /// True when `read` recorded no problem.
  template <class Read>
  bool clean(Read&& read) {
    const std::size_t before = diag_.failures();
    read();
    return diag_.failures() == before;
  }

  MapReader& section_;
  Diagnostics& diag_;
};

}  // namespace smd
