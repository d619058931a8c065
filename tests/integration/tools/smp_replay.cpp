// smp_replay: sends again, through UmadTransport with the window kept full, every SMP an SM sent in
// one run (a file written by bench/smpcount.so with $SMPCOUNT_RECORD), against a fresh ibsim. The time
// it takes is ibsim's own floor for exactly that SM's SMPs: no SM computes anything in between, and it
// waits only where any SM must.
//
//   smp_replay --record FILE [--window N] [--timeout-ms N] [--retries N] [--ca NAME] [--port N]
//
// Barriers (all answers in before the next SMP leaves), only where the IBA orders things:
//   - between Gets and Sets, either way: a fabric is programmed from what was read (IBA 14.4);
//   - before the first PortInfo Set to PortState Active after other SMPs: a port goes Active only from
//     Armed (IBA 7.2.6, table 8), and its peer must be Armed as well.
// Discovery is therefore replayed without its breadth-first dependencies, so the floor is, if anything,
// too low: an SM's rate against it is a lower bound of how close the SM is to ibsim.
//
// Output (stdout, one line of key=value): replay_smps replay_ok replay_failed replay_skipped replay_ms
// replay_mad_per_s segments seg_smps (comma-separated) seg_ms (comma-separated) window.
// Exit status: 0 when every replayed SMP was answered with status 0, 1 otherwise, 2 on bad arguments or
// an unreadable record.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "mad/codec/port_info.h"
#include "mad/codec/smp.h"
#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"
#include "tests/integration/tools/transport_args.h"

namespace {

namespace mad = smd::mad;

// One record of $SMPCOUNT_RECORD: 2 bytes destination LID (network order), 6 zero bytes, the MAD.
constexpr std::size_t kRecordHead = 8;
constexpr std::size_t kRecordSize = kRecordHead + mad::kMadSize;
constexpr std::uint16_t kPermissiveLid = 0xffff;
constexpr std::uint8_t kPortStateActive = 4;  // IBA 14.2.5.6, PortInfo:PortState

struct Args {
  mad::UmadTransportOptions transport;
  mad::UmadPortOptions port;
  std::string record;
};

std::optional<Args> parse(int argc, char** argv) {
  Args a;
  a.port.open_issm = false;
  a.transport.retries = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--record" && i + 1 < argc) {
      a.record = argv[++i];
    } else if (!smd::tools::take_transport_arg(i, argc, argv, a.transport, a.port)) {
      std::fprintf(stderr,
                   "usage: %s --record FILE [--window N] [--timeout-ms N] [--retries N] [--ca NAME] [--port N]\n",
                   argv[0]);
      return std::nullopt;
    }
  }
  if (a.record.empty()) {
    std::fprintf(stderr, "smp_replay: --record FILE is required\n");
    return std::nullopt;
  }
  return a;
}

struct Replayed {
  mad::SmpRequest request;
  bool active_set = false;  // a PortInfo Set to PortState Active
};

// The record's SMPs as requests, in the order sent. An SMP the transport cannot express (a directed route
// with a LID-routed part: DrSLID or DrDLID not permissive) is counted in `skipped` and left out.
std::optional<std::vector<Replayed>> read_record(const std::string& path, std::size_t& skipped) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "smp_replay: %s: cannot open\n", path.c_str());
    return std::nullopt;
  }
  std::vector<Replayed> out;
  std::array<std::uint8_t, kRecordSize> rec{};
  std::size_t index = 0;
  while (in.read(reinterpret_cast<char*>(rec.data()), rec.size())) {
    ++index;
    const std::span<const std::uint8_t, mad::kMadSize> smp(rec.data() + kRecordHead, mad::kMadSize);
    const auto hdr = mad::decode_smp_header(smp);
    if (!hdr) {
      std::fprintf(stderr, "smp_replay: %s: record %zu is not an SMP\n", path.c_str(), index);
      return std::nullopt;
    }
    Replayed r;
    r.request.method = static_cast<mad::Method>(hdr->method);
    r.request.attr_id = hdr->attr_id;
    r.request.attr_mod = hdr->attr_mod;
    r.request.m_key = hdr->m_key;
    r.request.data = mad::smp_data(smp);
    if (hdr->mgmt_class == mad::kClassSmiDirect) {
      if (hdr->dr_slid != kPermissiveLid || hdr->dr_dlid != kPermissiveLid) {
        ++skipped;
        continue;
      }
      // InitialPath starts at byte 128; entry 0 is unused (IBA 14.2.1.2).
      std::vector<std::uint8_t> hops(smp.begin() + 129, smp.begin() + 129 + hdr->hop_count);
      r.request.path = mad::DrPath(hops);
    } else {
      r.request.dlid = static_cast<std::uint16_t>((rec[0] << 8) | rec[1]);
    }
    r.active_set = r.request.method == mad::Method::kSet && r.request.attr_id == mad::attr::kPortInfo &&
                   mad::PortInfo::decode(r.request.data).port_state == kPortStateActive;
    out.push_back(std::move(r));
  }
  if (in.gcount() != 0) {
    std::fprintf(stderr, "smp_replay: %s: %zd trailing bytes after record %zu (not a whole record)\n", path.c_str(),
                 static_cast<std::ptrdiff_t>(in.gcount()), index);
    return std::nullopt;
  }
  return out;
}

