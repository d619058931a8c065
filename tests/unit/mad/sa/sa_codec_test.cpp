// SA wire codecs against libibmad's field tables (rdma-core libibmad/fields.c, written from the IBA spec by
// other people) and, where libibmad has no field, against the byte/bit offsets of SA-NOTES.md §6 written
// out here. MAD-level fields (IB_MAD_*, IB_SA_MKEY/ATTROFFS/COMPMASK, IB_SA_RMPP_*) are offsets into the
// whole 256-byte MAD; record fields (IB_SA_PR_*, IB_SA_NR_*, ...) into the record, which starts at
// IB_SA_DATA_OFFS (56) of the MAD.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "mad/codec/port_info.h"
#include "mad/sa/class_port_info.h"
#include "mad/sa/inform_info.h"
#include "mad/sa/node_record.h"
#include "mad/sa/path_record.h"
#include "mad/sa/port_info_record.h"
#include "mad/sa/sa_mad.h"
#include "mad/sa/service_record.h"
#include "mad/sa/table_records.h"
#include "tests/unit/smd/sa/sa_test_bits.h"

namespace smd::mad::sa::sa_codec_test {
namespace {

using smd::sa::testing::bit_range;
using smd::sa::testing::ib_get;
using smd::sa::testing::ib_set;
using smd::sa::testing::set_bit_list;
using smd::sa::testing::set_bits;

TEST(SaCodec, LibibmadConstantsAgreeWithOurs) {
  EXPECT_EQ(kHeaderSize, static_cast<std::size_t>(IB_SA_DATA_OFFS));
  EXPECT_EQ(kDataSize, static_cast<std::size_t>(IB_SA_DATA_SIZE));
  EXPECT_EQ(kMadSize, static_cast<std::size_t>(IB_MAD_SIZE));
  EXPECT_EQ(PathRecord::kSize, static_cast<std::size_t>(IB_SA_PR_RECSZ));
  EXPECT_EQ(NodeRecord::kSize, static_cast<std::size_t>(IB_SA_NR_RECSZ));
  EXPECT_EQ(kGuidInfoRecord.layout.size, static_cast<std::size_t>(IB_SA_GIR_RECSZ));
  EXPECT_EQ(method::kGetTable, IB_MAD_METHOD_GET_TABLE);
  EXPECT_EQ(method::kGetTableResp, IB_MAD_METHOD_GET_TABLE_RESPONSE);
  EXPECT_EQ(method::kDeleteResp, IB_MAD_METHOD_DELETE_RESPONSE);
  EXPECT_EQ(method::kReportResp, IB_MAD_METHOD_REPORT_RESPONSE);
  EXPECT_EQ(attr::kPathRecord, IB_SA_ATTR_PATHRECORD);
  EXPECT_EQ(attr::kInformInfoRecord, IB_SA_ATTR_INFORMINFORECORD);
  EXPECT_EQ(status::kMethodAttrUnsupported, IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
  EXPECT_EQ(status::kMethodUnsupported, IB_MAD_STS_METHOD_NOT_SUPPORTED);
  EXPECT_EQ(status::kBadVersion, IB_MAD_STS_BAD_BASE_VER_OR_CLASS);
}

SaHeader random_header(std::mt19937_64& rng) {
  SaHeader h;
  h.base_version = static_cast<std::uint8_t>(rng());
  h.mgmt_class = static_cast<std::uint8_t>(rng());
  h.class_version = static_cast<std::uint8_t>(rng());
  h.method = static_cast<std::uint8_t>(rng());
  h.status = static_cast<std::uint16_t>(rng());
  h.class_specific = static_cast<std::uint16_t>(rng());
  h.tid = rng();
  h.attr_id = static_cast<std::uint16_t>(rng());
  h.attr_mod = static_cast<std::uint32_t>(rng());
  h.rmpp.version = static_cast<std::uint8_t>(rng());
  h.rmpp.type = static_cast<std::uint8_t>(rng());
  h.rmpp.resp_time = static_cast<std::uint8_t>(rng() & 0x1F);
  h.rmpp.flags = static_cast<std::uint8_t>(rng() & 0x7);
  h.rmpp.status = static_cast<std::uint8_t>(rng());
  h.rmpp.segment_number = static_cast<std::uint32_t>(rng());
  h.rmpp.payload_length = static_cast<std::uint32_t>(rng());
  h.sm_key = rng();
  h.attr_offset = static_cast<std::uint16_t>(rng());
  h.comp_mask = rng();
  return h;
}

TEST(SaCodec, HeaderEncodeIsReadBackByLibibmad) {
  std::mt19937_64 rng(301);
  for (int i = 0; i < 500; ++i) {
    const SaHeader h = random_header(rng);
    std::array<std::uint8_t, kMadSize> mad{};
    h.encode(mad);
    ASSERT_EQ(ib_get(mad, IB_MAD_BASEVER_F), h.base_version);
    ASSERT_EQ(ib_get(mad, IB_MAD_MGMTCLASS_F), h.mgmt_class);
    ASSERT_EQ(ib_get(mad, IB_MAD_CLASSVER_F), h.class_version);
    ASSERT_EQ(ib_get(mad, IB_MAD_METHOD_F), h.method & 0x7Fu);
    ASSERT_EQ(ib_get(mad, IB_MAD_RESPONSE_F), h.method >> 7);
    ASSERT_EQ(ib_get(mad, IB_MAD_STATUS_F), h.status);
    ASSERT_EQ(ib_get(mad, IB_MAD_TRID_F, true), h.tid);
    ASSERT_EQ(ib_get(mad, IB_MAD_ATTRID_F), h.attr_id);
    ASSERT_EQ(ib_get(mad, IB_MAD_ATTRMOD_F), h.attr_mod);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_VERS_F), h.rmpp.version);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_TYPE_F), h.rmpp.type);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_RESP_F), h.rmpp.resp_time);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_FLAGS_F), h.rmpp.flags);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_STATUS_F), h.rmpp.status);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_SEGNUM_F), h.rmpp.segment_number);
    ASSERT_EQ(ib_get(mad, IB_SA_RMPP_LEN_F), h.rmpp.payload_length);
    ASSERT_EQ(ib_get(mad, IB_SA_MKEY_F, true), h.sm_key);
    ASSERT_EQ(ib_get(mad, IB_SA_ATTROFFS_F), h.attr_offset);
    ASSERT_EQ(ib_get(mad, IB_SA_COMPMASK_F, true), h.comp_mask);
    // Reserved: bytes 18..19 and 46..47.
    ASSERT_EQ(mad[18] | mad[19] | mad[46] | mad[47], 0);
    const auto back = SaHeader::decode(mad);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(back->tid, h.tid);
    ASSERT_EQ(back->rmpp.resp_time, h.rmpp.resp_time);
    ASSERT_EQ(back->rmpp.flags, h.rmpp.flags);
    ASSERT_EQ(back->comp_mask, h.comp_mask);
    ASSERT_EQ(back->sm_key, h.sm_key);
  }
}

