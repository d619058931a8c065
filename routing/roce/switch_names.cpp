#include "routing/roce/switch_names.h"

#include <cstdio>
#include <cstring>
#include <unordered_set>

namespace smd::roce {
namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/// The description as a name: safe bytes, starting and ending with a letter or digit, at most `limit`.
std::string base_name(const std::string& description, std::size_t limit) {
  std::string name;
  for (const char c : description) name += alnum(c) || c == '.' || c == '_' || c == '-' ? c : '_';
  std::size_t first = 0;
  while (first < name.size() && !alnum(name[first])) ++first;
  name.erase(0, first);
  if (name.size() > limit) name.resize(limit);
  while (!name.empty() && !alnum(name.back())) name.pop_back();
  return name.empty() ? "switch" : name;
}

}  // namespace

std::vector<std::string> switch_names(const std::vector<std::string>& descriptions, const std::vector<Guid>& guids) {
  std::vector<std::string> names;
  std::unordered_set<std::string> used;
  for (std::size_t i = 0; i < descriptions.size(); ++i) {
    std::string name = base_name(descriptions[i], kMaxSwitchNameLength);
    if (used.count(name)) {
      char guid[24];
      std::snprintf(guid, sizeof guid, "-%016llx", static_cast<unsigned long long>(i < guids.size() ? guids[i] : 0));
      const std::string suffix = guid;
      name = base_name(descriptions[i], kMaxSwitchNameLength - suffix.size()) + suffix;
      for (std::size_t k = 0; used.count(name); ++k) {
        char extra[48];
        if (k == 0) {
          std::snprintf(extra, sizeof extra, "-%zu", i);
        } else {
          std::snprintf(extra, sizeof extra, "-%zu-%zu", i, k);
        }
        name = base_name(descriptions[i], kMaxSwitchNameLength - suffix.size() - std::strlen(extra));
        name.append(suffix).append(extra);
      }
    }
    used.insert(name);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace smd::roce
