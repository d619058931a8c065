#include "smd/protocol/control_protocol.h"

namespace smd::control {

Json ok_response(Json result) { return {{"ok", true}, {"result", std::move(result)}}; }

Json error_response(const std::string& message) { return {{"ok", false}, {"error", message}}; }

std::string to_line(const Json& response) {
  return response.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<Json> parse_request(std::string_view line) {
  Json request = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) return make_error(ErrorCode::kInvalidInput, "request is not valid JSON");
  if (!request.is_object()) return make_error(ErrorCode::kInvalidInput, "request must be a JSON object");
  const auto cmd = request.find("cmd");
  if (cmd == request.end() || !cmd->is_string()) {
    return make_error(ErrorCode::kInvalidInput, "request has no string \"cmd\"");
  }
  return request;
}

}  // namespace smd::control
