// mft_watch: the clock of the join-storm benchmark (bench/mcast_join_storm.sh). Whatever SM runs the
// fabric, it reads the MulticastForwardingTable entry of one MLID on every switch, LID-routed, round after
// round with the window full, until every expected member port is in its switch's mask (and every port
// named absent is not) and a whole round reads the same masks as the round before: the SM has finished programming that
// group's tree. It knows nothing of how the SM builds trees; whether the tree it settled on delivers is
// tests/integration/ check_mft.py's business.
//
//   mft_watch --switches FILE --mlid MLID [--timeout-s S] [--window N] [--ca NAME] [--port N]
//
// FILE: one line per switch, "lid num_ports", then lines "expect lid port" (a member's switch LID and the
// port facing it; port 0 for a switch that is itself a member) and "absent lid port" (a port the mask must
// not hold: a host that is not, or no longer, a member). MFT Gets: attribute 0x001B, modifier
// block | position<<28 (IBA 14.2.5.11), MLID 0xC000 + 32*block + index, position p = ports 16p..16p+15.
//
// Output (stdout, one line of key=value): settled=0|1 settled_unix_ns (CLOCK_REALTIME when the first round
// of the settled state started) elapsed_ms (since this program started) rounds smps failed.
// Exit status 0 when settled before the timeout.
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"
#include "tests/integration/tools/transport_args.h"

namespace {

struct Switch {
  std::uint16_t lid = 0;
  unsigned num_ports = 0;
};

struct Expect {
  std::size_t sw = 0;  // index into the switch list
  unsigned port = 0;
  bool present = true;  // false: "absent"
};

struct Args {
  smd::mad::UmadTransportOptions transport;
  smd::mad::UmadPortOptions port;
  std::string switches_file;
  std::uint16_t mlid = 0xC000;
  unsigned timeout_s = 60;
};

bool load(const std::string& path, std::vector<Switch>& switches, std::vector<Expect>& expects) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "mft_watch: cannot read %s\n", path.c_str());
    return false;
  }
  std::string line;
  struct Wanted {
    std::uint16_t lid;
    unsigned port;
    bool present;
  };
  std::vector<Wanted> wanted;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (first == "expect" || first == "absent") {
      unsigned lid = 0, port = 0;
      if (!(words >> lid >> port)) {
        std::fprintf(stderr, "mft_watch: %s:%u: want \"%s LID PORT\"\n", path.c_str(), n, first.c_str());
        return false;
      }
      wanted.push_back({static_cast<std::uint16_t>(lid), port, first == "expect"});
    } else {
      Switch s;
      s.lid = static_cast<std::uint16_t>(std::strtoul(first.c_str(), nullptr, 0));
      if (!(words >> s.num_ports) || s.lid == 0 || s.num_ports == 0 || s.num_ports > 254) {
        std::fprintf(stderr, "mft_watch: %s:%u: want \"LID NUM_PORTS\"\n", path.c_str(), n);
        return false;
      }
      switches.push_back(s);
    }
  }
  for (const Wanted& w : wanted) {
    std::size_t i = 0;
    while (i < switches.size() && switches[i].lid != w.lid) ++i;
    if (i == switches.size() || w.port > switches[i].num_ports) {
      std::fprintf(stderr, "mft_watch: %u %u names no listed switch port\n", w.lid, w.port);
      return false;
    }
    expects.push_back({i, w.port, w.present});
  }
  return !switches.empty();
}

// One round: every switch's mask for the MLID, as one bit vector per switch (ports 0..num_ports).
using Masks = std::vector<std::vector<bool>>;

