// SMP header codec (encode_smp / decode_smp_header) vs libibmad's IB_MAD_* and IB_DRSMP_* fields.
#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <array>
#include <cstring>
#include <random>

#include "mad/codec/smp.h"

namespace smd::mad::smp_header_test {
namespace {

using Mad = std::array<std::uint8_t, kMadSize>;

std::uint32_t get(Mad& m, MAD_FIELDS f) { return mad_get_field(m.data(), 0, f); }
std::uint64_t get64(Mad& m, MAD_FIELDS f) { return mad_get_field64(m.data(), 0, f); }

SmpRequest random_request(std::mt19937_64& rng, bool directed) {
  SmpRequest req;
  if (directed) {
    std::vector<std::uint8_t> hops(rng() % (kMaxHops + 1));
    for (auto& h : hops) h = static_cast<std::uint8_t>(1 + rng() % 254);
    req.path = DrPath(hops);
  } else {
    req.dlid = static_cast<std::uint16_t>(1 + rng() % 0xBFFF);
  }
  req.method = (rng() & 1) ? Method::kGet : Method::kSet;
  req.attr_id = static_cast<std::uint16_t>(rng());
  req.attr_mod = static_cast<std::uint32_t>(rng());
  req.m_key = rng();
  for (auto& b : req.data) b = static_cast<std::uint8_t>(rng());
  return req;
}

TEST(SmpHeader, DirectedRouteEncodeIsReadByLibibmad) {
  std::mt19937_64 rng(61);
  for (int i = 0; i < 2000; ++i) {
    const SmpRequest req = random_request(rng, true);
    const std::uint64_t tid = rng();
    Mad m;
    m.fill(0xA5);  // encode must overwrite every byte it does not use with zero
    encode_smp(req, tid, m);
    ASSERT_EQ(get(m, IB_MAD_BASEVER_F), 1u);
    ASSERT_EQ(get(m, IB_MAD_MGMTCLASS_F), 0x81u);
    ASSERT_EQ(get(m, IB_MAD_CLASSVER_F), 1u);
    ASSERT_EQ(get(m, IB_MAD_METHOD_F), static_cast<std::uint32_t>(req.method));
    ASSERT_EQ(get(m, IB_MAD_RESPONSE_F), 0u);
    ASSERT_EQ(get(m, IB_DRSMP_DIRECTION_F), 0u);
    ASSERT_EQ(get(m, IB_DRSMP_STATUS_F), 0u);
    ASSERT_EQ(get(m, IB_DRSMP_HOPPTR_F), 0u);
    ASSERT_EQ(get(m, IB_DRSMP_HOPCNT_F), req.path.hop_count());
    ASSERT_EQ(get64(m, IB_MAD_TRID_F), tid);
    ASSERT_EQ(get(m, IB_MAD_ATTRID_F), req.attr_id);
    ASSERT_EQ(get(m, IB_MAD_ATTRMOD_F), req.attr_mod);
    ASSERT_EQ(get64(m, IB_MAD_MKEY_F), req.m_key);
    ASSERT_EQ(get(m, IB_DRSMP_DRSLID_F), 0xFFFFu);
    ASSERT_EQ(get(m, IB_DRSMP_DRDLID_F), 0xFFFFu);
    std::uint8_t path[64];
    mad_get_array(m.data(), 0, IB_DRSMP_PATH_F, path);
    ASSERT_EQ(path[0], 0);
    for (unsigned h = 1; h <= req.path.hop_count(); ++h) ASSERT_EQ(path[h], req.path.hop(h)) << h;
    for (unsigned h = req.path.hop_count() + 1; h < 64; ++h) ASSERT_EQ(path[h], 0) << h;
    ASSERT_EQ(0, std::memcmp(m.data() + IB_SMP_DATA_OFFS, req.data.data(), IB_SMP_DATA_SIZE));
    for (std::size_t b = 192; b < 256; ++b) ASSERT_EQ(m[b], 0) << "return path byte " << b;
    for (std::size_t b = 36; b < 64; ++b) ASSERT_EQ(m[b], 0) << "reserved byte " << b;
  }
}

TEST(SmpHeader, LidRoutedEncodeHasNoDirectedRouteFields) {
  std::mt19937_64 rng(62);
  for (int i = 0; i < 1000; ++i) {
    const SmpRequest req = random_request(rng, false);
    const std::uint64_t tid = rng();
    Mad m;
    m.fill(0x5A);
    encode_smp(req, tid, m);
    ASSERT_EQ(get(m, IB_MAD_BASEVER_F), 1u);
    ASSERT_EQ(get(m, IB_MAD_MGMTCLASS_F), 0x01u);
    ASSERT_EQ(get(m, IB_MAD_CLASSVER_F), 1u);
    ASSERT_EQ(get(m, IB_MAD_METHOD_F), static_cast<std::uint32_t>(req.method));
    ASSERT_EQ(get(m, IB_MAD_STATUS_F), 0u);
    ASSERT_EQ(get64(m, IB_MAD_TRID_F), tid);
    ASSERT_EQ(get(m, IB_MAD_ATTRID_F), req.attr_id);
    ASSERT_EQ(get(m, IB_MAD_ATTRMOD_F), req.attr_mod);
    ASSERT_EQ(get64(m, IB_MAD_MKEY_F), req.m_key);
    for (std::size_t b = 6; b < 8; ++b) ASSERT_EQ(m[b], 0) << b;
    for (std::size_t b = 32; b < 64; ++b) ASSERT_EQ(m[b], 0) << b;
    ASSERT_EQ(0, std::memcmp(m.data() + 64, req.data.data(), 64));
    for (std::size_t b = 128; b < 256; ++b) ASSERT_EQ(m[b], 0) << b;
  }
}

TEST(SmpHeader, DecodeReadsWhatLibibmadWrote) {
  std::mt19937_64 rng(63);
  for (int i = 0; i < 2000; ++i) {
    Mad m{};
    const bool directed = rng() & 1;
    const std::uint32_t status = static_cast<std::uint32_t>(rng() & 0x7FFF);
    const bool d_bit = rng() & 1;
    mad_set_field(m.data(), 0, IB_MAD_BASEVER_F, 1);
    mad_set_field(m.data(), 0, IB_MAD_MGMTCLASS_F, directed ? 0x81 : 0x01);
    mad_set_field(m.data(), 0, IB_MAD_CLASSVER_F, 1);
    mad_set_field(m.data(), 0, IB_MAD_METHOD_F, 0x01);
    mad_set_field(m.data(), 0, IB_MAD_RESPONSE_F, 1);
    const std::uint64_t tid = rng();
    const auto attr = static_cast<std::uint16_t>(rng());
    const auto mod = static_cast<std::uint32_t>(rng());
    const std::uint64_t mkey = rng();
    mad_set_field64(m.data(), 0, IB_MAD_TRID_F, tid);
    mad_set_field(m.data(), 0, IB_MAD_ATTRID_F, attr);
    mad_set_field(m.data(), 0, IB_MAD_ATTRMOD_F, mod);
    mad_set_field64(m.data(), 0, IB_MAD_MKEY_F, mkey);
    const auto hops = static_cast<std::uint32_t>(rng() % 64);
    const auto ptr = static_cast<std::uint32_t>(rng() % 64);
    if (directed) {
      mad_set_field(m.data(), 0, IB_DRSMP_STATUS_F, status);
      mad_set_field(m.data(), 0, IB_DRSMP_DIRECTION_F, d_bit ? 1 : 0);
      mad_set_field(m.data(), 0, IB_DRSMP_HOPCNT_F, hops);
      mad_set_field(m.data(), 0, IB_DRSMP_HOPPTR_F, ptr);
      mad_set_field(m.data(), 0, IB_DRSMP_DRSLID_F, 0xFFFF);
      mad_set_field(m.data(), 0, IB_DRSMP_DRDLID_F, 0x1234);
    } else {
      mad_set_field(m.data(), 0, IB_MAD_STATUS_F, status | (d_bit ? 0x8000 : 0));
    }
    for (std::size_t b = 64; b < 128; ++b) m[b] = static_cast<std::uint8_t>(b ^ i);

    const auto h = decode_smp_header(m);
    ASSERT_TRUE(h.has_value());
    EXPECT_EQ(h->mgmt_class, directed ? 0x81 : 0x01);
    EXPECT_EQ(h->class_version, 1);
    EXPECT_EQ(h->method, 0x81);
    EXPECT_EQ(h->tid, tid);
    EXPECT_EQ(tid_low(h->tid), static_cast<std::uint32_t>(tid & 0xFFFFFFFFu));
    EXPECT_EQ(mad_tid(m), tid);
    EXPECT_EQ(h->attr_id, attr);
    EXPECT_EQ(h->attr_mod, mod);
    EXPECT_EQ(h->m_key, mkey);
    if (directed) {
      EXPECT_EQ(h->status, status) << "D bit must be masked off";
      EXPECT_EQ(h->direction_inbound, d_bit);
      EXPECT_EQ(h->hop_count, hops);
      EXPECT_EQ(h->hop_pointer, ptr);
      EXPECT_EQ(h->dr_slid, 0xFFFF);
      EXPECT_EQ(h->dr_dlid, 0x1234);
    } else {
      EXPECT_EQ(h->status, status | (d_bit ? 0x8000u : 0u)) << "LID routed: all 16 status bits";
      EXPECT_FALSE(h->direction_inbound);
    }
    const SmpData data = smp_data(m);
    for (std::size_t b = 0; b < 64; ++b) ASSERT_EQ(data[b], m[64 + b]);
  }
}

TEST(SmpHeader, NonSmpClassesAreRejected) {
  Mad m{};
  m[0] = 1;
  for (std::uint8_t cls : {0x03, 0x04, 0x06, 0x80, 0x00}) {
    m[1] = cls;
    EXPECT_FALSE(decode_smp_header(m).has_value()) << int(cls);
  }
}

TEST(SmpHeader, DirectedRouteAbove63HopsIsRejected) {
  Mad m{};
  m[0] = 1;
  m[1] = kClassSmiDirect;
  m[7] = 63;  // HopCount: the longest route the 64-entry path arrays can hold (IBA 14.2.2)
  ASSERT_TRUE(decode_smp_header(m).has_value());
  EXPECT_EQ(decode_smp_header(m)->hop_count, 63);
  for (std::uint8_t hops : {64, 100, 255}) {
    m[7] = hops;
    EXPECT_FALSE(decode_smp_header(m).has_value()) << int(hops);
  }
  m[1] = kClassSmiLid;  // LID-routed SMPs carry no hop count: byte 7 is not looked at
  EXPECT_TRUE(decode_smp_header(m).has_value());
}

TEST(SmpHeader, ResponseToDirectedRouteGetSetsDBitAndKeepsPaths) {
  std::mt19937_64 rng(64);
  SmpRequest req = random_request(rng, true);
  Mad m{};
  encode_smp(req, 0x1122334455667788ull, m);
  m[6] = static_cast<std::uint8_t>(req.path.hop_count() + 1);  // as it arrives at the destination
  SmpData answer{};
  answer[0] = 0x42;
  Mad out{};
  make_smp_response(m, 0x001C, answer, out);
  EXPECT_EQ(mad_get_field(out.data(), 0, IB_MAD_METHOD_F), 0x01u);
  EXPECT_EQ(mad_get_field(out.data(), 0, IB_MAD_RESPONSE_F), 1u);
  EXPECT_EQ(mad_get_field(out.data(), 0, IB_DRSMP_DIRECTION_F), 1u);
  EXPECT_EQ(mad_get_field(out.data(), 0, IB_DRSMP_STATUS_F), 0x001Cu);
  EXPECT_EQ(mad_get_field64(out.data(), 0, IB_MAD_TRID_F), 0x1122334455667788ull);
  EXPECT_EQ(mad_get_field(out.data(), 0, IB_DRSMP_HOPPTR_F), req.path.hop_count() + 1);
  EXPECT_EQ(out[64], 0x42);
  EXPECT_EQ(0, std::memcmp(out.data() + 128, m.data() + 128, 128));
}

}  // namespace
}  // namespace smd::mad::smp_header_test
