// AliasGuidTable: the GUIDInfoRecord Set/Delete rules, SM assignment, and the file form.
#include "smd/sa/alias_guids.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "mad/sa/sa_mad.h"

namespace smd::sa {

namespace {

std::string hex(Guid g) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, g);
  return buf;
}

/// Highest entry index + 1 a Set may touch in `block` for a port with GUIDCap `cap`; 0: no such block.
unsigned block_end(unsigned cap, unsigned block) {
  const unsigned first = block * kGuidsPerBlock;
  if (first >= cap) return 0;
  return std::min(cap, first + kGuidsPerBlock);
}

bool parse_u64(const std::string& word, std::uint64_t& out) {
  if (word.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtoull(word.c_str(), &end, 0);
  return errno == 0 && end && *end == '\0' && word[0] != '-';
}

}  // namespace

AliasChange AliasGuidTable::set(Guid port_guid, unsigned guid_cap, unsigned block, std::uint8_t mask,
                                const std::array<Guid, kGuidsPerBlock>& guids,
                                const std::function<bool(Guid)>& in_use) {
  AliasChange out;
  const unsigned end = block_end(guid_cap, block);
  if (end == 0) {
    out.status = mad::sa::status::kNoRecords;
    return out;
  }
  if (block == 0 && (mask & 1u)) {
    out.status = mad::sa::status::kReqInvalid;  // the port GUID is read-only
    return out;
  }
  // Only a Set that may assign can fail part-way: keep what to go back to.
  std::optional<AliasGuidTable> before;
  for (unsigned i = 0; i < kGuidsPerBlock; ++i) {
    if ((mask & (1u << i)) && guids[i] == 0 && !before) before = *this;
  }
  for (unsigned index = block * kGuidsPerBlock; index < end; ++index) {
    const unsigned slot = index % kGuidsPerBlock;
    if (!(mask & (1u << slot))) continue;
    Guid want = guids[slot];
    const auto t = tables_.find(port_guid);
    const Guid held = t != tables_.end() && index < t->second.size() ? t->second[index] : 0;
    if (want == 0) {
      if (held != 0) continue;  // asked again: keep what it has
      const auto remembered = assigned_.find({port_guid, index});
      want = remembered != assigned_.end() ? remembered->second : assign(port_guid, index, in_use);
      if (want == 0) {  // the counter ran out (2^32 assignments): undo this Set's entries, answer the error
        *this = std::move(*before);
        out = AliasChange{};
        out.status = mad::sa::status::kNoResources;
        return out;
      }
    }
    if (want == held) continue;
    const auto owner = by_alias_.find(want);
    const bool taken = owner != by_alias_.end() || want == port_guid || (in_use && in_use(want));
    if (taken) {
      out.refused.push_back({index, hex(want) + " is already " +
                                        (owner != by_alias_.end() ? "an alias of port " + hex(owner->second.first) +
                                                                        " entry " + std::to_string(owner->second.second)
                                                                  : std::string("a port GUID"))});
      continue;
    }
    if (held != 0) clear(port_guid, index);
    put(port_guid, index, want);
    out.changed = true;
  }
  out.block = this->block(port_guid, block);
  // A refused entry answers 0 (the requester sees which ones did not take), whatever the port holds there.
  for (const AliasChange::Refused& r : out.refused) out.block[r.index % kGuidsPerBlock] = 0;
  return out;
}

AliasChange AliasGuidTable::erase(Guid port_guid, unsigned guid_cap, unsigned block, std::uint8_t mask) {
  AliasChange out;
  const unsigned end = block_end(guid_cap, block);
  if (end == 0) {
    out.status = mad::sa::status::kNoRecords;
    return out;
  }
  for (unsigned index = block * kGuidsPerBlock; index < end; ++index) {
    if (index == 0 || !(mask & (1u << (index % kGuidsPerBlock)))) continue;
    const auto t = tables_.find(port_guid);
    if (t == tables_.end() || index >= t->second.size() || t->second[index] == 0) continue;
    clear(port_guid, index);
    out.changed = true;
  }
  out.block = this->block(port_guid, block);
  return out;
}

std::array<Guid, kGuidsPerBlock> AliasGuidTable::block(Guid port_guid, unsigned block) const {
  std::array<Guid, kGuidsPerBlock> out{};
  if (const auto t = tables_.find(port_guid); t != tables_.end()) {
    for (unsigned i = 0; i < kGuidsPerBlock; ++i) {
      const std::size_t index = std::size_t{block} * kGuidsPerBlock + i;
      if (index < t->second.size()) out[i] = t->second[index];
    }
  }
  if (block == 0) out[0] = port_guid;
  return out;
}