// [begin, end) ranges of `smps` between the barriers named at the top of this file.
std::vector<std::pair<std::size_t, std::size_t>> segments(const std::vector<Replayed>& smps) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t begin = 0;
  for (std::size_t i = 1; i < smps.size(); ++i) {
    const bool get_set_turn =
        (smps[i].request.method == mad::Method::kGet) != (smps[i - 1].request.method == mad::Method::kGet);
    const bool active_starts = smps[i].active_set && !smps[i - 1].active_set;
    if (get_set_turn || active_starts) {
      out.emplace_back(begin, i);
      begin = i;
    }
  }
  if (begin < smps.size()) out.emplace_back(begin, smps.size());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("smp_replay"));
  const auto args = parse(argc, argv);
  if (!args) return 2;
  std::size_t skipped = 0;
  const auto smps = read_record(args->record, skipped);
  if (!smps) return 2;
  auto port = mad::UmadPort::open(args->port);
  if (!port.ok()) {
    std::fprintf(stderr, "smp_replay: %s\n", port.error().message.c_str());
    return 1;
  }
  boost::asio::io_context io;
  mad::UmadTransport transport(io, std::move(port.value()), args->transport);

  std::size_t ok = 0, failed = 0;
  std::string seg_smps, seg_ms;
  const auto t0 = std::chrono::steady_clock::now();
  const auto parts = segments(*smps);
  for (const auto& [begin, end] : parts) {
    auto work = boost::asio::make_work_guard(io);
    std::size_t left = end - begin;
    const auto s0 = std::chrono::steady_clock::now();
    auto s1 = s0;
    for (std::size_t i = begin; i < end; ++i) {
      transport.submit(mad::SmpRequest((*smps)[i].request), [&](const mad::SmpReply& reply) {
        (reply.outcome == mad::SmpOutcome::kOk ? ok : failed) += 1;
        if (--left == 0) {
          s1 = std::chrono::steady_clock::now();
          work.reset();
        }
      });
    }
    io.restart();
    io.run();
    seg_smps += (seg_smps.empty() ? "" : ",") + std::to_string(end - begin);
    char ms[32];
    std::snprintf(ms, sizeof ms, "%s%.1f", seg_ms.empty() ? "" : ",",
                  std::chrono::duration<double, std::milli>(s1 - s0).count());
    seg_ms += ms;
  }
  const double total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "replay_smps=%zu replay_ok=%zu replay_failed=%zu replay_skipped=%zu replay_ms=%.1f replay_mad_per_s=%.0f "
      "segments=%zu seg_smps=%s seg_ms=%s window=%u\n",
      smps->size(), ok, failed, skipped, total_ms,
      total_ms > 0 ? static_cast<double>(smps->size()) * 1000.0 / total_ms : 0.0, parts.size(), seg_smps.c_str(),
      seg_ms.c_str(), transport.window());
  transport.stop();
  return failed == 0 && !smps->empty() ? 0 : 1;
}
