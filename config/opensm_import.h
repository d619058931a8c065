// An opensm.conf converted into a whole smd policy, for `smd import-opensm-conf`: every option whose value
// differs from OpenSM's default and has a policy key (config/opensm_conf.h) becomes that key, the
// partitions.conf it names becomes the partitions: section, and everything that cannot be carried over is
// listed with the reason. The result is checked by loading it (config/policy_loader.h): a value smd's
// loader refuses (out of smd's range) is moved to the not-carried list with the loader's words, so what is
// written always loads.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "config/opensm_conf.h"
#include "routing/base/status.h"

namespace smd {

/// How the converter reaches the files opensm.conf names (partition_config_file, root_guid_file).
struct OpenSmImportInputs {
  /// Read a file the configuration names; `what` is for messages ("partitions file"). Tests substitute it.
  std::function<Result<std::string>(const std::string& path, const std::string& what)> read_file;
  /// Read this partitions file instead of the one partition_config_file names ("" = the named one).
  std::string partitions_file;
  /// Read this QoS policy file instead of the one qos_policy_file names ("" = the named one).
  std::string qos_policy_file;
  /// Where the converted policy will be written ("" = standard output, taken as the working directory).
  /// The loader takes a relative file path (lfts_file, *_file) from the policy's own folder, so the
  /// conversion is checked as if it stood there: a path that does not resolve from it is not carried.
  std::string policy_path;
};

/// What the conversion made.
struct OpenSmImport {
  std::string yaml;                      ///< a complete policy, with a comment naming each key's source line
  std::vector<std::string> carried;      ///< "FILE:LINE: name value -> key: yaml-value"
  std::vector<std::string> not_carried;  ///< "FILE:LINE: name value: fate: why"
  std::vector<std::string> warnings;     ///< unknown or repeated options, partitions.conf conversion rules
  /// Options the file leaves at OpenSM's default where smd's default differs: "name X -> key: Y" (smd's
  /// is kept; the written policy lists them so the difference is a choice, not a surprise).
  std::vector<std::string> defaults_differ;
  unsigned at_default = 0;               ///< options left at OpenSM's default (smd's default applies)
};

/// Convert `settings` (parsed from `source`). Errors (kInvalidInput, naming the file and line): a
/// partitions.conf that exists but cannot be parsed, or that the policy loader refuses; kIo when the
/// partitions file given in `inputs.partitions_file` cannot be read. A partitions file named by the
/// configuration that does not exist is OpenSM's no-file case: the default partition, and a warning unless
/// the name is OpenSM's default path. The qos-policy.conf (config/qos_policy_conf.h) is read only when the
/// file sets qos TRUE, as OpenSM; the same rules hold for it (no file: no QoS levels).
Result<OpenSmImport> import_opensm_conf(const std::vector<OpenSmSetting>& settings, const std::string& source,
                                        const OpenSmImportInputs& inputs);

}  // namespace smd
