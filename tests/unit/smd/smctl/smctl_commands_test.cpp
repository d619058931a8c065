// smctl's command line (smd/smctl/smctl_commands.h): each command line becomes the request the control
// protocol documents (written out here by hand), the help lines are the shared catalog's, and every
// catalog command is reachable from smctl.
#include "smd/smctl/smctl_commands.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "smd/protocol/control_commands.h"

namespace smd::smctl::smctl_commands_test {
namespace {

using control::Json;

// Parse `words` (after "smctl") into a fresh invocation; throws CLI11's parse errors.
SmctlInvocation parse(std::vector<std::string> words) {
  CLI::App app{"test"};
  app.require_subcommand(1);
  SmctlInvocation inv;
  add_smctl_commands(app, inv, "/run/smd/control.socket");
  std::vector<std::string> reversed(words.rbegin(), words.rend());
  app.parse(reversed);  // CLI11 takes a vector in reverse order
  return inv;
}

struct Case {
  std::vector<std::string> words;
  const char* request;  // the JSON control_protocol.h documents for it
};

const Case kCases[] = {
    {{"status"}, R"({"cmd":"status"})"},
    {{"nodes"}, R"({"cmd":"nodes"})"},
    {{"reroute"}, R"({"cmd":"reroute"})"},
    {{"report"}, R"({"cmd":"report"})"},
    {{"sa"}, R"({"cmd":"sa"})"},
    {{"groups"}, R"({"cmd":"groups"})"},
    {{"lfts"}, R"({"cmd":"lfts"})"},
    {{"lfts", "leaf-1"}, R"({"cmd":"lfts","switch":"leaf-1"})"},
    {{"route", "host-0", "0x0005"}, R"({"cmd":"route","src":"host-0","dst":"0x0005"})"},
    {{"partitions"}, R"({"cmd":"partitions"})"},
    {{"partitions", "0x8001"}, R"({"cmd":"partitions","pkey":"0x8001"})"},
    {{"counters", "--errors"}, R"({"cmd":"counters","errors":true})"},
    {{"counters", "sw-2"}, R"({"cmd":"counters","errors":false,"node":"sw-2"})"},
    {{"ports", "--unhealthy"}, R"({"cmd":"ports","unhealthy":true})"},
    {{"port", "clear", "sw-2", "17"}, R"({"cmd":"port_clear","node":"sw-2","port":17})"},
    {{"sweep"}, R"({"cmd":"sweep"})"},
    {{"sweep", "--light"}, R"({"cmd":"sweep","light":true})"},
    {{"sweeps", "off", "--reason", "cabling"}, R"({"cmd":"sweeps","on":false,"reason":"cabling"})"},
    {{"sweeps", "on"}, R"({"cmd":"sweeps","on":true})"},
    {{"log-level", "debug"}, R"({"cmd":"log_level","level":"debug"})"},
    {{"perfmgr", "pass"}, R"({"cmd":"perfmgr","action":"pass"})"},
    {{"perfmgr", "clear"}, R"({"cmd":"perfmgr","action":"clear"})"},
    {{"export", "roce"}, R"({"cmd":"export","what":"roce"})"},
    {{"dump", "mcfdbs", "-o", "/tmp/x"}, R"({"cmd":"dump","what":"mcfdbs"})"},
    {{"drain", "sw-L2-0", "sw-L0-1[5]"}, R"({"cmd":"drain","parts":["sw-L2-0","sw-L0-1[5]"],"force":false})"},
    {{"drain", "0x0002c90300001234", "--force"}, R"({"cmd":"drain","parts":["0x0002c90300001234"],"force":true})"},
    {{"undrain", "sw-L2-0"}, R"({"cmd":"undrain","all":false,"parts":["sw-L2-0"]})"},
    {{"undrain", "--all"}, R"({"cmd":"undrain","all":true})"},
    {{"what-if", "drain", "sw-L2-0", "0x20/3"}, R"({"cmd":"what_if_drain","parts":["sw-L2-0","0x20/3"]})"},
};

TEST(SmctlCommands, EachCommandLineSendsTheDocumentedRequest) {
  for (const Case& c : kCases) {
    const SmctlInvocation inv = parse(c.words);
    EXPECT_EQ(inv.request, Json::parse(c.request)) << c.words.front();
  }
}

TEST(SmctlCommands, EveryCatalogCommandIsSentBySomeCommandLine) {
  std::set<std::string> sent;
  for (const Case& c : kCases) sent.insert(parse(c.words).request.at("cmd").get<std::string>());
  for (const auto& info : control::kControlCommandCatalog)
    EXPECT_EQ(sent.count(std::string(info.name)), 1u) << info.name;
  EXPECT_EQ(sent.size(), control::kControlCommandCatalog.size());
}

TEST(SmctlCommands, GlobalOptionsAfterTheCommandAndTheirDefaults) {
  const SmctlInvocation plain = parse({"status"});
  EXPECT_EQ(plain.socket, "/run/smd/control.socket");
  EXPECT_FALSE(plain.json);
  EXPECT_EQ(plain.timeout_s, 30u);
  const SmctlInvocation late = parse({"status", "--json", "--timeout", "5", "--socket", "/tmp/s"});
  EXPECT_TRUE(late.json);
  EXPECT_EQ(late.timeout_s, 5u);
  EXPECT_EQ(late.socket, "/tmp/s");
}

TEST(SmctlCommands, BadArgumentsAreRefusedByTheParser) {
  EXPECT_THROW(parse({"port", "clear", "sw-2", "255"}), CLI::ValidationError);
  EXPECT_THROW(parse({"dump", "everything"}), CLI::ValidationError);
  EXPECT_THROW(parse({"route", "host-0"}), CLI::RequiredError);
  EXPECT_THROW(parse({"sweeps", "off"}), CLI::RequiredError);
}

TEST(SmctlCommands, HelpLinesAreTheCatalogs) {
  CLI::App app{"test"};
  SmctlInvocation inv;
  add_smctl_commands(app, inv, "/s");
  // Top-level words whose only command is the catalog row of the same (or dashed) name.
  const std::pair<const char*, const char*> words[] = {{"status", "status"},       {"lfts", "lfts"},
                                                       {"log-level", "log_level"}, {"sweeps", "sweeps"},
                                                       {"perfmgr", "perfmgr"},     {"dump", "dump"}};
  for (const auto& [word, name] : words) {
    EXPECT_EQ(app.get_subcommand(word)->get_description(), control::control_command_info(name).summary) << word;
  }
  EXPECT_EQ(app.get_subcommand("port")->get_subcommand("clear")->get_description(),
            control::control_command_info("port_clear").summary);
}

TEST(SmctlCommands, ListCommandsPrintsOneLinePerCatalogRowThenStops) {
  std::ostringstream out;
  print_command_list(out);
  std::istringstream lines(out.str());
  std::string line;
  std::size_t n = 0;
  for (; std::getline(lines, line); ++n) {
    ASSERT_LT(n, control::kControlCommandCatalog.size());
    const auto& row = control::kControlCommandCatalog[n];
    EXPECT_EQ(line.rfind(std::string(row.smctl), 0), 0u) << line;
    EXPECT_NE(line.find(std::string(row.summary)), std::string::npos) << line;
  }
  EXPECT_EQ(n, control::kControlCommandCatalog.size());
  EXPECT_THROW(parse({"--list-commands"}), CLI::Success);
}

}  // namespace
}  // namespace smd::smctl::smctl_commands_test
