// Field-by-field comparison of PartitionsSpecs for the config tests, `where` fields aside (they name the
// place a value was read, which differs between two inputs meaning the same partitions).
#pragma once

#include <gtest/gtest.h>

#include "routing/partitions/partition_spec.h"

namespace smd::test {

inline void expect_same_member(const PartitionMember& got, const PartitionMember& want, const std::string& at) {
  EXPECT_EQ(got.selector, want.selector) << at;
  EXPECT_EQ(got.guid, want.guid) << at;
  EXPECT_EQ(got.node_description, want.node_description) << at;
  EXPECT_EQ(got.membership, want.membership) << at;
}

inline void expect_same_group(const McastGroupSpec& got, const McastGroupSpec& want, const std::string& at) {
  EXPECT_EQ(got.mgid, want.mgid) << at;
  EXPECT_EQ(got.mtu, want.mtu) << at;
  EXPECT_EQ(got.rate, want.rate) << at;
  EXPECT_EQ(got.sl, want.sl) << at;
  EXPECT_EQ(got.scope, want.scope) << at;
  EXPECT_EQ(got.q_key, want.q_key) << at;
  EXPECT_EQ(got.tclass, want.tclass) << at;
  EXPECT_EQ(got.flow_label, want.flow_label) << at;
}

inline void expect_same_partitions(const PartitionsSpec& got, const PartitionsSpec& want) {
  EXPECT_EQ(got.enforcement, want.enforcement);
  EXPECT_EQ(got.allow_both_pkeys, want.allow_both_pkeys);
  ASSERT_EQ(got.partitions.size(), want.partitions.size());
  for (std::size_t i = 0; i < want.partitions.size(); ++i) {
    const PartitionSpec& g = got.partitions[i];
    const PartitionSpec& w = want.partitions[i];
    const std::string at = "partition [" + std::to_string(i) + "]";
    EXPECT_EQ(g.name, w.name) << at;
    EXPECT_EQ(g.pkey, w.pkey) << at;
    EXPECT_EQ(g.default_membership, w.default_membership) << at;
    EXPECT_EQ(g.index0, w.index0) << at;
    EXPECT_EQ(g.ipoib.enabled, w.ipoib.enabled) << at;
    EXPECT_EQ(g.ipoib.mtu, w.ipoib.mtu) << at;
    EXPECT_EQ(g.ipoib.rate, w.ipoib.rate) << at;
    EXPECT_EQ(g.ipoib.sl, w.ipoib.sl) << at;
    EXPECT_EQ(g.ipoib.scopes, w.ipoib.scopes) << at;
    EXPECT_EQ(g.ipoib.q_key, w.ipoib.q_key) << at;
    EXPECT_EQ(g.ipoib.tclass, w.ipoib.tclass) << at;
    EXPECT_EQ(g.ipoib.flow_label, w.ipoib.flow_label) << at;
    ASSERT_EQ(g.members.size(), w.members.size()) << at;
    for (std::size_t k = 0; k < w.members.size(); ++k) {
      expect_same_member(g.members[k], w.members[k], at + " member [" + std::to_string(k) + "]");
    }
    ASSERT_EQ(g.groups.size(), w.groups.size()) << at;
    for (std::size_t k = 0; k < w.groups.size(); ++k) {
      expect_same_group(g.groups[k], w.groups[k], at + " group [" + std::to_string(k) + "]");
    }
  }
}

}  // namespace smd::test