TEST(SaCodec, HeaderDecodeReadsWhatLibibmadWrites) {
  std::array<std::uint8_t, kMadSize> mad{};
  ib_set(mad, IB_MAD_BASEVER_F, 1);
  ib_set(mad, IB_MAD_MGMTCLASS_F, 3);
  ib_set(mad, IB_MAD_CLASSVER_F, 2);
  ib_set(mad, IB_MAD_METHOD_F, 0x12);
  ib_set(mad, IB_MAD_RESPONSE_F, 1);
  ib_set(mad, IB_MAD_STATUS_F, 0x0300);
  ib_set(mad, IB_MAD_TRID_F, 0x0102030405060708ull, true);
  ib_set(mad, IB_MAD_ATTRID_F, 0x35);
  ib_set(mad, IB_MAD_ATTRMOD_F, 0xA0B0C0D0u);
  ib_set(mad, IB_SA_RMPP_VERS_F, 1);
  ib_set(mad, IB_SA_RMPP_TYPE_F, 1);
  ib_set(mad, IB_SA_RMPP_RESP_F, 0x1B);
  ib_set(mad, IB_SA_RMPP_FLAGS_F, 0x5);
  ib_set(mad, IB_SA_RMPP_STATUS_F, 0x77);
  ib_set(mad, IB_SA_RMPP_SEGNUM_F, 9);
  ib_set(mad, IB_SA_RMPP_LEN_F, 420);
  ib_set(mad, IB_SA_MKEY_F, 0x1122334455667788ull, true);
  ib_set(mad, IB_SA_ATTROFFS_F, 14);
  ib_set(mad, IB_SA_COMPMASK_F, 0x8000000000000031ull, true);
  const auto h = SaHeader::decode(mad);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->base_version, 1);
  EXPECT_EQ(h->mgmt_class, 3);
  EXPECT_EQ(h->class_version, 2);
  EXPECT_EQ(h->method, 0x92);
  EXPECT_EQ(h->status, 0x0300);
  EXPECT_EQ(h->tid, 0x0102030405060708ull);
  EXPECT_EQ(h->attr_id, 0x35);
  EXPECT_EQ(h->attr_mod, 0xA0B0C0D0u);
  EXPECT_EQ(h->rmpp.version, 1);
  EXPECT_EQ(h->rmpp.type, 1);
  EXPECT_EQ(h->rmpp.resp_time, 0x1B);
  EXPECT_EQ(h->rmpp.flags, 0x5);
  EXPECT_EQ(h->rmpp.status, 0x77);
  EXPECT_EQ(h->rmpp.segment_number, 9u);
  EXPECT_EQ(h->rmpp.payload_length, 420u);
  EXPECT_EQ(h->sm_key, 0x1122334455667788ull);
  EXPECT_EQ(h->attr_offset, 14);
  EXPECT_EQ(h->comp_mask, 0x8000000000000031ull);
}

