// enum_names.h: the words every output format gives the IBA's node types and port states, checked
// against the spellings written out here (IBA 14.2.5.3 / 14.2.5.6, OpenSM's dump files, smctl), and what
// a value no enumerator names reads as.
#include "routing/model/enum_names.h"

#include <gtest/gtest.h>

#include <string>

namespace smd::enum_names_test {
namespace {

TEST(EnumNames, NodeTypeWordsFollowTheVocabularyGiven) {
  const NodeTypeWords opensm{"Channel Adapter", "Switch", "Router", "Unknown"};
  EXPECT_EQ(std::string(node_type_word(NodeType::kCa, opensm)), "Channel Adapter");
  EXPECT_EQ(std::string(node_type_word(NodeType::kSwitch, opensm)), "Switch");
  EXPECT_EQ(std::string(node_type_word(NodeType::kRouter, opensm)), "Router");
  // NodeInfo:NodeType 0 and 4..255 are reserved (IBA 14.2.5.3): a value off the wire may be one.
  EXPECT_EQ(std::string(node_type_word(static_cast<NodeType>(0), opensm)), "Unknown");
  EXPECT_EQ(std::string(node_type_word(static_cast<NodeType>(7), {"ca", "switch", "router", "?"})), "?");
}

TEST(EnumNames, TopologyToStringKeepsItsIbaWords) {
  EXPECT_EQ(std::string(to_string(NodeType::kCa)), "CA");
  EXPECT_EQ(std::string(to_string(NodeType::kSwitch)), "Switch");
  EXPECT_EQ(std::string(to_string(NodeType::kRouter)), "Router");
  EXPECT_EQ(std::string(to_string(PortState::kNoChange)), "NoChange");
  EXPECT_EQ(std::string(to_string(PortState::kDown)), "Down");
  EXPECT_EQ(std::string(to_string(PortState::kInit)), "Init");
  EXPECT_EQ(std::string(to_string(PortState::kArmed)), "Armed");
  EXPECT_EQ(std::string(to_string(PortState::kActive)), "Active");
  EXPECT_EQ(std::string(to_string(static_cast<PortState>(5))), "?");  // PortState 5..15 reserved
}

enum class Colour : unsigned char { kRed = 1, kBlue = 4 };

TEST(EnumNames, EnumNameLooksUpItsTableAndFallsBack) {
  static constexpr std::pair<Colour, const char*> kNames[] = {{Colour::kRed, "red"}, {Colour::kBlue, "blue"}};
  EXPECT_EQ(std::string(enum_name(Colour::kRed, kNames)), "red");
  EXPECT_EQ(std::string(enum_name(Colour::kBlue, kNames)), "blue");
  EXPECT_EQ(std::string(enum_name(static_cast<Colour>(2), kNames)), "?");
  EXPECT_EQ(std::string(enum_name(static_cast<Colour>(2), kNames, "none")), "none");
  static_assert(enum_name(Colour::kBlue, kNames)[0] == 'b', "usable in constant expressions");
}

}  // namespace
}  // namespace smd::enum_names_test
