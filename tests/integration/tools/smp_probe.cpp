// smp_probe: breadth-first directed-route NodeInfo sweep of the whole fabric through UmadTransport,
// keeping the window full. Prints what it found and how fast, for tests/integration/transport_test.sh
// and for measuring MAD/s against the window size.
//
//   smp_probe [--window N] [--timeout-ms N] [--retries N] [--ca NAME] [--port N] [--issm]
//             [--reread N] [--lid LID] [--sminfo PATH [--sminfo-set MOD] [--sm-key KEY] [--m-key KEY]]
//             [--serve-sminfo SECONDS [--silent]]
//
// Output (stdout, one line of key=value): nodes switches cas smps answered retries timeouts unroutable
// elapsed_ms mad_per_s window. --reread N then Gets every found node's NodeInfo N more times, all
// submitted at once (the window stays full: a steady-state MAD/s), and adds reread_smps reread_ms
// reread_mad_per_s. --lid LID instead sends one LID-routed NodeInfo to LID and prints its outcome,
// attempts and elapsed_ms (ibsim silently drops LID-routed SMPs before the LFTs are set: the timer path).
// --sminfo 1,2 sends one directed-route SMInfo Get along that path and prints the answer; with
// --sminfo-set MOD it is an SMInfo Set with that attribute modifier (1 HANDOVER .. 5 DISCOVER, IBA 14.4.1)
// and --sm-key the SM_Key it carries (a rogue or a peer SM, for the SM_Key tests); --m-key the M_Key
// of the SMP header (for the M_Key protection of an SM's SMInfo). It prints the answer's MAD status too,
// and exits 0 when any answer came (a refused Set is answered with a non-zero status).
// --serve-sminfo S opens issm, answers every SMInfo Get with this port's GUID (priority 7, STANDBY) for
// S seconds (--silent: receive but never answer), then prints served= unsolicited=. Together they
// exercise unsolicited delivery, send_response and (silent) the per-request timer.
// Logs go to stderr. Exit status: 0 on a complete sweep (or an answered --lid probe), 1 otherwise.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "mad/codec/node_info.h"
#include "mad/codec/sm_info.h"
#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"
#include "tests/integration/tools/transport_args.h"