TEST(SaCodec, HeaderDecodeNeedsFiftySixBytes) {
  std::array<std::uint8_t, kHeaderSize> mad{};
  EXPECT_FALSE(SaHeader::decode(std::span<const std::uint8_t>(mad.data(), kHeaderSize - 1)).has_value());
  EXPECT_TRUE(SaHeader::decode(mad).has_value());
  EXPECT_FALSE(SaHeader::decode({}).has_value());
}

TEST(SaCodec, AttrOffsetRoundsUpToEightByteWords) {
  EXPECT_EQ(attr_offset_of(108), 14);
  EXPECT_EQ(attr_offset_of(64), 8);
  EXPECT_EQ(attr_offset_of(176), 22);
  EXPECT_EQ(attr_offset_of(53), 7);
  EXPECT_EQ(attr_offset_of(8), 1);
  EXPECT_EQ(attr_offset_of(0), 0);
}

// ---- PathRecord ----

Gid gid_of(std::span<const std::uint8_t> rec, MAD_FIELDS f) {
  Gid g{};
  mad_get_array(const_cast<std::uint8_t*>(rec.data()), 0, f, g.data());
  return g;
}

TEST(SaCodec, PathRecordAgreesWithLibibmad) {
  std::mt19937_64 rng(302);
  for (int i = 0; i < 500; ++i) {
    std::array<std::uint8_t, PathRecord::kSize> rec{};
    for (auto& b : rec) b = static_cast<std::uint8_t>(rng());
    const PathRecord r = PathRecord::decode(rec);
    ASSERT_EQ(r.dgid, gid_of(rec, IB_SA_PR_DGID_F));
    ASSERT_EQ(r.sgid, gid_of(rec, IB_SA_PR_SGID_F));
    ASSERT_EQ(r.dlid, ib_get(rec, IB_SA_PR_DLID_F));
    ASSERT_EQ(r.slid, ib_get(rec, IB_SA_PR_SLID_F));
    ASSERT_EQ(r.numb_path, ib_get(rec, IB_SA_PR_NPATH_F));
    ASSERT_EQ(r.sl, ib_get(rec, IB_SA_PR_SL_F));
    std::array<std::uint8_t, PathRecord::kSize> out{};
    r.encode(out);
    ASSERT_EQ(gid_of(out, IB_SA_PR_DGID_F), r.dgid);
    ASSERT_EQ(gid_of(out, IB_SA_PR_SGID_F), r.sgid);
    ASSERT_EQ(ib_get(out, IB_SA_PR_DLID_F), r.dlid);
    ASSERT_EQ(ib_get(out, IB_SA_PR_SLID_F), r.slid);
    ASSERT_EQ(ib_get(out, IB_SA_PR_NPATH_F), r.numb_path);
    ASSERT_EQ(ib_get(out, IB_SA_PR_SL_F), r.sl);
    // Every non-reserved bit survives decode/encode; reserved bits (44 bits 1..3, 58..63) come out 0.
    auto expect = rec;
    expect[44] &= 0x8F;
    for (std::size_t b = 58; b < 64; ++b) expect[b] = 0;
    ASSERT_EQ(out, expect) << "iteration " << i;
  }
}

// One PathRecord field as SA-NOTES §6 places it, and the ComponentMask bit that selects it.
struct PrField {
  const char* name;
  unsigned mask_bit;
  std::size_t byte;
  unsigned msb;
  unsigned width;
  void (*set)(PathRecord&, std::uint64_t);
  std::uint64_t (*get)(const PathRecord&);
};

#define PR_FIELD(name, bit, byte, msb, width, member)                                          \
  PrField {                                                                                    \
    name, bit, byte, msb, width,                                                               \
        [](PathRecord& r, std::uint64_t v) { r.member = static_cast<decltype(r.member)>(v); }, \
        [](const PathRecord& r) { return static_cast<std::uint64_t>(r.member); }               \
  }

std::vector<PrField> pr_fields() {
  return {
      PR_FIELD("DLID", 4, 40, 0, 16, dlid),
      PR_FIELD("SLID", 5, 42, 0, 16, slid),
      PR_FIELD("RawTraffic", 6, 44, 0, 1, raw_traffic),
      PR_FIELD("FlowLabel", 8, 44, 4, 20, flow_label),
      PR_FIELD("HopLimit", 9, 47, 0, 8, hop_limit),
      PR_FIELD("TClass", 10, 48, 0, 8, tclass),
      PR_FIELD("Reversible", 11, 49, 0, 1, reversible),
      PR_FIELD("NumbPath", 12, 49, 1, 7, numb_path),
      PR_FIELD("P_Key", 13, 50, 0, 16, pkey),
      PR_FIELD("QoSClass", 14, 52, 0, 12, qos_class),
      PR_FIELD("SL", 15, 53, 4, 4, sl),
      PR_FIELD("MTUSelector", 16, 54, 0, 2, mtu_selector),
      PR_FIELD("MTU", 17, 54, 2, 6, mtu),
      PR_FIELD("RateSelector", 18, 55, 0, 2, rate_selector),
      PR_FIELD("Rate", 19, 55, 2, 6, rate),
      PR_FIELD("PacketLifeTimeSelector", 20, 56, 0, 2, packet_life_selector),
      PR_FIELD("PacketLifeTime", 21, 56, 2, 6, packet_life),
      PR_FIELD("Preference", 22, 57, 0, 8, preference),
  };
}

