// Where `smctl dump -o FILE` puts the text: FILE replaced whole or left as it was. smctl often runs as
// root, in folders others can write (/tmp): the temporary beside FILE is created new (a planted symlink is
// removed, never followed) and only a regular file or nothing at FILE is replaced, never a device node
// (`-o /dev/null` would have become a regular file), a FIFO, a symlink or a directory.
#pragma once

#include <string>

namespace smd::smctl {

/// Replace `path` with `text` (FILE.tmp-PID written, then renamed over FILE). Returns "" or what went
/// wrong, naming the file ("/dev/null is a device node, not a regular file; write to a file, or leave -o
/// out for stdout"); on an error FILE is untouched and no temporary is left.
std::string write_whole_file(const std::string& path, const std::string& text);

}  // namespace smd::smctl