namespace {

using smd::mad::DrPath;
using smd::mad::NodeInfo;
using smd::mad::SmpReply;
using smd::mad::SmpRequest;

struct Args {
  smd::mad::UmadTransportOptions transport;
  smd::mad::UmadPortOptions port;
  unsigned reread = 0;
  std::optional<std::uint16_t> lid;
  std::optional<DrPath> sminfo_path;
  std::optional<std::uint32_t> sminfo_set;
  std::uint64_t sm_key = 0;
  std::uint64_t m_key = 0;
  unsigned serve_seconds = 0;
  bool silent = false;
};

// "1,2,5" -> DrPath{1,2,5}; empty string = the local port.
DrPath parse_path(const char* text) {
  std::vector<std::uint8_t> hops;
  for (const char* p = text; *p != '\0';) {
    char* end = nullptr;
    hops.push_back(static_cast<std::uint8_t>(std::strtoul(p, &end, 10)));
    p = (*end == ',') ? end + 1 : end;
    if (end == p && *p != '\0') break;
  }
  return DrPath(hops);
}

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  a.port.open_issm = false;  // a probe is not the SM: leave issm to the daemon
  a.transport.retries = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const bool has_value = i + 1 < argc;
    if (k == "--issm") {
      a.port.open_issm = true;
    } else if (k == "--reread" && has_value) {
      a.reread = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (k == "--lid" && has_value) {
      a.lid = static_cast<std::uint16_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (k == "--sminfo" && has_value) {
      a.sminfo_path = parse_path(argv[++i]);
    } else if (k == "--sminfo-set" && has_value) {
      a.sminfo_set = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (k == "--sm-key" && has_value) {
      a.sm_key = std::strtoull(argv[++i], nullptr, 0);
    } else if (k == "--m-key" && has_value) {
      a.m_key = std::strtoull(argv[++i], nullptr, 0);
    } else if (k == "--serve-sminfo" && has_value) {
      a.serve_seconds = static_cast<unsigned>(std::atoi(argv[++i]));
      a.port.open_issm = true;
    } else if (k == "--silent") {
      a.silent = true;
    } else if (!smd::tools::take_transport_arg(i, argc, argv, a.transport, a.port)) {
      std::fprintf(stderr,
                   "usage: %s [--window N] [--timeout-ms N] [--retries N] [--ca NAME] [--port N] [--issm] "
                   "[--reread N] [--lid LID] [--sminfo PATH [--sminfo-set MOD] [--sm-key KEY] [--m-key KEY]] "
                   "[--serve-sminfo SECONDS [--silent]]\n",
                   argv[0]);
      return std::nullopt;
    }
  }
  return a;
}

// The sweep: each answered NodeInfo of an unseen node GUID counts the node; a switch's ports (all but
// the one we came in by) and the SM node's own port are probed next. CAs are leaves.
class Sweep {
 public:
  Sweep(smd::mad::UmadTransport& t, unsigned sm_port) : t_(t), sm_port_(sm_port) {}

  void start(std::function<void()> on_done) {
    on_done_ = std::move(on_done);
    probe(DrPath{});
  }

  std::size_t switches = 0;
  std::size_t cas = 0;
  std::size_t failed = 0;          // NodeInfo that got no answer on a path we expected to lead somewhere
  std::size_t unroutable = 0;      // probes of ports with nothing behind them (timeout / 110)
  std::vector<DrPath> node_paths;  // one directed route per node found

 private:
  void probe(const DrPath& path) {
    SmpRequest req;
    req.path = path;
    req.attr_id = smd::mad::attr::kNodeInfo;
    ++outstanding_;
    t_.submit(std::move(req), [this, path](const SmpReply& r) { on_reply(path, r); });
  }

  void on_reply(const DrPath& path, const SmpReply& r) {
    if (r.outcome == smd::mad::SmpOutcome::kOk) {
      const NodeInfo ni = NodeInfo::decode(r.data);
      if (seen_.insert(ni.node_guid).second) {
        node_paths.push_back(path);
        if (ni.is_switch()) {
          ++switches;
          for (unsigned p = 1; p <= ni.num_ports; ++p) {
            if (p != ni.local_port_num && path.can_extend()) probe(path.extended(static_cast<std::uint8_t>(p)));
          }
        } else {
          ++cas;
        }
        if (path.hop_count() == 0 && !ni.is_switch()) probe(path.extended(static_cast<std::uint8_t>(sm_port_)));
      }
    } else if (path.hop_count() == 0) {
      ++failed;  // our own node must answer
    } else {
      ++unroutable;
    }
    if (--outstanding_ == 0 && on_done_) on_done_();
  }

  smd::mad::UmadTransport& t_;
  unsigned sm_port_;
  std::unordered_set<std::uint64_t> seen_;
  std::size_t outstanding_ = 0;
  std::function<void()> on_done_;
};

// Every path in `paths`, `rounds` times, submitted at once; returns elapsed ms, counts failures.
double reread(boost::asio::io_context& io, smd::mad::UmadTransport& t, const std::vector<DrPath>& paths,
              unsigned rounds, std::size_t& failures) {
  auto work = boost::asio::make_work_guard(io);
  std::size_t left = paths.size() * rounds;
  const auto t0 = std::chrono::steady_clock::now();
  auto t1 = t0;
  for (unsigned r = 0; r < rounds; ++r) {
    for (const auto& path : paths) {
      SmpRequest req;
      req.path = path;
      req.attr_id = smd::mad::attr::kNodeInfo;
      t.submit(std::move(req), [&](const SmpReply& reply) {
        if (reply.outcome != smd::mad::SmpOutcome::kOk) ++failures;
        if (--left == 0) {
          t1 = std::chrono::steady_clock::now();
          work.reset();
        }
      });
    }
  }
  io.restart();
  io.run();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// One LID-routed NodeInfo: prints outcome, attempts, elapsed_ms.
int probe_lid(boost::asio::io_context& io, smd::mad::UmadTransport& t, std::uint16_t lid) {
  SmpRequest req;
  req.dlid = lid;
  req.attr_id = smd::mad::attr::kNodeInfo;
  SmpReply got;
  const auto t0 = std::chrono::steady_clock::now();
  auto t1 = t0;
  t.submit(std::move(req), [&](const SmpReply& r) {
    got = r;
    t1 = std::chrono::steady_clock::now();
  });
  io.run();
  std::printf("lid=%u outcome=%s attempts=%u elapsed_ms=%.1f\n", lid, smd::mad::to_string(got.outcome), got.attempts,
              std::chrono::duration<double, std::milli>(t1 - t0).count());
  return got.outcome == smd::mad::SmpOutcome::kOk ? 0 : 1;
}

// One directed-route SMInfo Get (or Set with `set_mod`): prints outcome, attempts, elapsed_ms and the
// SMInfo fields of the answer.
int probe_sminfo(boost::asio::io_context& io, smd::mad::UmadTransport& t, const DrPath& path,
                 std::optional<std::uint32_t> set_mod, std::uint64_t sm_key, std::uint64_t m_key,
                 std::uint64_t own_guid) {
  SmpRequest req;
  req.path = path;
  req.m_key = m_key;
  req.attr_id = smd::mad::attr::kSmInfo;
  if (set_mod) {
    req.method = smd::mad::Method::kSet;
    req.attr_mod = *set_mod;
  }
  smd::mad::SmInfo mine;
  mine.guid = own_guid;
  mine.sm_key = sm_key;
  mine.priority = 15;
  mine.state = smd::mad::SmState::kMaster;
  mine.encode(req.data);
  SmpReply got;
  const auto t0 = std::chrono::steady_clock::now();
  auto t1 = t0;
  t.submit(std::move(req), [&](const SmpReply& r) {
    got = r;
    t1 = std::chrono::steady_clock::now();
  });
  io.run();
  const auto info = smd::mad::SmInfo::decode(got.data);
  std::printf(
      "path=%s outcome=%s status=0x%x attempts=%u elapsed_ms=%.1f guid=0x%016llx priority=%u state=%s "
      "sm_key=0x%llx\n",
      path.to_string().c_str(), smd::mad::to_string(got.outcome), got.status, got.attempts,
      std::chrono::duration<double, std::milli>(t1 - t0).count(), static_cast<unsigned long long>(info.guid),
      info.priority, smd::mad::to_string(info.state), static_cast<unsigned long long>(info.sm_key));
  const bool answered = got.outcome == smd::mad::SmpOutcome::kOk || got.outcome == smd::mad::SmpOutcome::kBadStatus;
  return answered ? 0 : 1;
}

// Answer SMInfo Gets for `seconds` as a standby SM would (or only count them when silent).
int serve_sminfo(boost::asio::io_context& io, smd::mad::UmadTransport& t, std::uint64_t own_guid, unsigned seconds,
                 bool silent) {
  std::size_t served = 0, unsolicited = 0;
  t.set_unsolicited_handler(
      [&](std::span<const std::uint8_t, smd::mad::kMadSize> mad, const smd::mad::UnsolicitedInfo& info) {
        ++unsolicited;
        const bool smp = info.mgmt_class == smd::mad::kClassSmiDirect || info.mgmt_class == smd::mad::kClassSmiLid;
        if (silent || !smp || info.method != static_cast<std::uint8_t>(smd::mad::Method::kGet) ||
            info.attr_id != smd::mad::attr::kSmInfo) {
          return;
        }
        smd::mad::SmInfo mine;
        mine.guid = own_guid;
        mine.priority = 7;
        mine.state = smd::mad::SmState::kStandby;
        smd::mad::SmpData data{};
        mine.encode(data);
        std::array<std::uint8_t, smd::mad::kMadSize> resp{};
        smd::mad::make_smp_response(mad, 0, data, resp);
        const auto sent = t.send_response(info, resp);
        if (sent.ok()) {
          ++served;
        } else {
          std::fprintf(stderr, "smp_probe: %s\n", sent.error().message.c_str());
        }
      });
  boost::asio::steady_timer until(io, std::chrono::seconds(seconds));
  until.async_wait([](const boost::system::error_code&) {});
  std::printf("ready\n");
  std::fflush(stdout);
  io.run();
  std::printf("served=%zu unsolicited=%zu\n", served, unsolicited);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // One line per answer, each out as soon as it is printed: the tests parse them from a pipe.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  spdlog::set_default_logger(spdlog::stderr_color_mt("smp_probe"));
  const auto args = parse(argc, argv);
  if (!args) return 2;
  auto port = smd::mad::UmadPort::open(args->port);
  if (!port.ok()) {
    std::fprintf(stderr, "smp_probe: %s\n", port.error().message.c_str());
    return 1;
  }
  const unsigned sm_port = port.value()->port_num();
  const std::uint64_t own_guid = port.value()->port_guid();
  boost::asio::io_context io;
  smd::mad::UmadTransport transport(io, std::move(port.value()), args->transport);
  if (args->lid) return probe_lid(io, transport, *args->lid);
  if (args->sminfo_path)
    return probe_sminfo(io, transport, *args->sminfo_path, args->sminfo_set, args->sm_key, args->m_key, own_guid);
  if (args->serve_seconds > 0) return serve_sminfo(io, transport, own_guid, args->serve_seconds, args->silent);

  Sweep sweep(transport, sm_port);
  auto work = boost::asio::make_work_guard(io);
  const auto t0 = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point t1;
  sweep.start([&] {
    t1 = std::chrono::steady_clock::now();
    work.reset();
  });
  io.run();
  const auto stats = transport.stats();
  const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double rate = ms > 0 ? static_cast<double>(stats.sent) * 1000.0 / ms : 0.0;
  std::printf(
      "nodes=%zu switches=%zu cas=%zu smps=%llu answered=%llu retries=%llu timeouts=%llu unroutable=%zu "
      "elapsed_ms=%.1f mad_per_s=%.0f window=%u",
      sweep.switches + sweep.cas, sweep.switches, sweep.cas, static_cast<unsigned long long>(stats.sent),
      static_cast<unsigned long long>(stats.received), static_cast<unsigned long long>(stats.retries),
      static_cast<unsigned long long>(stats.timeouts), sweep.unroutable, ms, rate, transport.window());
  std::size_t reread_failures = 0;
  if (args->reread > 0) {
    const std::size_t n = sweep.node_paths.size() * args->reread;
    const double rms = reread(io, transport, sweep.node_paths, args->reread, reread_failures);
    std::printf(" reread_smps=%zu reread_failures=%zu reread_ms=%.1f reread_mad_per_s=%.0f", n, reread_failures, rms,
                rms > 0 ? static_cast<double>(n) * 1000.0 / rms : 0.0);
  }
  std::printf("\n");
  transport.stop();
  return sweep.failed == 0 && reread_failures == 0 && sweep.switches + sweep.cas > 0 ? 0 : 1;
}
