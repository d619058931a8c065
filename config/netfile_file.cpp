#include "config/netfile_file.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "config/text_file.h"
#include "routing/netfile/netfile_writer.h"

namespace smd {

NetfileIncludeReader netfile_file_includes(std::size_t budget_bytes) {
  // Shared by the copies the parser may make of the reader: the budget is one for the whole read.
  auto remaining = std::make_shared<std::size_t>(budget_bytes);
  return [remaining, budget_bytes](const std::string& path) -> Result<std::string> {
    auto text = read_regular_file(path, kMaxNetfileBytes, "netfile");
    if (!text) return text;
    if (text->size() > *remaining) {
      return make_error(ErrorCode::kInvalidInput, "netfile " + path +
                                                      ": the netfile and its includes add up to more than " +
                                                      std::to_string(budget_bytes) + " bytes");
    }
    *remaining -= text->size();
    return text;
  };
}

Result<Topology> read_netfile_file(const std::string& path) {
  auto text = read_regular_file(path, kMaxNetfileBytes, "netfile");
  if (!text) return text.error();
  return parse_netfile(*text, path, netfile_file_includes(kMaxNetfileBytes - text->size()));
}

Status write_netfile_file(const Topology& topo, const std::string& path) {
  // Rendered first: a topology the writer refuses leaves no half-written file behind.
  std::ostringstream text;
  Status st = write_netfile(topo, text);
  if (!st.ok()) return st;
  std::ofstream out(path, std::ios::trunc);
  out << text.str();
  out.flush();
  if (!out) return make_error(ErrorCode::kIo, path + ": cannot write");
  return Ok{};
}

}  // namespace smd
