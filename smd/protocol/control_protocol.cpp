#include "smd/protocol/control_protocol.h"

#include <set>
#include <string>

namespace smd::control {

Json ok_response(Json result) { return {{"ok", true}, {"result", std::move(result)}}; }

Json error_response(const std::string& message) { return {{"ok", false}, {"error", message}}; }

std::string to_line(const Json& response) {
  return response.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<Json> parse_request(std::string_view line) {
  // A key given twice would silently keep the last ({"cmd":"status","cmd":"sweep"} sweeps): refuse it.
  std::set<std::string> top_keys;
  std::string twice;
  const Json::parser_callback_t note_keys = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (depth == 1 && event == Json::parse_event_t::key && parsed.is_string() &&
        !top_keys.insert(parsed.get<std::string>()).second && twice.empty()) {
      twice = parsed.get<std::string>();
    }
    return true;
  };
  Json request = Json::parse(line, note_keys, /*allow_exceptions=*/false);
  if (request.is_discarded()) return make_error(ErrorCode::kInvalidInput, "request is not valid JSON");
  if (!twice.empty()) return make_error(ErrorCode::kInvalidInput, "request gives \"" + twice + "\" twice");
  if (!request.is_object()) return make_error(ErrorCode::kInvalidInput, "request must be a JSON object");
  const auto cmd = request.find("cmd");
  if (cmd == request.end() || !cmd->is_string()) {
    return make_error(ErrorCode::kInvalidInput, "request has no string \"cmd\"");
  }
  return request;
}

}  // namespace smd::control