TEST(SaCodec, PathRecordFieldsSitWhereTheNotesSay) {
  const std::vector<PrField> fields = pr_fields();
  for (const PrField& f : fields) {
    const std::uint64_t ones = f.width == 1 ? 1 : (std::uint64_t{1} << f.width) - 1;
    PathRecord r;
    f.set(r, ones);
    std::array<std::uint8_t, PathRecord::kSize> out{};
    r.encode(out);
    EXPECT_EQ(set_bit_list(out), bit_range(f.byte * 8 + f.msb, f.width)) << f.name << " encode";
    // The ComponentMask bit of the field covers exactly those bits.
    ASSERT_LT(f.mask_bit, kPathRecordLayout.fields.size());
    EXPECT_EQ(kPathRecordLayout.fields[f.mask_bit].bit_offset, f.byte * 8 + f.msb) << f.name;
    EXPECT_EQ(kPathRecordLayout.fields[f.mask_bit].bit_width, f.width) << f.name;
    // Decode: those bits alone give the field all ones and every other field zero.
    std::array<std::uint8_t, PathRecord::kSize> in{};
    set_bits(in, f.byte, f.msb, f.width);
    const PathRecord d = PathRecord::decode(in);
    for (const PrField& g : fields) {
      EXPECT_EQ(g.get(d), &g == &f ? ones : 0) << "set " << f.name << ", read " << g.name;
    }
  }
  // ServiceID: bits 0 (MSB half) and 1 (LSB half), big-endian at 0..7.
  PathRecord r;
  r.service_id = 0x0123456789ABCDEFull;
  std::array<std::uint8_t, PathRecord::kSize> out{};
  r.encode(out);
  EXPECT_EQ(out[0], 0x01);
  EXPECT_EQ(out[3], 0x67);
  EXPECT_EQ(out[4], 0x89);
  EXPECT_EQ(out[7], 0xEF);
  EXPECT_EQ(kPathRecordLayout.fields[0].bit_offset, 0);
  EXPECT_EQ(kPathRecordLayout.fields[0].bit_width, 32);
  EXPECT_EQ(kPathRecordLayout.fields[1].bit_offset, 32);
  EXPECT_EQ(kPathRecordLayout.fields[1].bit_width, 32);
  EXPECT_EQ(PathRecord::decode(out).service_id, 0x0123456789ABCDEFull);
  // DGID bit 2 at 8..23, SGID bit 3 at 24..39.
  EXPECT_EQ(kPathRecordLayout.fields[2].bit_offset, 64);
  EXPECT_EQ(kPathRecordLayout.fields[2].bit_width, 128);
  EXPECT_EQ(kPathRecordLayout.fields[3].bit_offset, 192);
  EXPECT_EQ(kPathRecordLayout.fields[3].bit_width, 128);
}

TEST(SaCodec, GidHelpers) {
  const Gid g = make_gid(0xFE80000000000000ull, 0x0002C90300A1B2C3ull);
  EXPECT_EQ(g[0], 0xFE);
  EXPECT_EQ(g[1], 0x80);
  EXPECT_EQ(g[8], 0x00);
  EXPECT_EQ(g[9], 0x02);
  EXPECT_EQ(g[15], 0xC3);
  EXPECT_EQ(gid_prefix(g), 0xFE80000000000000ull);
  EXPECT_EQ(gid_guid(g), 0x0002C90300A1B2C3ull);
}

// ---- NodeRecord ----

TEST(SaCodec, NodeRecordAgreesWithLibibmad) {
  std::mt19937_64 rng(303);
  for (int i = 0; i < 300; ++i) {
    NodeRecord r;
    r.lid = static_cast<std::uint16_t>(rng());
    for (auto& b : r.node_info) b = static_cast<std::uint8_t>(rng());
    for (auto& b : r.description) b = static_cast<std::uint8_t>(rng());
    std::array<std::uint8_t, NodeRecord::kSize> rec{};
    r.encode(rec);
    const auto& ni = r.node_info;
    auto be = [&](std::size_t at, std::size_t n) {
      std::uint64_t v = 0;
      for (std::size_t k = 0; k < n; ++k) v = (v << 8) | ni[at + k];
      return v;
    };
    ASSERT_EQ(ib_get(rec, IB_SA_NR_LID_F), r.lid);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_BASEVER_F), ni[0]);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_CLASSVER_F), ni[1]);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_TYPE_F), ni[2]);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_NPORTS_F), ni[3]);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_SYSTEM_GUID_F, true), be(4, 8));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_GUID_F, true), be(12, 8));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_PORT_GUID_F, true), be(20, 8));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_PARTITION_CAP_F), be(28, 2));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_DEVID_F), be(30, 2));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_REVISION_F), be(32, 4));
    ASSERT_EQ(ib_get(rec, IB_SA_NR_LOCAL_PORT_F), ni[36]);
    ASSERT_EQ(ib_get(rec, IB_SA_NR_VENDORID_F), be(37, 3));
    std::array<std::uint8_t, 64> desc{};
    mad_get_array(rec.data(), 0, IB_SA_NR_NODEDESC_F, desc.data());
    ASSERT_EQ(desc, r.description);
    ASSERT_EQ(rec[2] | rec[3], 0) << "reserved";
    const NodeRecord back = NodeRecord::decode(rec);
    ASSERT_EQ(back.lid, r.lid);
    ASSERT_TRUE(std::equal(back.node_info.begin(), back.node_info.begin() + 40, r.node_info.begin()));
    ASSERT_EQ(back.description, r.description);
  }
}

