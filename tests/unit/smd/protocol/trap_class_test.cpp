// Trap classification (smd/protocol/trap_class.h), row by row from the IBA's table of generic traps
// (vol. 1, 14.2.5.1) and what an SM does with each: a link change re-reads the switch that reports it,
// a capability change elsewhere re-reads the fabric, port errors count against the port, the rest is
// only forwarded to SA subscribers. Numbers are written out, not taken from the header under test.
#include "smd/protocol/trap_class.h"

#include <gtest/gtest.h>

namespace smd::trap_class_test {
namespace {

constexpr Lid kOwnLid = 1;

TrapClass generic(std::uint16_t number, Lid issuer = 7, Lid own = kOwnLid) {
  return classify_trap(TrapSource{.is_generic = true, .trap_number = number, .issuer_lid = issuer, .own_lid = own});
}

TEST(TrapClass, Trap64GidInServiceIsOnlyForwarded) {
  const TrapClass c = generic(64);
  EXPECT_EQ(c.kind, TrapKind::kGidInService);
  EXPECT_EQ(c.response, TrapResponse::kNone);
}

TEST(TrapClass, Trap65GidOutOfServiceIsOnlyForwarded) {
  const TrapClass c = generic(65);
  EXPECT_EQ(c.kind, TrapKind::kGidOutOfService);
  EXPECT_EQ(c.response, TrapResponse::kNone);
}

TEST(TrapClass, Traps66And67McastGroupCreateAndDeleteAreOnlyForwarded) {
  for (std::uint16_t n : {66, 67}) {
    const TrapClass c = generic(n);
    EXPECT_EQ(c.kind, TrapKind::kMcastGroupChange) << n;
    EXPECT_EQ(c.response, TrapResponse::kNone) << n;
  }
}

TEST(TrapClass, Trap128LinkStateChangeSweepsFromTheIssuingSwitch) {
  const TrapClass c = generic(128, 0x2a);
  EXPECT_EQ(c.kind, TrapKind::kLinkStateChange);
  EXPECT_EQ(c.response, TrapResponse::kSweepChanged);
  EXPECT_EQ(c.sweep_from, 0x2a);
}

TEST(TrapClass, Trap128WithoutAnIssuerSweepsTheWholeFabric) {
  const TrapClass c = generic(128, 0);
  EXPECT_EQ(c.kind, TrapKind::kLinkStateChange);
  EXPECT_EQ(c.response, TrapResponse::kSweepFull);
  EXPECT_EQ(c.sweep_from, 0);
}

TEST(TrapClass, Trap128FromOurOwnSwitchStillSweeps) {
  // A link of the SM's own switch changing is a fabric change like any other.
  const TrapClass c = generic(128, kOwnLid);
  EXPECT_EQ(c.response, TrapResponse::kSweepChanged);
  EXPECT_EQ(c.sweep_from, kOwnLid);
}

TEST(TrapClass, Traps129To131PortErrorsAreCountedNotSwept) {
  for (std::uint16_t n : {129, 130, 131}) {
    const TrapClass c = generic(n);
    EXPECT_EQ(c.kind, TrapKind::kPortError) << n;
    EXPECT_EQ(c.response, TrapResponse::kCountPortError) << n;
    EXPECT_EQ(c.sweep_from, 0) << n;
  }
}

TEST(TrapClass, Trap144FromAnotherPortSweepsTheWholeFabric) {
  const TrapClass c = generic(144, 9);
  EXPECT_EQ(c.kind, TrapKind::kLocalChange);
  EXPECT_EQ(c.response, TrapResponse::kSweepFull);
}

TEST(TrapClass, Trap144FromOurOwnPortIsTheIsSmBitWeSet) {
  const TrapClass c = generic(144, kOwnLid);
  EXPECT_EQ(c.kind, TrapKind::kLocalChange);
  EXPECT_EQ(c.response, TrapResponse::kNone);
}

TEST(TrapClass, Trap144BeforeWeHaveALidSweeps) {
  // Own LID 0 (not assigned yet) matches no issuer, not even an issuer LID 0.
  EXPECT_EQ(generic(144, 0, 0).response, TrapResponse::kSweepFull);
  EXPECT_EQ(generic(144, 5, 0).response, TrapResponse::kSweepFull);
}

TEST(TrapClass, Trap145SystemImageGuidChangeIsOnlyForwarded) {
  const TrapClass c = generic(145);
  EXPECT_EQ(c.kind, TrapKind::kSystemImageChange);
  EXPECT_EQ(c.response, TrapResponse::kNone);
}

TEST(TrapClass, Traps256To259KeyViolationsAreOnlyForwarded) {
  for (std::uint16_t n : {256, 257, 258, 259}) {
    const TrapClass c = generic(n);
    EXPECT_EQ(c.kind, TrapKind::kKeyViolation) << n;
    EXPECT_EQ(c.response, TrapResponse::kNone) << n;
  }
}

TEST(TrapClass, NumbersOutsideTheTableAreUnknown) {
  for (std::uint16_t n : {0, 63, 68, 127, 132, 143, 146, 255, 260, 0xffff}) {
    const TrapClass c = generic(n);
    EXPECT_EQ(c.kind, TrapKind::kUnknown) << n;
    EXPECT_EQ(c.response, TrapResponse::kNone) << n;
  }
}

TEST(TrapClass, AVendorTrapIsNeverReadAsAGenericNumber) {
  // Vendor traps carry a DeviceID where generic ones carry the number: 128 here is a device, not a link.
  for (std::uint16_t n : {128, 129, 144}) {
    const TrapClass c = classify_trap(TrapSource{.is_generic = false, .trap_number = n, .issuer_lid = 7, .own_lid = 1});
    EXPECT_EQ(c.kind, TrapKind::kVendor) << n;
    EXPECT_EQ(c.response, TrapResponse::kNone) << n;
  }
}

TEST(TrapClass, KindNamesAreDistinct) {
  EXPECT_EQ(trap_kind_name(TrapKind::kLinkStateChange), "link-state-change");
  EXPECT_EQ(trap_kind_name(TrapKind::kPortError), "port-error");
  EXPECT_NE(trap_kind_name(TrapKind::kGidInService), trap_kind_name(TrapKind::kGidOutOfService));
}

}  // namespace
}  // namespace smd::trap_class_test
