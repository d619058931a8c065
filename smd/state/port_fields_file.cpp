#include "smd/state/port_fields_file.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "config/text_file.h"
#include "smd/state/atomic_file.h"

namespace smd {

namespace {

// 32 bytes a port at most: 4 MiB is far beyond a 13,000-port fabric's file.
constexpr std::size_t kMaxPortFieldsBytes = 4u << 20;

template <typename T>
bool number(const std::string& text, int base, T& out) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (base == 16) {
    if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return false;
    first += 2;
  }
  const auto [end, ec] = std::from_chars(first, last, out, base);
  return ec == std::errc() && end == last;
}

}  // namespace

std::string format_port_fields(const AppliedPortFields& fields) {
  std::string out = "# smd port-fields: node GUID, port, then code/echo of each SM-owned PortInfo field\n";
  for (const auto& [key, acks] : fields.ports()) {
    char head[40];
    std::snprintf(head, sizeof head, "0x%016llx %u", static_cast<unsigned long long>(key.node_guid),
                  static_cast<unsigned>(key.port));
    out += head;
    for (const std::optional<FieldAck>& a : acks) {
      out += a ? " " + std::to_string(a->code) + "/" + std::to_string(a->echoed) : std::string(" -");
    }
    out += "\n";
  }
  return out;
}

PortFieldsFile parse_port_fields(const std::string& text) {
  PortFieldsFile file;
  std::istringstream in(text);
  std::string line;
  std::map<PortKey, unsigned> first_line;  // a port listed twice: the first line wins, as in guid2lid
  for (unsigned n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    const std::string where = "line " + std::to_string(n) + ": ";
    PortKey key;
    unsigned port = 0;
    if (w.size() != 2 + kPortFieldCount || !number(w[0], 16, key.node_guid) || !number(w[1], 10, port) || port > 254) {
      file.problems.push_back(where + "expected 0x<GUID> <port> and " + std::to_string(kPortFieldCount) +
                              " code/echo pairs");
      continue;
    }
    key.port = static_cast<PortNum>(port);
    PortFieldAcks acks;
    bool ok = true;
    for (std::size_t f = 0; f < kPortFieldCount && ok; ++f) {
      const std::string& pair = w[2 + f];
      if (pair == "-") continue;
      const std::size_t slash = pair.find('/');
      unsigned code = 0, echoed = 0;
      ok = slash != std::string::npos && number(pair.substr(0, slash), 10, code) &&
           number(pair.substr(slash + 1), 10, echoed) && code <= 255 && echoed <= 255;
      if (ok) acks[f] = FieldAck{static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(echoed)};
    }
    if (!ok) {
      file.problems.push_back(where + "a field is not <code>/<echo> with both 0..255, nor -");
      continue;
    }
    if (auto [at, fresh] = first_line.try_emplace(key, n); !fresh) {
      file.problems.push_back(where + "port " + w[1] + " of " + w[0] + " is already listed at line " +
                              std::to_string(at->second) + "; this line is ignored");
      continue;
    }
    file.fields.restore(key, acks);
  }
  return file;
}

Result<PortFieldsFile> read_port_fields(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return PortFieldsFile{};
  auto text = read_regular_file(path, kMaxPortFieldsBytes, "port-fields file");
  if (!text) return text.error();
  return parse_port_fields(*text);
}

Status write_port_fields(const std::string& path, const AppliedPortFields& fields) {
  return write_file_atomic(path, format_port_fields(fields));
}

}  // namespace smd
