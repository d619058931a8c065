// OpenSM's opensm.conf (the file `opensm -c FILE` writes and `opensm -F FILE` reads) as settings, and the
// table of every option OpenSM 3.3.23 knows with what smd makes of it. The table is the one place that says
// which OpenSM option maps to which policy key: `smd import-opensm-conf` converts with it, and
// docs/opensm-options.md is its printed form (a test keeps the two equal and checks it against `opensm -c`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"

namespace smd {

/// One `name value` line of opensm.conf. OpenSM reads the value as the rest of the line up to a '#' (some
/// values hold spaces: `cc_ca_cong_setting_ccti_timer 0 0`), without one pair of quotes around it;
/// "(null)" is its word for an unset string.
struct OpenSmSetting {
  std::string name;
  std::string value;  ///< trimmed; may be empty
  int line = 0;       ///< 1-based
  int column = 0;     ///< 1-based column of the value (of the name when the value is empty)
};

/// Parse opensm.conf text as OpenSM 3.3.23 does: one setting per line, everything from a '#' on is a comment
/// (also after a value), blank lines skipped, the name and value separated by blanks, quotes around the
/// whole value removed. Errors (kInvalidInput "source:line:column: ..."): a NUL byte or other control
/// character, a UTF-8 byte-order mark at the start, a line over 1022 characters (OpenSM would read its tail as another line), a name that is not
/// [a-z0-9_]+ (OpenSM's option names are all of that form). An option given
/// twice is kept twice (the last one wins, as in OpenSM; the importer warns).
Result<std::vector<OpenSmSetting>> parse_opensm_conf(std::string_view text, const std::string& source_name);

/// What smd makes of an OpenSM option.
enum class OpenSmFate {
  kEquivalent,  ///< a policy key with the same meaning: converted
  kPartial,     ///< a policy key covers part of it, or smd behaves so without a key: noted, converted when a key does
  kBuiltIn,     ///< no key: smd always behaves one way (the note says which); another value is noted
  kMissing,     ///< no counterpart yet: a non-default value is noted
  kNotApplicable,  ///< about OpenSM's process (daemon, single_thread, ...), meaningless for smd
};

/// How a value is converted to the policy key's YAML value.
enum class OpenSmConversion {
  kNone,         ///< not converted (fates other than kEquivalent/kPartial, or a note only)
  kNumber,       ///< decimal or 0x hex, written in decimal
  kHex64,        ///< a 64-bit GUID or key, written as 0x%016x
  kBool,         ///< TRUE/FALSE (any case, or 1/0)
  kNotBool,      ///< TRUE/FALSE written as the opposite (no_clients_rereg TRUE -> sm.client_reregister: false)
  kString,       ///< a path or word, written quoted; "(null)" = unset
  kMsToSeconds,  ///< milliseconds -> whole seconds, rounded up, at least 1
  kEngines,      ///< routing_engine: comma list, names smd does not know dropped, minhop appended as OpenSM falls back to it
  kLogFlags,     ///< log_flags bit mask -> log.level
  kPartEnforce,  ///< part_enforce: both, in, out, off
  kNoEnforcement,   ///< no_partition_enforcement TRUE -> partitions.enforcement off
  kPartitionsFile,  ///< partition_config_file: the file is read and becomes the partitions: section
  kRootGuidFile,    ///< root_guid_file: GUIDs, one per line, become routing.updn.roots and routing.ftree.roots
  kRoutingOrderFile,  ///< guid_routing_order_file: the path becomes minhop's, updn's and dnup's guid_routing_order_file
  kTorusConfig,  ///< torus_config: routing.torus_2qos.config_file when routing_engine names torus-2QoS
  kHighLimit,       ///< qos_*high_limit: -1 = unset, else 0..255
  kQosPolicyFile,   ///< qos_policy_file: read when qos is TRUE; its lists become qos.port_groups/levels/rules
  kPerSl,           ///< cc_ca_cong_setting_*: `SL value` lines, each kept (not only the last), -> a 16-value list
};

/// One row of the table.
struct OpenSmOption {
  std::string_view name;            ///< as opensm.conf spells it
  std::string_view opensm_default;  ///< as `opensm -c` writes it (Debian's OpenSM 3.3.23)
  OpenSmFate fate;
  OpenSmConversion conversion;
  std::string_view smd_key;  ///< dotted policy key path ("sm.priority"); "" when none
  std::string_view note;     ///< what differs, or why there is no key; "" when nothing needs saying
  /// For an option without a key: the value smd always behaves as, when that is not OpenSM's default
  /// (honor_guid2lid_file TRUE); a setting of this value is carried over by doing nothing. "" = the default.
  std::string_view smd_value = {};
  /// The policy key's default when it differs from what OpenSM's default means ("" = the same), as the
  /// policy writes it: the importer lists these, since an option a site never set still changes.
  std::string_view smd_default = {};
};

/// Every option of OpenSM 3.3.23's opensm.conf, in `opensm -c` order (160 rows).
const std::vector<OpenSmOption>& opensm_options();

/// The row for `name`, or null for a name OpenSM 3.3.23 does not know.
const OpenSmOption* find_opensm_option(std::string_view name);

/// "equivalent", "partial", "built in", "missing", "not applicable".
std::string_view to_string(OpenSmFate fate);

}  // namespace smd
