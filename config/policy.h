// Policy: the operator's YAML settings as validated, typed values (see config/smd.yaml for every key).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/cc_policy.h"
#include "config/node_name_map.h"
#include "routing/base/ids.h"
#include "routing/engines/engine_options.h"
#include "routing/partitions/partition_spec.h"
#include "routing/qos/qos_spec.h"

namespace smd {

/// sm.sm_key when the policy names none: OpenSM's default (OSM_DEFAULT_SM_KEY, `sm_key 0x1` in opensm.conf),
/// so smd and OpenSM on their default policies trust each other's SMInfo and elect exactly one master.
/// The SM_Key is no secret at this value; a subnet that wants SMInfo authenticated sets its own on every SM.
inline constexpr std::uint64_t kDefaultSmKey = 1;

struct SmPolicy {
  std::string state_dir = "/var/lib/smd";               ///< sm.state_dir: guid2lid, reports, plans
  std::string ca;                                       ///< sm.ca: umad CA name ("" = first CA with an active port)
  unsigned port = 0;                                    ///< sm.port: port number on that CA (0 = first usable)
  Guid port_guid = 0;                                   ///< sm.port_guid: select the SM port by GUID instead
  unsigned priority = 0;                                ///< sm.priority: SMInfo priority 0..15
  std::uint64_t sm_key = kDefaultSmKey;                 ///< sm.sm_key (1, as OpenSM: the two agree)
  std::uint64_t subnet_prefix = 0xfe80000000000000ULL;  ///< sm.subnet_prefix
  unsigned sweep_interval_s = 10;                       ///< sm.sweep_interval (seconds; 0 = no light sweeps)
  unsigned max_resweeps = 3;                            ///< sm.max_resweeps: bring-up re-sweeps after lost SMPs
  unsigned poll_interval_s = 2;  ///< sm.poll_interval: a standby polls the master's SMInfo (seconds)
  unsigned poll_retries = 3;     ///< sm.poll_retries: failed polls before a standby takes over
  /// sm.node_name_map: the node-name map file ("" = none), as written in the policy; read at every load
  /// into Policy::node_names (config/node_name_map.h).
  std::string node_name_map;
  /// sm.client_reregister: set ClientReregister in an endport's PortInfo when this SM first configures it
  /// as master (false = OpenSM's no_clients_rereg: clients keep their SA registrations as they are)
  bool client_reregister = true;
  /// sm.multicast: program MFTs and tell SA clients UD multicast is supported (false = OpenSM's
  /// disable_multicast: no MFT is written and ClassPortInfo clears IsUDMulticastSupported)
  bool multicast = true;
};

/// routing.repair: what a heavy sweep programs when the fabric only lost links or nodes.
enum class RepairMode {
  kMinimal,  ///< keep every (switch, LID) route that still delivers (routing/verify/repair.h)
  kFull,     ///< always program the engine's fresh tables
};

/// The YAML spelling of `mode`: "minimal" or "full".
std::string_view repair_mode_name(RepairMode mode);

struct RoutingPolicy {
  std::vector<std::string> engines = {"ftree", "updn", "minhop"};  ///< routing.engines: chain, first success wins
  RoutingOptions options;                                          ///< routing.adaptive and routing.<engine>
  RepairMode repair = RepairMode::kMinimal;                        ///< routing.repair
};

struct LidPolicy {
  unsigned lmc = 0;  ///< lid.lmc: 0..7, each CA port gets 2^lmc LIDs
};

struct MadPolicy {
  unsigned window = 32;       ///< mad.window: outstanding SMPs, 1..64
  unsigned timeout_ms = 100;  ///< mad.timeout_ms: per attempt, 1..60000
  unsigned retries = 3;       ///< mad.retries: re-sends after a timeout, 0..20
};

struct LogPolicy {
  std::string level = "info";  ///< log.level: trace, debug, info, warn, error, critical, off
  std::string file;            ///< log.file: "" = stderr
};

struct ControlPolicy {
  std::string socket = "/run/smd/control.socket";  ///< control.socket: Unix socket smctl talks to
  unsigned mode = 0660;                            ///< control.mode: socket file permissions
};

struct MetricsPolicy {
  std::string listen = "127.0.0.1:9464";  ///< metrics.listen: host:port of the Prometheus endpoint
  bool enabled = true;                    ///< metrics.enabled
};

/// Management key protection (IBA 14.2.4): the M_Key smd writes into the PortInfo of every port it
/// configures and then carries in every SMP.
struct SecurityPolicy {
  std::uint64_t m_key = 0;             ///< security.m_key: 0 = no M_Key
  unsigned m_key_protect = 0;          ///< security.m_key_protect: MKeyProtectBits 0..3 (needs m_key)
  unsigned m_key_lease_period_s = 60;  ///< security.m_key_lease_period: seconds, 0 = never expires
  /// security.m_key_per_port: each endport gets a key derived from m_key and its port GUID (OpenSM's
  /// m_key_lookup), remembered in state_dir/guid2mkey and state_dir/neighbors; false = m_key on every port.
  bool m_key_per_port = false;
};

/// ports: the PortInfo (IBA 14.2.5.6) and SwitchInfo (14.2.5.4) fields the SM owns beyond addressing,
/// with OpenSM 3.3.23's option names and defaults. Times are codes: 4.096 us * 2^code. "Leaf" values go to
/// switch ports facing a CA or router; the others to switch-to-switch ports. Reloadable on SIGHUP.
struct PortsPolicy {
  unsigned subnet_timeout = 18;                 ///< SubnetTimeOut of every endport, 0..31
  unsigned head_of_queue_lifetime = 0x12;       ///< HOQLife, switch-to-switch ports, 0..20 (20: infinite)
  unsigned leaf_head_of_queue_lifetime = 0x10;  ///< HOQLife, switch ports facing a CA or router, 0..20
  unsigned vl_stall_count = 7;                  ///< VLStallCount, switch-to-switch ports, 1..7
  unsigned leaf_vl_stall_count = 7;             ///< VLStallCount, switch ports facing a CA or router, 1..7
  unsigned local_phy_errors_threshold = 8;      ///< LocalPhyErrors (trap 129 threshold), 0..15
  unsigned overrun_errors_threshold = 8;        ///< OverrunErrors (trap 130 threshold), 0..15
  unsigned sm_sl = 0;                           ///< MasterSMSL of every endport, 0..15
  unsigned packet_life_time = 0x12;             ///< SwitchInfo LifeTimeValue, 0..20 (20: infinite)
  /// LinkWidthEnabled: 0 leave as is, 1..31 a width mask (1x 1, 4x 2, 8x 4, 12x 8, 2x 16), 255 supported.
  unsigned force_link_width = 255;
  /// LinkSpeedEnabled: 0 leave as is, 1..7 a speed mask (SDR 1, DDR 2, QDR 4), 15 supported.
  unsigned force_link_speed = 15;
  /// LinkSpeedExtEnabled: 0 leave as is, 1..15 a mask (FDR 1, EDR 2, HDR 4, NDR 8), 30 extended speeds
  /// off, 31 supported; written only where both ends of the link support extended speeds. XDR's own
  /// enable (LinkSpeedExtEnabled2) is left as the port has it.
  unsigned force_link_speed_ext = 31;
};

/// The RoCEv2 route plan (docs/roce.md) the daemon derives from every routed topology. Written off the
/// sweep's critical path (on a background thread at idle CPU priority, queued once the sweep has routed),
/// so both default on.
struct RocePolicy {
  bool export_plan = true;  ///< roce.export: state_dir/roce-plan.json (what `smctl export roce` serves)
  bool frr = true;          ///< roce.frr: state_dir/frr/<switch>/frr.conf, one per switch
};

/// The Subnet Administrator (IBA 15): who may ask it what, and what it promises in its answers.
struct SaPolicy {
  bool enabled = true;               ///< sa.enabled: answer SA queries (class 0x03) as master
  std::uint64_t key = 1;             ///< sa.key: SM_Key that makes a request trusted (OpenSM's default sa_key)
  unsigned packet_lifetime = 0x12;   ///< sa.packet_lifetime: PathRecord PacketLifeTime, IBA code 0..63
  unsigned queue_depth = 4096;       ///< sa.queue_depth: requests waiting for the SA thread, 16..1000000
  unsigned report_retries = 3;       ///< sa.report_retries: Report re-sends before a subscription is dropped
  unsigned report_timeout_ms = 500;  ///< sa.report_timeout_ms: wait for a ReportResp, 10..60000
  unsigned max_records = 65536;      ///< sa.max_records: most records in one GetTable answer, 1..1000000
  std::string services_file;         ///< sa.services_file: ServiceRecords ("" = state_dir/sa-services.json)
  /// sa.original_rates_only: rates in PathRecords and MCMemberRecords only from IBA 1.2.1's codes (up to
  /// 300 Gb/s), newer ones mapped down (OpenSM's use_original_extended_sa_rates_only)
  bool original_rates_only = false;
  /// sa.drop_absent_subscribers: a port's InformInfo subscriptions are dropped when it leaves the subnet
  /// (OpenSM's drop_event_subscriptions)
  bool drop_absent_subscribers = false;
  unsigned alias_guid_byte = 0;      ///< sa.alias_guid_byte: bits 39:32 of the alias GUIDs the SM assigns, 0..255
};

/// The SA's multicast groups beyond what partitions pre-create (IBA 15.2.5.17).
struct MulticastPolicy {
  /// multicast.consolidate_ipv6_snm: IPv6 solicited-node groups (ff1S:601b:PKEY::1:ffXX:XXXX) of one scope and
  /// P_Key share one MLID when their properties agree (OpenSM's consolidate_ipv6_snm_req, default FALSE there).
  bool consolidate_ipv6_snm = true;
};

/// The Performance Manager (IBA 16.1): PortCounters and PortCountersExtended of every port, read by the master
/// between sweeps with a window of its own.
struct PerfMgrPolicy {
  bool enabled = false;          ///< perfmgr.enabled
  unsigned interval_s = 60;      ///< perfmgr.interval: seconds from the start of one counter pass to the next, 1..86400
  unsigned max_outstanding = 8;  ///< perfmgr.max_outstanding: PMA MADs in flight, 1..64
  unsigned timeout_ms = 200;     ///< perfmgr.timeout_ms: per attempt, 10..60000
  unsigned retries = 2;          ///< perfmgr.retries: re-sends after a timeout, 0..10
  bool reset_saturated = true;   ///< perfmgr.reset_saturated: clear a saturated counter with a PortCounters Set
  bool ignore_cas = false;       ///< perfmgr.ignore_cas: read switch ports only (OpenSM's perfmgr_ignore_cas)
  /// perfmgr.follow_redirect: re-send PerfMgt MADs where a PMA's ClassPortInfo redirects them (IBA 13.4.5;
  /// OpenSM's perfmgr_redir); off = such a port is not read.
  bool follow_redirect = true;
};

/// health.thresholds keys, in smd::PortCounter order (smd/state/port_counters_view.h checks the match).
inline constexpr std::array<std::string_view, 13> kHealthThresholdKeys = {"symbol_errors",
                                                                          "link_error_recoveries",
                                                                          "link_downed",
                                                                          "rcv_errors",
                                                                          "rcv_remote_physical_errors",
                                                                          "rcv_switch_relay_errors",
                                                                          "xmit_discards",
                                                                          "xmit_constraint_errors",
                                                                          "rcv_constraint_errors",
                                                                          "local_link_integrity_errors",
                                                                          "excessive_buffer_overrun_errors",
                                                                          "vl15_dropped",
                                                                          "xmit_wait"};

/// Unhealthy ports: the counters and link flaps that mark a port, and what routing does with its cable.
struct HealthPolicy {
  bool enabled =
      true;  ///< health.enabled: mark ports unhealthy (flaps need no PerfMgr; thresholds need perfmgr.enabled)
  bool isolate = true;  ///< health.isolate: route around an unhealthy port's cable (never cutting a node off)
  /// health.thresholds.<counter>: more than this many in one perfmgr interval marks the port; 0 = not watched.
  std::array<std::uint64_t, 13> thresholds = {10, 3, 2, 10, 10, 0, 0, 0, 0, 3, 3, 0, 0};
  unsigned flap_count = 5;       ///< health.flap_count: link-down events that mark a port (0 = flaps never do)
  unsigned flap_window_s = 600;  ///< health.flap_window: ... within this many seconds
  unsigned quiet_period_s =
      3600;  ///< health.quiet_period: clean seconds after which a mark clears itself (0 = operator only)
  /// health.babbling_port: disable (PortState Down, PortPhysicalState Disabled) a port that sends traps
  /// 129/130/131 at babbling_traps or more per babbling_window (OpenSM's babbling_port_policy).
  bool babbling_port = false;
  unsigned babbling_traps = 250;    ///< health.babbling_traps: traps in one window that babble, 2..100000
  unsigned babbling_window_s = 60;  ///< health.babbling_window: seconds, 1..86400
};

/// What `smd --instance NAME` and `--metrics-listen` set (smd/sm/instance_policy.h): never read from YAML,
/// kept in the policy so a SIGHUP reload applies them again and the metrics can name the instance.
struct InstancePolicy {
  std::string name;              ///< "" = the single, unnamed SM (smd.service)
  std::string metrics_listen;    ///< --metrics-listen HOST:PORT ("" = the policy's metrics.listen)
  bool own_policy_file = false;  ///< the policy is the instance's smd-NAME.yaml, not the shared file
};

/// OpenSM's command-line overrides (`smd -p N -g GUID -R LIST`, config/policy_overrides.h): never read from
/// YAML, kept in the policy so that a SIGHUP reload applies them again over the file it reads.
struct PolicyOverrides {
  std::optional<unsigned> priority;                 ///< -p/--priority: sm.priority
  std::optional<Guid> port_guid;                    ///< -g/--guid: sm.port_guid (sm.ca and sm.port cleared)
  std::optional<std::vector<std::string>> engines;  ///< -R/--routing-engine: routing.engines
  std::optional<std::string> log_level;             ///< --log-level: log.level (checked by the command line)
};

struct Policy {
  SmPolicy sm;
  RoutingPolicy routing;
  LidPolicy lid;
  MadPolicy mad;
  LogPolicy log;
  ControlPolicy control;
  MetricsPolicy metrics;
  SecurityPolicy security;
  PortsPolicy ports;
  RocePolicy roce;
  SaPolicy sa;
  PerfMgrPolicy perfmgr;
  HealthPolicy health;
  MulticastPolicy multicast;
  CongestionControlPolicy congestion_control;  ///< config/cc_policy.h
  /// partitions: absent = default_partitions() (OpenSM without partitions.conf: Default=0x7fff,ipoib :
  /// ALL=full); present = what it says, with_default_partition applied. Reloadable on SIGHUP.
  PartitionsSpec partitions = default_partitions();
  /// qos: absent = disabled (nothing programmed, no QoS levels; routing.options.data_vls stays 1).
  /// Reloadable on SIGHUP.
  QosSpec qos;
  /// The map sm.node_name_map named, as read when this policy was loaded (null: no map). A reload reads
  /// the file again; the snapshot's NodeNames (smd/state/node_names.h) renders names with it.
  std::shared_ptr<const NodeNameMap> node_names;
  std::string source = "<defaults>";  ///< file the policy came from
  /// What the loader accepted but an operator should hear of, "file:line:column: warning: ..." each (an
  /// empty file: every value is the default). check-config prints them, the daemon logs them.
  std::vector<std::string> warnings;
  InstancePolicy instance;            ///< command-line instance options (not YAML)
  PolicyOverrides overrides;          ///< command-line overrides (not YAML), applied after `instance`
};

}  // namespace smd
