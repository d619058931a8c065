#include "smd/cc/cc_plan.h"

#include <algorithm>

namespace smd {

namespace {

// The bytes of an attribute that carry fields: what a read is compared on, what an echo must show.
std::size_t field_bytes(std::uint16_t attr) {
  switch (attr) {
    case mad::cc_attr::kSwitchCongestionSetting: return mad::SwitchCongestionSetting::kSize;
    case mad::cc_attr::kCaCongestionSetting: return mad::CaCongestionSetting::kSize;
    case mad::cc_attr::kCongestionControlTable: return mad::CongestionControlTable::kSize;
    default: return mad::kCcDataSize;
  }
}

// Compared through decode and encode, so reserved bits an agent fills do not count as a difference.
mad::CcData normalized(std::uint16_t attr, const mad::CcData& d) {
  mad::CcData out{};
  switch (attr) {
    case mad::cc_attr::kSwitchCongestionSetting: mad::SwitchCongestionSetting::decode(d).encode(out); break;
    case mad::cc_attr::kCaCongestionSetting: mad::CaCongestionSetting::decode(d).encode(out); break;
    case mad::cc_attr::kCongestionControlTable: mad::CongestionControlTable::decode(d).encode(out); break;
    default: out = d;
  }
  return out;
}

bool holds(std::uint16_t attr, const mad::CcData& now, const mad::CcData& want) {
  const mad::CcData a = normalized(attr, now), b = normalized(attr, want);
  return std::equal(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(field_bytes(attr)), b.begin());
}

}  // namespace

mad::CcData wanted_switch_setting(const CongestionControlPolicy& policy) {
  mad::SwitchCongestionSetting s;
  s.control_map = policy.sw.control_map;
  s.victim_mask = policy.sw.victim_mask;
  s.credit_mask = policy.sw.credit_mask;
  s.threshold = policy.sw.threshold;
  s.packet_size = policy.sw.packet_size;
  s.cs_threshold = policy.sw.credit_starvation_threshold;
  s.cs_return_delay = policy.sw.credit_starvation_return_delay;
  s.marking_rate = policy.sw.marking_rate;
  mad::CcData d{};
  s.encode(d);
  return d;
}

mad::CcData wanted_ca_setting(const CongestionControlPolicy& policy) {
  mad::CaCongestionSetting s;
  s.port_control = policy.ca.port_control;
  s.control_map = policy.ca.control_map;
  for (std::size_t sl = 0; sl < s.entries.size(); ++sl) {
    const CcCaEntry& e = policy.ca.entries[sl];
    s.entries[sl] = {e.ccti_timer, e.ccti_increase, e.trigger_threshold, e.ccti_min};
  }
  mad::CcData d{};
  s.encode(d);
  return d;
}

std::vector<mad::CcData> wanted_cct_blocks(const CongestionControlPolicy& policy) {
  std::vector<mad::CcData> blocks;
  const std::size_t n = policy.cct.size();
  if (n == 0) return blocks;
  const std::size_t per = mad::CongestionControlTable::kEntries;
  for (std::size_t b = 0; b * per < n; ++b) {
    mad::CongestionControlTable t;
    t.ccti_limit = static_cast<std::uint16_t>(n - 1);
    for (std::size_t i = 0; i < per && b * per + i < n; ++i) {
      const std::uint16_t v = policy.cct[b * per + i];
      t.entries[i] = {static_cast<std::uint8_t>(v >> 14), static_cast<std::uint16_t>(v & 0x3FFF)};
    }
    mad::CcData d{};
    t.encode(d);
    blocks.push_back(d);
  }
  return blocks;
}

std::vector<CcWrite> plan_cc_writes(const std::vector<CcTarget>& targets, const std::vector<CcReading>& readings,
                                    const CongestionControlPolicy& policy) {
  std::vector<CcWrite> plan;
  const mad::CcData sw = wanted_switch_setting(policy);
  const mad::CcData ca = wanted_ca_setting(policy);
  const std::vector<mad::CcData> cct = wanted_cct_blocks(policy);
  for (std::size_t t = 0; t < targets.size() && t < readings.size(); ++t) {
    const CcReading& r = readings[t];
    if (targets[t].is_switch) {
      if (r.switch_setting && !holds(mad::cc_attr::kSwitchCongestionSetting, *r.switch_setting, sw)) {
        plan.push_back({t, mad::cc_attr::kSwitchCongestionSetting, 0, sw});
      }
      continue;
    }
    if (r.ca_setting && !holds(mad::cc_attr::kCaCongestionSetting, *r.ca_setting, ca)) {
      plan.push_back({t, mad::cc_attr::kCaCongestionSetting, 0, ca});
    }
    const std::size_t cap = r.info ? r.info->control_table_cap : 0;
    for (std::size_t b = 0; b < cct.size() && b < cap; ++b) {
      const bool read = b < r.cct_blocks.size() && r.cct_blocks[b].has_value();
      if (read && !holds(mad::cc_attr::kCongestionControlTable, *r.cct_blocks[b], cct[b])) {
        plan.push_back({t, mad::cc_attr::kCongestionControlTable, static_cast<std::uint32_t>(b), cct[b]});
      }
    }
  }
  return plan;
}

bool cc_echoed(const CcWrite& w, const mad::CcData& reply) { return holds(w.attr, reply, w.data); }

std::string describe_cc_attr(std::uint16_t attr, std::uint32_t mod) {
  switch (attr) {
    case mad::cc_attr::kCongestionInfo: return "CongestionInfo";
    case mad::cc_attr::kSwitchCongestionSetting: return "SwitchCongestionSetting";
    case mad::cc_attr::kCaCongestionSetting: return "CACongestionSetting";
    case mad::cc_attr::kCongestionControlTable: return "CongestionControlTable block " + std::to_string(mod);
    default: return "CC attribute " + std::to_string(attr);
  }
}

}  // namespace smd
