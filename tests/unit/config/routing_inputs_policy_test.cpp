// The routing inputs of routing.minhop / routing.updn / routing.ftree as the policy loader reads them:
// inline lists and maps, and *_file keys naming files in OpenSM's formats. Places counted by hand on the
// texts below (policy: t.yaml line:column of the key; file: its own line:column).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "config/policy_loader.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/engines/updn/updn_options.h"
#include "tests/unit/temp_dir.h"

namespace smd::routing_inputs_policy_test {
namespace {

class RoutingInputs : public test::TempDirTest {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string error_of(const std::string& yaml) {
    Result<Policy> p = load_policy_string(yaml, "t.yaml");
    return p.ok() ? "" : p.error().message;
  }
};

TEST_F(RoutingInputs, InlineListsAndMap) {
  Result<Policy> p = load_policy_string(
      "routing:\n"
      "  minhop:\n"
      "    guid_routing_order: [0x100005, 0x100003]\n"
      "  updn:\n"
      "    guid_routing_order: [0x100007]\n"
      "    ids: {0x200001: 2, 0x200000: 0x10}\n",
      "t.yaml");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->routing.options.engines.get<MinhopOptions>().guid_routing_order,
            (std::vector<Guid>{0x100005, 0x100003}));
  const UpdnOptions& updn = p->routing.options.engines.get<UpdnOptions>();
  EXPECT_EQ(updn.guid_routing_order, (std::vector<Guid>{0x100007}));
  ASSERT_EQ(updn.ids.size(), 2u);
  EXPECT_EQ(updn.ids[0].guid, 0x200001u);
  EXPECT_EQ(updn.ids[0].id, 2u);
  EXPECT_EQ(updn.ids[1].guid, 0x200000u);
  EXPECT_EQ(updn.ids[1].id, 16u);
  EXPECT_TRUE(updn.roots.empty());
}

TEST_F(RoutingInputs, FilesInOpenSmFormat) {
  const std::string order = write("order", "# ranks\n0x100004\n0x100002\n");
  const std::string ids = write("ids", "0x200003 1\n");
  const std::string roots = write("roots", "0x200010\n0x200011\n");
  Result<Policy> p = load_policy_string("routing:\n"
                                        "  minhop:\n"
                                        "    guid_routing_order_file: " + order + "\n"
                                        "  updn:\n"
                                        "    guid_routing_order_file: " + order + "\n"
                                        "    ids_file: " + ids + "\n"
                                        "    roots_file: " + roots + "\n"
                                        "  ftree:\n"
                                        "    roots_file: \"" + roots + "\"\n",
                                        "t.yaml");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p->routing.options.engines.get<MinhopOptions>().guid_routing_order, (std::vector<Guid>{0x100004, 0x100002}));
  const UpdnOptions& updn = p->routing.options.engines.get<UpdnOptions>();
  EXPECT_EQ(updn.guid_routing_order, (std::vector<Guid>{0x100004, 0x100002}));
  ASSERT_EQ(updn.ids.size(), 1u);
  EXPECT_EQ(updn.ids[0].guid, 0x200003u);
  EXPECT_EQ(updn.ids[0].id, 1u);
  EXPECT_EQ(updn.roots, (std::vector<Guid>{0x200010, 0x200011}));
  EXPECT_EQ(p->routing.options.engines.get<FtreeOptions>().roots, (std::vector<Guid>{0x200010, 0x200011}));
}

TEST_F(RoutingInputs, FtreeNodeListsFromFilesBesideThePolicy) {
  write("cn", "# compute nodes\n0x100001\n0x100002\n");
  write("io", "0x100009\n");
  const std::string policy = write("smd.yaml", "routing:\n"
                                               "  ftree:\n"
                                               "    cn_guids_file: cn\n"
                                               "    io_guids_file: io\n"
                                               "    max_reverse_hops: 2\n");
  Result<Policy> p = load_policy_file(policy);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const FtreeOptions& ftree = p->routing.options.engines.get<FtreeOptions>();
  EXPECT_EQ(ftree.cn_guids, (std::vector<Guid>{0x100001, 0x100002}));
  EXPECT_EQ(ftree.io_guids, (std::vector<Guid>{0x100009}));
  EXPECT_EQ(ftree.max_reverse_hops, 2u);
  EXPECT_EQ(error_of("routing:\n  ftree:\n    io_guids: [0x1]\n    io_guids_file: " + dir_ + "/io\n"),
            "t.yaml:4:5: routing.ftree.io_guids_file: give io_guids or io_guids_file, not both");
  const std::string e = error_of("routing:\n  ftree:\n    max_reverse_hops: 65536\n");
  EXPECT_EQ(e.rfind("t.yaml:3:23: routing.ftree.max_reverse_hops:", 0), 0u) << e;
}

TEST_F(RoutingInputs, EmptyFileKeyMeansNone) {
  Result<Policy> p = load_policy_string("routing:\n  minhop:\n    guid_routing_order_file: \"\"\n", "t.yaml");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(p->routing.options.engines.get<MinhopOptions>().guid_routing_order.empty());
}

