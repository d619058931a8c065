// Dotted policy key paths ("routing.updn.roots") as the list of map keys they walk, for the writers that
// build or search YAML by key (smd config --effective, smd import-opensm-conf).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace smd {

/// "a.b.c" -> {"a", "b", "c"}; empty parts are kept ("a..b" -> {"a", "", "b"}), "" -> {""}.
std::vector<std::string> split_key_path(std::string_view path);

}  // namespace smd
