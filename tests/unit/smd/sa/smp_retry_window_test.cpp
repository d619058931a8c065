// SmpRetryWindow: the TIDs, re-sends, give-ups and answer matching shared by TableCache and AliasWriter.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "mad/transport/umad_transport.h"
#include "smd/sa/smp_retry_window.h"

namespace smd::sa::smp_retry_window_test {
namespace {

using Mad = std::array<std::uint8_t, mad::kMadSize>;
using Window = SmpRetryWindow<int, std::string>;

struct Wire {
  std::vector<Mad> sent;
  std::vector<Lid> to;
  SaSmpSend send() {
    return [this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid lid) {
      Mad copy{};
      std::copy(smp.begin(), smp.end(), copy.begin());
      sent.push_back(copy);
      to.push_back(lid);
      return -5;  // a failed send must change nothing: the deadline re-sends it
    };
  }
};

Mad answer_to(const Mad& smp) {
  Mad resp{};
  mad::make_smp_response(smp, 0, mad::SmpData{}, resp);
  return resp;
}

mad::SmpRequest get_of(std::uint32_t attr_mod) {
  mad::SmpRequest req;
  req.method = mad::Method::kGet;
  req.attr_id = 0x17;
  req.attr_mod = attr_mod;
  return req;
}

// Two re-sends allowed: three SMPs go out, each with a new TID carrying the caller's bits, the M_Key and
// LID as given; the fourth deadline gives the key up and hands its payload back.
TEST(SmpRetryWindow, ResendsWithNewTidsThenGivesUpWithThePayload) {
  Wire wire;
  const std::uint32_t bits = mad::kSaTidBit | kSaWriteTidBit;
  Window w(wire.send(), bits, 0x1122334455667788ull, std::chrono::milliseconds(100), 2);
  auto now = Window::Clock::time_point{} + std::chrono::seconds(1);
  w.start(7, 0x0042, get_of(3), "seven", now);
  EXPECT_EQ(w.earliest_deadline(), now + std::chrono::milliseconds(100));
  EXPECT_TRUE(w.expire(now + std::chrono::milliseconds(99)).empty());
  EXPECT_EQ(wire.sent.size(), 1u) << "not due yet";
  for (int i = 1; i <= 2; ++i) {
    now += std::chrono::milliseconds(100);
    EXPECT_TRUE(w.expire(now).empty());
    ASSERT_EQ(wire.sent.size(), static_cast<std::size_t>(i + 1));
  }
  std::vector<std::uint32_t> tids;
  for (std::size_t i = 0; i < wire.sent.size(); ++i) {
    const auto h = mad::decode_smp_header(wire.sent[i]);
    ASSERT_TRUE(h);
    tids.push_back(mad::tid_low(h->tid));
    EXPECT_EQ(tids.back() & bits, bits);
    EXPECT_EQ(h->m_key, 0x1122334455667788ull);
    EXPECT_EQ(h->attr_mod, 3u);
    EXPECT_EQ(wire.to[i], 0x0042);
  }
  EXPECT_NE(tids[0], tids[1]);
  EXPECT_NE(tids[1], tids[2]);
  EXPECT_FALSE(w.take_answer(answer_to(wire.sent[0]))) << "the answer to a re-sent SMP's old TID is late";
  EXPECT_TRUE(w.contains(7));
  now += std::chrono::milliseconds(100);
  const auto gave_up = w.expire(now);
  ASSERT_EQ(gave_up.size(), 1u);
  EXPECT_EQ(gave_up[0].first, 7);
  EXPECT_EQ(gave_up[0].second, "seven");
  EXPECT_EQ(wire.sent.size(), 3u);
  EXPECT_EQ(w.size(), 0u);
  EXPECT_FALSE(w.earliest_deadline());
  EXPECT_FALSE(w.take_answer(answer_to(wire.sent[2]))) << "given up: its answer matches nothing";
}

// An answer ends exactly the key it was sent for, with that key's payload; the others stay in flight.
TEST(SmpRetryWindow, AnAnswerEndsItsOwnKey) {
  Wire wire;
  Window w(wire.send(), mad::kSaTidBit, 0, std::chrono::milliseconds(50), 0);
  const auto now = Window::Clock::time_point{} + std::chrono::seconds(1);
  for (int k = 0; k < 3; ++k) w.start(k, static_cast<Lid>(10 + k), get_of(k), "p" + std::to_string(k), now);
  EXPECT_EQ(w.size(), 3u);
  const auto got = w.take_answer(answer_to(wire.sent[1]));
  ASSERT_TRUE(got);
  EXPECT_EQ(got->first, 1);
  EXPECT_EQ(got->second, "p1");
  EXPECT_FALSE(w.contains(1));
  EXPECT_TRUE(w.contains(0));
  EXPECT_TRUE(w.contains(2));
  EXPECT_FALSE(w.take_answer(answer_to(wire.sent[1]))) << "a duplicate answer";
  w.clear();
  EXPECT_FALSE(w.take_answer(answer_to(wire.sent[0]))) << "cleared";
  EXPECT_EQ(w.size(), 0u);
}

}  // namespace
}  // namespace smd::sa::smp_retry_window_test
