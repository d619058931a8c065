// The hottest switch-to-switch cables of one evaluation: what the comparison's report (report_text.h,
// fabric_sketch.h) marks and names. Host cables are left out on purpose: an all-to-all loads every host
// cable with what its host sends whatever the routing does, so only switch cables say what a scheme did.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "routing/model/topology.h"

namespace smd::roce {

/// How many of the hottest cables an evaluation keeps.
inline constexpr std::size_t kHottestCables = 3;
inline constexpr std::uint32_t kNoChannel = 0xFFFFFFFFu;

/// A directed switch-to-switch channel (FlowTracer numbering) and its load in flows.
struct ChannelLoad {
  std::uint32_t channel = kNoChannel;
  double load = 0;
};

/// The kHottestCables highest-loaded channels seen, load descending, channel id ascending on equal
/// loads (so the choice among equally hot cables is the same on every run), and how many channels
/// carry the highest load. Fed one channel at a time, in any order; channels with no load are ignored.
struct HottestChannels {
  std::array<ChannelLoad, kHottestCables> top{};
  std::uint32_t at_max = 0;  ///< channels whose load equals top[0].load

  void add(std::uint32_t channel, double load) {
    if (load <= 0) return;
    if (top[0].channel == kNoChannel || load > top[0].load) {
      at_max = 1;
    } else if (load == top[0].load) {
      ++at_max;
    }
    ChannelLoad next{channel, load};
    for (auto& slot : top) {
      const bool before = slot.channel == kNoChannel || next.load > slot.load ||
                          (next.load == slot.load && next.channel < slot.channel);
      if (before) std::swap(slot, next);
    }
  }
};

/// One of the hottest cables, named: the switch it leaves and the one it enters, with ports.
struct HotCable {
  std::string from;  ///< NodeDescription of the sending switch
  Guid from_guid = 0;
  PortNum from_port = 0;
  std::string to;  ///< NodeDescription of the receiving switch
  Guid to_guid = 0;
  PortNum to_port = 0;
  double load = 0;  ///< flows on it (a QP counts 1/qps, a sprayed flow its fraction)
};

}  // namespace smd::roce
