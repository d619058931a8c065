// Which umad device carries which management class when a port's SMI and GSI are separate devices
// (IBA 13.4: QP0 carries SMPs only; everything else, SA and PerfMgt included, goes through QP1).
#include "mad/transport/smi_gsi.h"

#include <gtest/gtest.h>

#include "mad/codec/smp.h"

namespace smd::mad::smi_gsi_test {
namespace {

TEST(SmiGsi, OnlySubnetManagementClassesTravelOnTheSmi) {
  EXPECT_TRUE(travels_on_smi(kClassSmiLid));
  EXPECT_TRUE(travels_on_smi(kClassSmiDirect));
  EXPECT_FALSE(travels_on_smi(kClassSubnAdm));
  EXPECT_FALSE(travels_on_smi(kClassPerfMgt));
  unsigned on_smi = 0;
  for (unsigned c = 0; c < 256; ++c) on_smi += travels_on_smi(static_cast<std::uint8_t>(c)) ? 1 : 0;
  EXPECT_EQ(on_smi, 2u) << "exactly the two SMP classes, 0x01 and 0x81";
}

TEST(SmiGsi, APairIsSeparateWhenTheDeviceOrThePortDiffers) {
  EXPECT_FALSE((SmiGsiPair{"mlx5_0", 1, "mlx5_0", 1}.separate()));
  EXPECT_TRUE((SmiGsiPair{"smi_mlx5_0", 1, "mlx5_0", 1}.separate()));
  EXPECT_TRUE((SmiGsiPair{"mlx5_0", 1, "mlx5_0", 2}.separate()));
}

}  // namespace
}  // namespace smd::mad::smi_gsi_test