std::vector<unsigned> AliasGuidTable::blocks(Guid port_guid) const {
  std::vector<unsigned> out{0};
  if (const auto t = tables_.find(port_guid); t != tables_.end()) {
    for (std::size_t index = kGuidsPerBlock; index < t->second.size(); ++index) {
      const auto b = static_cast<unsigned>(index / kGuidsPerBlock);
      if (t->second[index] != 0 && out.back() != b) out.push_back(b);
    }
  }
  return out;
}

Guid AliasGuidTable::base_of(Guid guid) const {
  const auto it = by_alias_.find(guid);
  return it == by_alias_.end() ? 0 : it->second.first;
}

std::shared_ptr<const AliasBases> AliasGuidTable::bases() const {
  auto out = std::make_shared<AliasBases>();
  out->reserve(by_alias_.size());
  for (const auto& [alias, where] : by_alias_) out->emplace(alias, where.first);
  return out;
}

Guid AliasGuidTable::assign(Guid port_guid, unsigned index, const std::function<bool(Guid)>& in_use) {
  // A GUID once handed out stays with its (port, entry) (assigned_), so the counter never repeats one;
  // what it may meet is a GUID a requester chose, or a port's own.
  while (counter_ != 0xFFFFFFFFu) {
    ++counter_;
    const Guid g = (kAssignedGuidOui << 40) | (std::uint64_t{assign_byte_} << 32) | counter_;
    if (by_alias_.count(g) || g == port_guid || (in_use && in_use(g))) continue;
    assigned_[{port_guid, index}] = g;
    return g;
  }
  return 0;
}

void AliasGuidTable::put(Guid port_guid, unsigned index, Guid alias) {
  std::vector<Guid>& t = tables_[port_guid];
  if (t.size() <= index) t.resize((index / kGuidsPerBlock + 1) * kGuidsPerBlock, 0);
  t[index] = alias;
  by_alias_[alias] = {port_guid, index};
}

void AliasGuidTable::clear(Guid port_guid, unsigned index) {
  auto t = tables_.find(port_guid);
  if (t == tables_.end() || index >= t->second.size()) return;
  by_alias_.erase(t->second[index]);
  t->second[index] = 0;
  while (!t->second.empty() && t->second.back() == 0 && t->second.size() > 1) t->second.pop_back();
  bool any = false;
  for (Guid g : t->second) any = any || g != 0;
  if (!any) tables_.erase(t);
}

std::string AliasGuidTable::to_text() const {
  std::string out =
      "# smd alias GUIDs (GUIDInfoRecord Set): PORT_GUID INDEX ALIAS_GUID; assigned PORT_GUID INDEX GUID\n";
  for (const auto& [port, entries] : tables_) {
    for (std::size_t index = 1; index < entries.size(); ++index) {
      if (entries[index] != 0) out += hex(port) + " " + std::to_string(index) + " " + hex(entries[index]) + "\n";
    }
  }
  for (const auto& [where, g] : assigned_) {
    out += "assigned " + hex(where.first) + " " + std::to_string(where.second) + " " + hex(g) + "\n";
  }
  return out;
}

Result<AliasGuidTable> AliasGuidTable::from_text(const std::string& text, const std::string& origin,
                                                 std::uint8_t assign_byte) {
  AliasGuidTable t(assign_byte);
  std::istringstream in(text);
  std::string line;
  unsigned line_no = 0;
  const auto bad = [&](const std::string& what) {
    return make_error(ErrorCode::kInvalidInput, origin + ":" + std::to_string(line_no) + ": " + what);
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string s; words >> s;) w.push_back(s);
    const bool assigned = !w.empty() && w[0] == "assigned";
    if (w.size() != (assigned ? 4u : 3u)) {
      return bad("expected \"PORT_GUID INDEX ALIAS_GUID\" or \"assigned PORT_GUID INDEX GUID\", got \"" + line + "\"");
    }
    const std::size_t at = assigned ? 1 : 0;
    std::uint64_t port = 0, index = 0, alias = 0;
    if (!parse_u64(w[at], port) || port == 0) return bad("bad port GUID \"" + w[at] + "\"");
    if (!parse_u64(w[at + 1], index) || index == 0 || index > 0xFFFF) {
      return bad("bad index \"" + w[at + 1] + "\" (1..65535; entry 0 is the port GUID)");
    }
    if (!parse_u64(w[at + 2], alias) || alias == 0) return bad("bad GUID \"" + w[at + 2] + "\"");
    const auto idx = static_cast<unsigned>(index);
    if (assigned) {
      t.assigned_[{port, idx}] = alias;
    } else {
      if (t.by_alias_.count(alias)) return bad("alias " + hex(alias) + " is held twice");
      t.put(port, idx, alias);
    }
    // The counter resumes past every GUID this SM's byte has handed out.
    if ((alias >> 32) == ((kAssignedGuidOui << 8) | assign_byte)) {
      t.counter_ = std::max(t.counter_, static_cast<std::uint32_t>(alias & 0xFFFFFFFFu));
    }
  }
  return t;
}

}  // namespace smd::sa