TEST(SaCodec, NodeRecordComponentBitsCoverTheLibibmadFields) {
  // Bit n of the ComponentMask (IBA 15.2.5.2: 0 LID, 1 reserved, 2.. NodeInfo fields, 14 NodeDescription).
  const std::pair<unsigned, MAD_FIELDS> cases[] = {
      {0, IB_SA_NR_LID_F},       {2, IB_SA_NR_BASEVER_F},   {3, IB_SA_NR_CLASSVER_F},
      {4, IB_SA_NR_TYPE_F},      {5, IB_SA_NR_NPORTS_F},    {6, IB_SA_NR_SYSTEM_GUID_F},
      {7, IB_SA_NR_GUID_F},      {8, IB_SA_NR_PORT_GUID_F}, {9, IB_SA_NR_PARTITION_CAP_F},
      {10, IB_SA_NR_DEVID_F},    {11, IB_SA_NR_REVISION_F}, {12, IB_SA_NR_LOCAL_PORT_F},
      {13, IB_SA_NR_VENDORID_F},
  };
  ASSERT_EQ(kNodeRecordLayout.fields.size(), 15u);
  for (const auto& [bit, f] : cases) {
    std::array<std::uint8_t, NodeRecord::kSize> rec{};
    const auto& span = kNodeRecordLayout.fields[bit];
    ib_set(rec, f, ~0ull, span.bit_width > 32);
    EXPECT_EQ(set_bit_list(rec), bit_range(span.bit_offset, span.bit_width)) << "bit " << bit;
  }
  EXPECT_EQ(kNodeRecordLayout.fields[14].bit_offset, 44 * 8);
  EXPECT_EQ(kNodeRecordLayout.fields[14].bit_width, 64 * 8);
}

// ---- ServiceRecord ----

TEST(SaCodec, ServiceRecordAgreesWithLibibmad) {
  std::mt19937_64 rng(304);
  for (int i = 0; i < 300; ++i) {
    std::array<std::uint8_t, ServiceRecord::kSize> rec{};
    for (auto& b : rec) b = static_cast<std::uint8_t>(rng());
    const ServiceRecord r = ServiceRecord::decode(rec);
    ASSERT_EQ(r.service_id(), ib_get(rec, IB_SA_SR_ID_F, true));
    Gid g{};
    mad_get_array(rec.data(), 0, IB_SA_SR_GID_F, g.data());
    ASSERT_EQ(r.service_gid(), g);
    ASSERT_EQ(r.service_pkey(), ib_get(rec, IB_SA_SR_PKEY_F));
    ASSERT_EQ(r.service_lease(), ib_get(rec, IB_SA_SR_LEASE_F));
    std::array<char, 64> name{};
    mad_get_array(rec.data(), 0, IB_SA_SR_NAME_F, name.data());
    const std::string expect_name(name.data(), strnlen(name.data(), name.size()));
    ASSERT_EQ(r.service_name(), expect_name);
    // libibmad's ServiceKey (16 B at 32) and ServiceData (64 B at 112) are our bytes unchanged.
    std::array<std::uint8_t, 16> key{};
    mad_get_array(rec.data(), 0, IB_SA_SR_KEY_F, key.data());
    ASSERT_TRUE(std::equal(key.begin(), key.end(), r.bytes.begin() + 32));
    std::array<std::uint8_t, 64> data{};
    mad_get_array(rec.data(), 0, IB_SA_SR_DATA_F, data.data());
    ASSERT_TRUE(std::equal(data.begin(), data.end(), r.bytes.begin() + 112));
    ServiceRecord s = r;
    s.set_service_lease(0x01020304u);
    std::array<std::uint8_t, ServiceRecord::kSize> out{};
    s.encode(out);
    ASSERT_EQ(ib_get(out, IB_SA_SR_LEASE_F), 0x01020304u);
    ASSERT_EQ(out[26] | out[27], 0) << "reserved";
  }
}