bool read_round(boost::asio::io_context& io, smd::mad::UmadTransport& t, const std::vector<Switch>& switches,
                std::uint16_t mlid, Masks& out, unsigned& smps, unsigned& failed) {
  const unsigned offset = mlid - 0xC000u;
  const unsigned block = offset / 32;
  const unsigned index = offset % 32;
  out.assign(switches.size(), {});
  bool all_ok = true;
  for (std::size_t s = 0; s < switches.size(); ++s) {
    out[s].assign(switches[s].num_ports + 1, false);
    for (unsigned pos = 0; pos * 16 <= switches[s].num_ports; ++pos) {
      smd::mad::SmpRequest req;
      req.dlid = switches[s].lid;
      req.attr_id = smd::mad::attr::kMulticastForwardingTable;
      req.attr_mod = block | (pos << 28);
      ++smps;
      t.submit(std::move(req), [&, s, pos](const smd::mad::SmpReply& r) {
        if (r.outcome != smd::mad::SmpOutcome::kOk) {
          ++failed;
          all_ok = false;
          return;
        }
        const unsigned mask = (static_cast<unsigned>(r.data[2 * index]) << 8) | r.data[2 * index + 1];
        for (unsigned bit = 0; bit < 16; ++bit) {
          const unsigned port = pos * 16 + bit;
          if (port < out[s].size() && (mask & (1u << bit)) != 0) out[s][port] = true;
        }
      });
    }
  }
  io.restart();
  io.run();
  return all_ok;
}

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  Args a;
  a.port.open_issm = false;
  a.transport.retries = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const bool has_value = i + 1 < argc;
    if (k == "--switches" && has_value) {
      a.switches_file = argv[++i];
    } else if (k == "--mlid" && has_value) {
      a.mlid = static_cast<std::uint16_t>(std::strtoul(argv[++i], nullptr, 0));
    } else if (k == "--timeout-s" && has_value) {
      a.timeout_s = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (!smd::tools::take_transport_arg(i, argc, argv, a.transport, a.port)) {
      std::fprintf(stderr,
                   "usage: %s --switches FILE --mlid MLID [--timeout-s S] [--window N] [--ca NAME] [--port N]\n",
                   argv[0]);
      return 2;
    }
  }
  if (a.mlid < 0xC000 || a.mlid == 0xFFFF) {
    std::fprintf(stderr, "mft_watch: --mlid must be a multicast LID (0xC000-0xFFFE)\n");
    return 2;
  }
  std::vector<Switch> switches;
  std::vector<Expect> expects;
  if (!load(a.switches_file, switches, expects)) return 2;

  boost::asio::io_context io;
  auto port = smd::mad::UmadPort::open(a.port);
  if (!port.ok()) {
    std::fprintf(stderr, "mft_watch: %s\n", port.error().message.c_str());
    return 2;
  }
  smd::mad::UmadTransport t(io, std::move(port.value()), a.transport);

  Masks prev, cur;
  unsigned smps = 0, failed = 0, rounds = 0;
  bool settled = false, have_prev = false;
  std::int64_t prev_started_ns = 0;
  const auto deadline = start + std::chrono::seconds(a.timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::int64_t started_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    const bool ok = read_round(io, t, switches, a.mlid, cur, smps, failed);
    ++rounds;
    bool members_in = ok;
    for (const Expect& e : expects) members_in = members_in && cur[e.sw][e.port] == e.present;
    // Settled: all members in, and the same masks as a whole round earlier (nothing was still moving).
    if (members_in && have_prev && cur == prev) {
      settled = true;
      std::printf("settled=1 settled_unix_ns=%lld elapsed_ms=%.1f rounds=%u smps=%u failed=%u\n",
                  static_cast<long long>(prev_started_ns),
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), rounds,
                  smps, failed);
      break;
    }
    if (members_in) {
      if (!have_prev || cur != prev) prev_started_ns = started_ns;
      prev = cur;
      have_prev = true;
    } else {
      have_prev = false;
    }
  }
  if (!settled) {
    std::printf("settled=0 settled_unix_ns=0 elapsed_ms=%.1f rounds=%u smps=%u failed=%u\n",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(), rounds,
                smps, failed);
  }
  return settled ? 0 : 1;
}
