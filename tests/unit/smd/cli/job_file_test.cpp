// `smd plan --compare --job FILE / --placement`: the job file reader (smd/cli/job_file.h) on a good file
// and on each error, reported at file:line; and both options end to end on the bundled 16-host
// leaf/spine (4 leaves of 4 hosts, 2 spines), against figures worked out by hand from the cabling.
#include "smd/cli/job_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "smd/cli/plan_command.h"
#include "tests/unit/temp_dir.h"

namespace smd::job_file_test {
namespace {

class JobFile : public test::TempDirTest {
 protected:
  // Six endpoints: a two-port CA "d" is endpoints 3 and 4; endpoint 5's name holds a space.
  const std::vector<JobEndpoint> endpoints_{{0x10, 1, "a"}, {0x11, 2, "b"}, {0x12, 3, "c"},
                                            {0x21, 7, "d"}, {0x22, 8, "d"}, {0x30, 9, "mlx5_0 node-7"}};
};

TEST_F(JobFile, ReadsGuidsLidsAndNamesInRankOrder) {
  const auto path = write("job.txt",
                          "# a job of four ranks\n"
                          "0x12\n"
                          "\n"
                          "  2   # b by its LID\n"
                          "0x21  # d's first port\n"
                          "0x0000000000000010\n");
  auto job = read_job_file(path, endpoints_);
  ASSERT_TRUE(job.ok()) << job.error().message;
  EXPECT_EQ(job->name, path);
  EXPECT_EQ(job->ranks, (std::vector<std::uint32_t>{2, 1, 3, 0}));
  // The second port of "d" by its GUID or LID.
  auto second = read_job_file(write("d.txt", "0x22\n1\n"), endpoints_);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(second->ranks, (std::vector<std::uint32_t>{4, 0}));
  // An ibnetdiscover description with a space: the whole trimmed line.
  auto spaced = read_job_file(write("s.txt", "\tmlx5_0 node-7  # the CA\na\n"), endpoints_);
  ASSERT_TRUE(spaced.ok()) << spaced.error().message;
  EXPECT_EQ(spaced->ranks, (std::vector<std::uint32_t>{5, 0}));
}

TEST_F(JobFile, EachErrorNamesFileAndLine) {
  const std::pair<std::string, std::string> cases[] = {
      {"a\n\nzz\n", ":3: 'zz' is no endpoint"},
      {"a\nb c\n", ":2: 'b c' is no endpoint"},
      {"# x\na\n0x10\n", ":3: '0x10' is already rank of line 2"},
      {"a\n0x99\n", ":2: '0x99' is no endpoint"},
      {"a\n49152\n", ":2: '49152' is no endpoint"},  // a multicast LID is read as a name: unknown
      {"a\n4\n", ":2: '4' is no endpoint"},
      // Both ports of "d" answer to its name: which one is the rank is the operator's to say.
      {"a\nd\n", ":2: 'd' names 2 ports (CAs of one name, or a CA with several ports): give the port GUID or LID"},
      // A runaway line is named by its first 80 characters, not echoed whole.
      {"a\n" + std::string(5000, 'x') + "\n", ":2: '" + std::string(80, 'x') + "...' is no endpoint"},
  };
  int n = 0;
  for (const auto& [text, where] : cases) {
    const auto path = write("bad" + std::to_string(n++) + ".txt", text);
    auto job = read_job_file(path, endpoints_);
    ASSERT_FALSE(job.ok()) << text;
    EXPECT_EQ(job.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(job.error().message.find(path + where), std::string::npos) << job.error().message;
  }
  auto one = read_job_file(write("one.txt", "# only\nb\n"), endpoints_);
  ASSERT_FALSE(one.ok());
  EXPECT_NE(one.error().message.find("one.txt: a job needs at least 2 ranks, found 1"), std::string::npos)
      << one.error().message;
  auto missing = read_job_file(dir_ + "/none.txt", endpoints_);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(missing.error().message.find("none.txt"), std::string::npos) << missing.error().message;
}

// On a multi-HCA fabric a line may name a host (all its HCAs, rails in order) and a job holds whole hosts:
// a host named in part is reported at the line of its first HCA.
TEST_F(JobFile, HostLinesOnMultiHcaFabrics) {
  const std::vector<JobEndpoint> hcas{
      {0x10, 1, "h0 mlx5_0"}, {0x11, 2, "h0 mlx5_1"}, {0x12, 3, "h1 mlx5_1"}, {0x13, 4, "h1 mlx5_0"}};
  std::vector<std::string> names;
  for (const auto& e : hcas) names.push_back(e.name);
  const auto detected = roce::detect_rail_layout(names);
  ASSERT_TRUE(detected.layout.has_value()) << detected.why_not;
  const roce::RailLayout& rails = *detected.layout;
  auto job = read_job_file(write("hosts.txt", "h1\nh0 mlx5_0\n0x11\n"), hcas, &rails);
  ASSERT_TRUE(job.ok()) << job.error().message;
  EXPECT_EQ(job->ranks, (std::vector<std::uint32_t>{3, 2, 0, 1}));
  const std::pair<std::string, std::string> cases[] = {
      {"h1\n# one of h0\nh0 mlx5_1\n",
       ":3: host 'h0' has 2 HCAs and the job names 1 of them: on a multi-HCA fabric a job takes whole hosts"},
      {"h0\n0x10\n", ":2: '0x10' is already rank of line 1"},
      {"h0\nh2\n", ":2: 'h2' is no endpoint"},
  };
  int n = 0;
  for (const auto& [text, where] : cases) {
    const auto path = write("hosts" + std::to_string(n++) + ".txt", text);
    auto bad = read_job_file(path, hcas, &rails);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_NE(bad.error().message.find(path + where), std::string::npos) << bad.error().message;
  }
  // Without the layout a host name is no endpoint, as on any fabric.
  EXPECT_FALSE(read_job_file(write("plain.txt", "h0\nh1\n"), hcas).ok());
}

class PlanJobs : public JobFile {
 protected:
  PlanArgs args(const std::string& format) const {
    PlanArgs a;
    a.topology = std::string(SMD_SOURCE_DIR) + "/tests/fabrics/leafspine.net";
    a.seeds = 1;
    a.format = format;
    a.roce.compare = true;
    a.roce.collectives = "ring";
    return a;
  }
};

// host-0, host-1 on leaf-0 and host-4, host-5 on leaf-1: the ring 0 -> 1 -> 4 -> 5 -> 0 leaves each leaf
// by one flow and enters it by one, so no cable carries two flows: every scheme at ideal, 2(4-1) = 6
// steps of S/4, one flow per host: ideal time 6/4. fragmented:8,0.5 takes 2 of each leaf's 4 hosts:
// ceil(8 / 2) = 4 leaves.
TEST_F(PlanJobs, JobFileAndPlacementEndToEnd) {
  auto a = args("json");
  a.roce.job_files = {write("two-leaves.txt", "host-0\nhost-1\nhost-4\nhost-5\n")};
  a.roce.placements = {"fragmented:8,0.5", "contiguous:16"};
  std::ostringstream out, err;
  ASSERT_EQ(run_plan(a, out, err), 0) << err.str();
  const auto j = nlohmann::json::parse(out.str());
  const auto& c = j.at("roce").at("comparison").at("collectives");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].at("job"), a.roce.job_files[0]);
  EXPECT_EQ(c[0].at("ranks"), 4);
  EXPECT_EQ(c[0].at("leaves"), 2);
  EXPECT_EQ(c[0].at("phases"), 6);
  EXPECT_NEAR(c[0].at("ideal_time").get<double>(), 6.0 / 4, 1e-12);
  for (const auto& s : c[0].at("schemes")) EXPECT_DOUBLE_EQ(s.at("relative_time").get<double>(), 1.0) << s;
  EXPECT_EQ(c[1].at("job"), "fragmented:8,0.5");
  EXPECT_EQ(c[1].at("ranks"), 8);
  EXPECT_EQ(c[1].at("leaves"), 4);
  EXPECT_EQ(c[2].at("job"), "contiguous:16");
  EXPECT_EQ(c[2].at("leaves"), 4);

  auto t = args("text");
  t.roce.placements = {"fragmented:8,0.5"};
  std::ostringstream text, terr;
  ASSERT_EQ(run_plan(t, text, terr), 0) << terr.str();
  EXPECT_NE(text.str().find("job fragmented:8,0.5: 8 ranks on 4 leaves\nring-allreduce"), std::string::npos)
      << text.str();
}

TEST_F(PlanJobs, BadJobOrPlacementIsBadInput) {
  auto a = args("text");
  a.roce.job_files = {write("bad.txt", "host-0\nhost-99\n")};
  std::ostringstream out, err;
  EXPECT_EQ(run_plan(a, out, err), kPlanBadInput);
  EXPECT_NE(err.str().find("bad.txt:2: 'host-99' is no endpoint"), std::string::npos) << err.str();
  auto p = args("text");
  p.roce.placements = {"fragmented:12,0.5"};  // 4 leaves x 2 hosts hold 8
  std::ostringstream out2, err2;
  EXPECT_EQ(run_plan(p, out2, err2), kPlanBadInput);
  EXPECT_NE(err2.str().find("--placement 'fragmented:12,0.5': placement: 12 ranks asked"), std::string::npos)
      << err2.str();
}

}  // namespace
}  // namespace smd::job_file_test
