#include "config/key_path.h"

namespace smd {

std::vector<std::string> split_key_path(std::string_view path) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = path.find('.', begin);
    parts.emplace_back(path.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin));
    if (dot == std::string_view::npos) return parts;
    begin = dot + 1;
  }
}

}  // namespace smd