TEST(SaCodec, ServiceRecordComponentBits) {
  const std::pair<unsigned, MAD_FIELDS> cases[] = {{0, IB_SA_SR_ID_F}, {2, IB_SA_SR_PKEY_F}, {4, IB_SA_SR_LEASE_F}};
  for (const auto& [bit, f] : cases) {
    std::array<std::uint8_t, ServiceRecord::kSize> rec{};
    const auto& span = kServiceRecordLayout.fields[bit];
    ib_set(rec, f, ~0ull, span.bit_width > 32);
    EXPECT_EQ(set_bit_list(rec), bit_range(span.bit_offset, span.bit_width)) << "bit " << bit;
  }
  // 1 GID at 8, 5 Key at 32, 6 Name at 48, 7..22 Data8, 23..30 Data16, 31..34 Data32, 35..36 Data64.
  const std::tuple<unsigned, unsigned, unsigned> spans[] = {
      {1, 8, 16},   {5, 32, 16},  {6, 48, 64},  {7, 112, 1},  {22, 127, 1}, {23, 128, 2},
      {30, 142, 2}, {31, 144, 4}, {34, 156, 4}, {35, 160, 8}, {36, 168, 8},
  };
  ASSERT_EQ(kServiceRecordLayout.fields.size(), 37u);
  for (const auto& [bit, byte, len] : spans) {
    EXPECT_EQ(kServiceRecordLayout.fields[bit].bit_offset, byte * 8) << "bit " << bit;
    EXPECT_EQ(kServiceRecordLayout.fields[bit].bit_width, len * 8) << "bit " << bit;
  }
}

// ---- GUIDInfoRecord ----

TEST(SaCodec, GuidInfoRecordAgreesWithLibibmad) {
  std::mt19937_64 rng(305);
  const MAD_FIELDS guid_f[] = {IB_SA_GIR_GUID0_F, IB_SA_GIR_GUID1_F, IB_SA_GIR_GUID2_F, IB_SA_GIR_GUID3_F,
                               IB_SA_GIR_GUID4_F, IB_SA_GIR_GUID5_F, IB_SA_GIR_GUID6_F, IB_SA_GIR_GUID7_F};
  for (int i = 0; i < 200; ++i) {
    TableRecord r;
    r.lid = static_cast<std::uint16_t>(rng());
    r.key[0] = static_cast<std::uint8_t>(rng());
    for (auto& b : r.payload) b = static_cast<std::uint8_t>(rng());
    std::array<std::uint8_t, 72> rec{};
    r.encode(kGuidInfoRecord, rec);
    ASSERT_EQ(ib_get(rec, IB_SA_GIR_LID_F), r.lid);
    ASSERT_EQ(ib_get(rec, IB_SA_GIR_BLOCKNUM_F), r.key[0]);
    for (int g = 0; g < 8; ++g) {
      std::uint64_t v = 0;
      for (int k = 0; k < 8; ++k) v = (v << 8) | r.payload[static_cast<std::size_t>(8 * g + k)];
      ASSERT_EQ(ib_get(rec, guid_f[g], true), v) << "GUID" << g;
    }
    const TableRecord back = TableRecord::decode(kGuidInfoRecord, rec);
    ASSERT_EQ(back.lid, r.lid);
    ASSERT_EQ(back.key[0], r.key[0]);
    ASSERT_EQ(back.payload, r.payload);
  }
  // ComponentMask: 0 LID, 1 BlockNum, 2..3 reserved, 4..11 GUID0..7.
  ASSERT_EQ(kGuidInfoRecord.layout.fields.size(), 12u);
  for (int g = 0; g < 8; ++g) {
    std::array<std::uint8_t, 72> rec{};
    ib_set(rec, guid_f[g], ~0ull, true);
    const auto& span = kGuidInfoRecord.layout.fields[static_cast<std::size_t>(4 + g)];
    EXPECT_EQ(set_bit_list(rec), bit_range(span.bit_offset, span.bit_width)) << "GUID" << g;
  }
  std::array<std::uint8_t, 72> rec{};
  ib_set(rec, IB_SA_GIR_BLOCKNUM_F, 0xFF);
  const auto& span = kGuidInfoRecord.layout.fields[1];
  EXPECT_EQ(set_bit_list(rec), bit_range(span.bit_offset, span.bit_width));
}

// ---- ClassPortInfo ----

