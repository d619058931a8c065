#include "smd/report/chain_attempts_output.h"

#include <string>

namespace smd {

nlohmann::ordered_json declined_json(std::span<const ChainAttempt> declined) {
  auto out = nlohmann::ordered_json::array();
  for (const ChainAttempt& a : declined) {
    out.push_back({{"engine", a.engine}, {"reason", std::string(to_string(a.error.code)) + ": " + a.error.message}});
  }
  return out;
}

void print_declined(std::ostream& out, std::span<const ChainAttempt> declined) {
  for (const ChainAttempt& a : declined) {
    out << "declined      " << a.engine << ": " << to_string(a.error.code) << ": " << a.error.message << "\n";
  }
}

}  // namespace smd
