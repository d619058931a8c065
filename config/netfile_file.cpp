#include "config/netfile_file.h"

#include <fstream>
#include <sstream>

#include "config/text_file.h"
#include "routing/netfile/netfile_writer.h"

namespace smd {

NetfileIncludeReader netfile_file_includes() {
  return [](const std::string& path) { return read_regular_file(path, kMaxNetfileBytes, "netfile"); };
}

Result<Topology> read_netfile_file(const std::string& path) {
  auto text = read_regular_file(path, kMaxNetfileBytes, "netfile");
  if (!text) return text.error();
  return parse_netfile(*text, path, netfile_file_includes());
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