TEST(SaCodec, ClassPortInfoAgreesWithLibibmad) {
  std::mt19937_64 rng(306);
  for (int i = 0; i < 300; ++i) {
    ClassPortInfo c;
    c.base_version = static_cast<std::uint8_t>(rng());
    c.class_version = static_cast<std::uint8_t>(rng());
    c.capability_mask = static_cast<std::uint16_t>(rng());
    c.capability_mask2 = static_cast<std::uint32_t>(rng() & 0x7FFFFFF);
    c.resp_time_value = static_cast<std::uint8_t>(rng() & 0x1F);
    std::array<std::uint8_t, ClassPortInfo::kSize> rec{};
    c.encode(rec);
    ASSERT_EQ(ib_get(rec, IB_CPI_BASEVER_F), c.base_version);
    ASSERT_EQ(ib_get(rec, IB_CPI_CLASSVER_F), c.class_version);
    ASSERT_EQ(ib_get(rec, IB_CPI_CAPMASK_F), c.capability_mask);
    ASSERT_EQ(ib_get(rec, IB_CPI_CAPMASK2_F), c.capability_mask2);
    ASSERT_EQ(ib_get(rec, IB_CPI_RESP_TIME_VALUE_F), c.resp_time_value);
    ASSERT_EQ(ib_get(rec, IB_CPI_REDIRECT_QP_F), 1u);
    ASSERT_EQ(ib_get(rec, IB_CPI_REDIRECT_QKEY_F), 0x80010000u);
    ASSERT_EQ(ib_get(rec, IB_CPI_REDIRECT_LID_F), 0u);
    ASSERT_EQ(ib_get(rec, IB_CPI_TRAP_LID_F), 0u);
    const ClassPortInfo back = ClassPortInfo::decode(rec);
    ASSERT_EQ(back.capability_mask, c.capability_mask);
    ASSERT_EQ(back.capability_mask2, c.capability_mask2);
    ASSERT_EQ(back.resp_time_value, c.resp_time_value);
  }
}

// ---- PortInfoRecord ----

TEST(SaCodec, PortInfoRecordEmbedsPortInfoAtByteFour) {
  std::mt19937_64 rng(307);
  for (int i = 0; i < 300; ++i) {
    PortInfoRecord r;
    r.lid = static_cast<std::uint16_t>(rng());
    r.port_num = static_cast<std::uint8_t>(rng());
    r.options = static_cast<std::uint8_t>(rng());
    for (auto& b : r.port_info) b = static_cast<std::uint8_t>(rng());
    std::array<std::uint8_t, PortInfoRecord::kSize> rec{};
    r.encode(rec);
    ASSERT_EQ(rec[0] << 8 | rec[1], r.lid);
    ASSERT_EQ(rec[2], r.port_num);
    ASSERT_EQ(rec[3], r.options);
    std::span<const std::uint8_t> pi(rec.data() + 4, 64);
    const PortInfo decoded = PortInfo::decode(r.port_info);
    ASSERT_EQ(ib_get(pi, IB_PORT_MKEY_F, true), decoded.m_key);
    ASSERT_EQ(ib_get(pi, IB_PORT_LID_F), decoded.lid);
    ASSERT_EQ(ib_get(pi, IB_PORT_CAPMASK_F), decoded.capability_mask);
    ASSERT_EQ(ib_get(pi, IB_PORT_MTU_CAP_F), decoded.mtu_cap);
    ASSERT_EQ(ib_get(pi, IB_PORT_CAPMASK2_F), decoded.capability_mask2);
    ASSERT_EQ(ib_get(pi, IB_PORT_LINK_SPEED_EXT_ENABLED_F), decoded.link_speed_ext_enabled);
    ASSERT_EQ(rec[68] | rec[69] | rec[70] | rec[71], 0) << "pad";
    const PortInfoRecord back = PortInfoRecord::decode(rec);
    ASSERT_EQ(back.lid, r.lid);
    ASSERT_EQ(back.port_num, r.port_num);
    ASSERT_EQ(back.options, r.options);
    ASSERT_EQ(back.port_info, r.port_info);
  }
}