TEST_F(RoutingInputs, AProblemInAFileNamesBothPlaces) {
  const std::string order = write("order", "0x100004\n0x100002\n  0x100004\n");
  EXPECT_EQ(error_of("routing:\n  minhop:\n    guid_routing_order_file: " + order + "\n"),
            "t.yaml:3:5: routing.minhop.guid_routing_order_file: " + order +
                ":3:3: 0x100004 is listed twice (first at line 1)");
  const std::string ids = write("ids", "0x200003\n");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids_file: " + ids + "\n"),
            "t.yaml:3:5: routing.updn.ids_file: " + ids + ":1:9: expected an id after the GUID (format: <guid> <id>)");
  const std::string missing = dir_ + "/absent";
  const std::string e = error_of("routing:\n  updn:\n    roots_file: " + missing + "\n");
  EXPECT_EQ(e.rfind("t.yaml:3:5: routing.updn.roots_file: cannot open GUID file " + missing, 0), 0u) << e;
}

TEST_F(RoutingInputs, MinhopBalancingFilesInOpenSmFormat) {
  const std::string weights = write("weights", "# slow cable, both ends\n0x200000 3 4\n0x200002 1 4\n");
  const std::string order = write("search", "0x200000 4 3\n");
  const std::string ignore = write("ignore", "0x200001 5\n");
  Result<Policy> p = load_policy_string("routing:\n"
                                        "  minhop:\n"
                                        "    hop_weights_file: " + weights + "\n"
                                        "    port_search_ordering_file: " + order + "\n"
                                        "    port_prof_ignore_file: " + ignore + "\n"
                                        "    port_profile_switch_nodes: false\n"
                                        "    port_shifting: true\n"
                                        "    scatter_ports: 9\n",
                                        "t.yaml");
  ASSERT_TRUE(p.ok()) << p.error().message;
  const MinhopOptions& minhop = p->routing.options.engines.get<MinhopOptions>();
  EXPECT_EQ(minhop.hop_weights, (std::vector<HopWeight>{{0x200000, 3, 4}, {0x200002, 1, 4}}));
  EXPECT_EQ(minhop.hop_weights_file, weights);
  EXPECT_EQ(minhop.port_search_ordering, (std::vector<PortSearchOrder>{{0x200000, {4, 3}}}));
  EXPECT_EQ(minhop.port_prof_ignore, (std::vector<SwitchPort>{{0x200001, 5}}));
  EXPECT_FALSE(minhop.port_profile_switch_nodes);
  EXPECT_TRUE(minhop.port_shifting);
  EXPECT_EQ(minhop.scatter_ports, 9u);
  EXPECT_TRUE(MinhopOptions{}.port_profile_switch_nodes);
  // A bad line refuses the policy at the key, with the file's own line and column.
  const std::string bad = write("bad-weights", "0x200000 3 4\n0x200000 5 0\n");
  EXPECT_EQ(error_of("routing:\n  minhop:\n    hop_weights_file: " + bad + "\n"),
            "t.yaml:3:5: routing.minhop.hop_weights_file: " + bad + ":2:12: '0' is not a hop weight 1..255");
  const std::string missing = dir_ + "/absent";
  const std::string e = error_of("routing:\n  minhop:\n    port_prof_ignore_file: " + missing + "\n");
  EXPECT_EQ(e.rfind("t.yaml:3:5: routing.minhop.port_prof_ignore_file: ", 0), 0u) << e;
}

TEST_F(RoutingInputs, AListAndItsFileTogetherAreRefused) {
  const std::string order = write("order", "0x100004\n");
  EXPECT_EQ(error_of("routing:\n  minhop:\n    guid_routing_order: [0x1]\n    guid_routing_order_file: " + order + "\n"),
            "t.yaml:4:5: routing.minhop.guid_routing_order_file: give guid_routing_order or guid_routing_order_file, "
            "not both");
  EXPECT_EQ(error_of("routing:\n  ftree:\n    roots: [0x1]\n    roots_file: " + order + "\n"),
            "t.yaml:4:5: routing.ftree.roots_file: give roots or roots_file, not both");
  const std::string ids = write("ids", "0x2 1\n");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids: {0x2: 1}\n    ids_file: " + ids + "\n"),
            "t.yaml:4:5: routing.updn.ids_file: give ids or ids_file, not both");
}

TEST_F(RoutingInputs, InlineErrorsAtTheirPlace) {
  EXPECT_EQ(error_of("routing:\n  minhop:\n    guid_routing_order: [0x5, 0x6, 0x5]\n"),
            "t.yaml:3:36: routing.minhop.guid_routing_order[2]: 0x5 is listed twice (first at [0])");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids: [0x1]\n"),
            "t.yaml:3:10: routing.updn.ids: expected a map of switch GUID: id, got a sequence");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids: {0x1: 1, 1: 2}\n"),
            "t.yaml:3:19: routing.updn.ids[1]: 1 is listed twice (first as 0x1)");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids: {0: 1}\n"), "t.yaml:3:11: routing.updn.ids[0]: GUID 0 is not a valid node GUID");
  EXPECT_EQ(error_of("routing:\n  updn:\n    ids:\n      0x7: seven\n").rfind("t.yaml:4:12: routing.updn.ids[0x7]: ", 0), 0u);
  EXPECT_EQ(error_of("routing:\n  minhop:\n    guid_routing_oder: [0x1]\n"),
            "t.yaml:3:5: routing.minhop.guid_routing_oder: unknown key (did you mean 'guid_routing_order'?)");
}

}  // namespace
}  // namespace smd::routing_inputs_policy_test
