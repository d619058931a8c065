// DrPath: a directed route as the out-port taken at each hop (IBA 14.2.2: InitialPath[1..HopCount]).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace smd::mad {

/// At most 63 hops: the SMP's InitialPath field has 64 bytes and index 0 is unused.
inline constexpr unsigned kMaxHops = 63;

class DrPath {
 public:
  DrPath() = default;
  /// From out-ports; more than 63 hops is a programming error (checked by the caller via can_extend()).
  explicit DrPath(const std::vector<std::uint8_t>& hops) {
    for (auto h : hops) push(h);
  }
  unsigned hop_count() const { return count_; }
  /// Out-port at hop i (1-based, as in the SMP's InitialPath).
  std::uint8_t hop(unsigned i) const { return path_[i]; }
  bool can_extend() const { return count_ < kMaxHops; }
  /// This path plus one more hop out of `port`.
  DrPath extended(std::uint8_t port) const {
    DrPath p = *this;
    p.push(port);
    return p;
  }
  std::vector<std::uint8_t> hops() const { return {path_.begin() + 1, path_.begin() + 1 + count_}; }
  /// The 64-byte InitialPath field (index 0 = 0).
  const std::array<std::uint8_t, 64>& initial_path() const { return path_; }
  /// "0,1,5" as OpenSM prints directed paths.
  std::string to_string() const {
    std::string s = "0";
    for (unsigned i = 1; i <= count_; ++i) s += "," + std::to_string(path_[i]);
    return s;
  }
  bool operator==(const DrPath&) const = default;

 private:
  void push(std::uint8_t port) {
    if (count_ < kMaxHops) path_[++count_] = port;
  }
  std::array<std::uint8_t, 64> path_{};
  std::uint8_t count_ = 0;
};

}  // namespace smd::mad
