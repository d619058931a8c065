// Whether two paths a command line names are one file: the guard of every command that writes files it
// also reads or writes twice (smd plan's outputs, the import commands' -o).
#pragma once

#include <string>

namespace smd {

/// True when `a` and `b` (neither empty) name the same file: equal once made absolute and canonical as far
/// as they exist (so "x", "./x" and "dir/../x" agree though the file is not written yet), or, for files that
/// exist, the same file by identity (std::filesystem::equivalent: a hard link, a symlink to it). No error:
/// a path that cannot be resolved compares by its normalised text.
bool same_file(const std::string& a, const std::string& b);

}  // namespace smd
