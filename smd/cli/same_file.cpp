#include "smd/cli/same_file.h"

#include <filesystem>
#include <system_error>

namespace smd {
namespace {

/// Absolute first: weakly_canonical leaves a relative name whose first element does not exist as it is,
/// so "x" and "./x" would compare unequal.
std::filesystem::path resolved(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return std::filesystem::path(path).lexically_normal();
  auto c = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : c;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  std::error_code ec;
  return resolved(a) == resolved(b) || (std::filesystem::equivalent(a, b, ec) && !ec);
}

}  // namespace smd
