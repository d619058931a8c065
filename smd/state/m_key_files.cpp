#include "smd/state/m_key_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstdio>

#include "config/text_file.h"
#include "routing/base/hex_text.h"
#include "smd/state/state_file_lines.h"

namespace smd {

namespace {

bool parse_hex64(std::string_view token, std::uint64_t& out) {
  if (token.size() < 3 || token.size() > 18 || token[0] != '0' || (token[1] != 'x' && token[1] != 'X')) return false;
  auto [ptr, ec] = std::from_chars(token.data() + 2, token.data() + token.size(), out, 16);
  return ec == std::errc{} && ptr == token.data() + token.size();
}

bool parse_port(std::string_view token, PortNum& out) {
  unsigned v = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v, 10);
  if (ec != std::errc{} || ptr != token.data() + token.size() || v > 254) return false;
  out = static_cast<PortNum>(v);
  return true;
}

bool parse_kind(std::string_view token, bool& is_switch) {
  if (token != "switch" && token != "ca") return false;
  is_switch = token == "switch";
  return true;
}

template <typename T, typename P>
Result<MKeyFileLoad<T>> read_file(const std::string& path, const char* what, P parse) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return MKeyFileLoad<T>{};
  auto text = read_regular_file(path, kMaxGuid2LidBytes, what);
  if (!text) return text.error();
  return parse(*text, path);
}

}  // namespace

MKeyFileLoad<Guid2MKey> parse_guid2mkey(std::string_view text, const std::string& name) {
  MKeyFileLoad<Guid2MKey> load;
  for_each_state_line(text, name, 7, [&](const std::vector<std::string_view>& f, const std::string& where, unsigned) {
    std::uint64_t guid = 0, key = 0;
    if (f.size() != 2 || !parse_hex64(f[0], guid) || !parse_hex64(f[1], key)) {
      load.problems.push_back(where + "expected '0xPORTGUID 0xMKEY'");
    } else if (!load.entries.emplace(guid, key).second) {
      load.problems.push_back(where + "GUID " + std::string(f[0]) + " listed twice; first entry kept");
    }
  });
  return load;
}

std::string format_guid2mkey(const Guid2MKey& keys) {
  std::string text;
  for (const auto& [guid, key] : keys) text += hex64_text(guid) + " " + hex64_text(key) + "\n";
  return text;
}

MKeyFileLoad<MKeyNeighbors> parse_neighbors(std::string_view text, const std::string& name) {
  MKeyFileLoad<MKeyNeighbors> load;
  for_each_state_line(text, name, 7, [&](const std::vector<std::string_view>& f, const std::string& where, unsigned) {
    MKeyHop hop;
    if (f[0] == "sm") {
      if (f.size() != 5 || !parse_hex64(f[1], hop.node) || !parse_port(f[2], hop.port) ||
          !parse_hex64(f[3], hop.key_port) || !parse_kind(f[4], hop.is_switch)) {
        load.problems.push_back(where + "expected 'sm 0xNODEGUID PORT 0xKEYPORTGUID switch|ca'");
      } else if (load.entries.sm.node != 0) {
        load.problems.push_back(where + "a second 'sm' line; the first kept");
      } else {
        load.entries.sm = hop;
      }
      return;
    }
    Guid node = 0;
    PortNum port = 0;
    if (f.size() != 6 || !parse_hex64(f[0], node) || !parse_port(f[1], port) || !parse_hex64(f[2], hop.node) ||
        !parse_port(f[3], hop.port) || !parse_hex64(f[4], hop.key_port) || !parse_kind(f[5], hop.is_switch)) {
      load.problems.push_back(where + "expected '0xNODEGUID PORT 0xPEERNODEGUID PEERPORT 0xPEERKEYPORTGUID switch|ca'");
    } else if (!load.entries.links.emplace(std::pair{node, port}, hop).second) {
      load.problems.push_back(where + "port " + std::string(f[1]) + " of " + std::string(f[0]) +
                              " listed twice; first entry kept");
    }
  });
  return load;
}

std::string format_neighbors(const MKeyNeighbors& n) {
  auto kind = [](const MKeyHop& h) { return h.is_switch ? "switch" : "ca"; };
  std::string text;
  if (n.sm.node != 0) {
    text += "sm " + hex64_text(n.sm.node) + " " + std::to_string(n.sm.port) + " " + hex64_text(n.sm.key_port) + " " +
            kind(n.sm) + "\n";
  }
  for (const auto& [from, to] : n.links) {
    text += hex64_text(from.first) + " " + std::to_string(from.second) + " " + hex64_text(to.node) + " " +
            std::to_string(to.port) + " " + hex64_text(to.key_port) + " " + kind(to) + "\n";
  }
  return text;
}

Result<MKeyFileLoad<Guid2MKey>> read_guid2mkey(const std::string& path) {
  return read_file<Guid2MKey>(path, "guid2mkey file", parse_guid2mkey);
}

Result<MKeyFileLoad<MKeyNeighbors>> read_neighbors(const std::string& path) {
  return read_file<MKeyNeighbors>(path, "neighbors file", parse_neighbors);
}

}  // namespace smd