TEST(SaCodec, PortInfoRecordComponentBitsCoverThePortInfoFields) {
  // ComponentMask bit -> the PortInfo field of that position (OpenSM IB_PIR_COMPMASK_*, IBA table 150).
  const std::pair<unsigned, MAD_FIELDS> cases[] = {
      {3, IB_PORT_MKEY_F},
      {4, IB_PORT_GID_PREFIX_F},
      {5, IB_PORT_LID_F},
      {6, IB_PORT_SMLID_F},
      {7, IB_PORT_CAPMASK_F},
      {8, IB_PORT_DIAG_F},
      {9, IB_PORT_MKEY_LEASE_F},
      {10, IB_PORT_LOCAL_PORT_F},
      {11, IB_PORT_LINK_WIDTH_ENABLED_F},
      {12, IB_PORT_LINK_WIDTH_SUPPORTED_F},
      {13, IB_PORT_LINK_WIDTH_ACTIVE_F},
      {14, IB_PORT_LINK_SPEED_SUPPORTED_F},
      {15, IB_PORT_STATE_F},
      {16, IB_PORT_PHYS_STATE_F},
      {17, IB_PORT_LINK_DOWN_DEF_F},
      {18, IB_PORT_MKEY_PROT_BITS_F},
      {20, IB_PORT_LMC_F},
      {21, IB_PORT_LINK_SPEED_ACTIVE_F},
      {22, IB_PORT_LINK_SPEED_ENABLED_F},
      {23, IB_PORT_NEIGHBOR_MTU_F},
      {24, IB_PORT_SMSL_F},
      {25, IB_PORT_VL_CAP_F},
      {26, IB_PORT_INIT_TYPE_F},
      {27, IB_PORT_VL_HIGH_LIMIT_F},
      {28, IB_PORT_VL_ARBITRATION_HIGH_CAP_F},
      {29, IB_PORT_VL_ARBITRATION_LOW_CAP_F},
      {30, IB_PORT_INIT_TYPE_REPLY_F},
      {31, IB_PORT_MTU_CAP_F},
      {32, IB_PORT_VL_STALL_COUNT_F},
      {33, IB_PORT_HOQ_LIFE_F},
      {34, IB_PORT_OPER_VLS_F},
      {35, IB_PORT_PART_EN_INB_F},
      {36, IB_PORT_PART_EN_OUTB_F},
      {37, IB_PORT_FILTER_RAW_INB_F},
      {38, IB_PORT_FILTER_RAW_OUTB_F},
      {39, IB_PORT_MKEY_VIOL_F},
      {40, IB_PORT_PKEY_VIOL_F},
      {41, IB_PORT_QKEY_VIOL_F},
      {42, IB_PORT_GUID_CAP_F},
      {43, IB_PORT_CLIENT_REREG_F},
      {44, IB_PORT_MCAST_PKEY_SUPR_ENAB_F},
      {45, IB_PORT_SUBN_TIMEOUT_F},
      {47, IB_PORT_RESP_TIME_VAL_F},
      {48, IB_PORT_LOCAL_PHYS_ERR_F},
      {49, IB_PORT_OVERRUN_ERR_F},
      {50, IB_PORT_MAX_CREDIT_HINT_F},
      {52, IB_PORT_LINK_ROUND_TRIP_F},
      {53, IB_PORT_CAPMASK2_F},
      {54, IB_PORT_LINK_SPEED_EXT_ACTIVE_F},
      {55, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F},
      {57, IB_PORT_LINK_SPEED_EXT_ENABLED_F},
  };
  ASSERT_EQ(kPortInfoRecordLayout.fields.size(), 58u);
  for (const auto& [bit, f] : cases) {
    std::array<std::uint8_t, PortInfoRecord::kSize> rec{};
    const auto& span = kPortInfoRecordLayout.fields[bit];
    ib_set(std::span<std::uint8_t>(rec.data() + 4, 64), f, ~0ull, span.bit_width > 32);
    EXPECT_EQ(set_bit_list(rec), bit_range(span.bit_offset, span.bit_width)) << "ComponentMask bit " << bit;
  }
  // The reserved runs, from IBA table 150 (PortInfo bit offsets, + 32 for the record header).
  const std::tuple<unsigned, unsigned, unsigned> reserved[] = {{19, 274, 3}, {46, 416, 3}, {51, 448, 8}, {56, 504, 3}};
  for (const auto& [bit, off, width] : reserved) {
    EXPECT_EQ(kPortInfoRecordLayout.fields[bit].bit_offset, off + 32) << "bit " << bit;
    EXPECT_EQ(kPortInfoRecordLayout.fields[bit].bit_width, width) << "bit " << bit;
  }
  // 0 EndportLID, 1 PortNum, 2 Options.
  EXPECT_EQ(kPortInfoRecordLayout.fields[0].bit_offset, 0);
  EXPECT_EQ(kPortInfoRecordLayout.fields[0].bit_width, 16);
  EXPECT_EQ(kPortInfoRecordLayout.fields[1].bit_offset, 16);
  EXPECT_EQ(kPortInfoRecordLayout.fields[2].bit_offset, 24);
}

// ---- InformInfoRecord ----

TEST(SaCodec, InformInfoRecordComponentBits) {
  // OpenSM ib_types.h IB_IIR_COMPMASK_* (bit n) over IBA table 218 with InformInfo (table 120) at byte 24.
  const std::tuple<unsigned, unsigned, unsigned> spans[] = {
      {0, 0, 128},    // SubscriberGID
      {1, 128, 16},   // Enum
      {2, 144, 48},   // reserved
      {3, 192, 128},  // GID
      {4, 320, 16},   // LIDRangeBegin
      {5, 336, 16},   // LIDRangeEnd
      {6, 352, 16},   // reserved
      {7, 368, 8},    // IsGeneric
      {8, 376, 8},    // Subscribe
      {9, 384, 16},   // Type
      {10, 400, 16},  // TrapNumber / DeviceID
      {11, 416, 24},  // QPN
      {12, 440, 3},   // reserved
      {13, 443, 5},   // RespTimeValue
      {14, 448, 8},   // reserved
      {15, 456, 24},  // ProducerType / VendorID
  };
  ASSERT_EQ(kInformInfoRecordLayout.fields.size(), 16u);
  for (const auto& [bit, off, width] : spans) {
    EXPECT_EQ(kInformInfoRecordLayout.fields[bit].bit_offset, off) << "bit " << bit;
    EXPECT_EQ(kInformInfoRecordLayout.fields[bit].bit_width, width) << "bit " << bit;
  }
}

}  // namespace
}  // namespace smd::mad::sa::sa_codec_test
