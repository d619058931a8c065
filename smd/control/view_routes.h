// What the metrics endpoint answers besides GET /metrics (issue 46 item 1): the fabric view's page at / and
// /view, its script and style (built into the binary, view_assets.h), and the versioned JSON API under
// /api/v1/. Read-only by construction: every answer is a pure read of one frozen snapshot, and the only
// method served is GET (anything else is 405 with Allow: GET).
//
//   GET /api/v1            {version, endpoints: [...]}
//   GET /api/v1/fabric     fabric_view_json (fabric_view_json.h)
//   GET /api/v1/node/NAME  node_view_json; NAME as smctl reads it (description, GUID, LID)
//   GET /api/v1/sm         {status: status_json, last_sweep: report_json}: state, election peers, sweeps, drains
//   GET /api/v1/sa         sa_json
// Every JSON answer is {"ok": true, "version": 1, "result": ...} or {"ok": false, "version": 1, "error": ...},
// smctl's envelope (control_protocol.h) plus the API version.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// One HTTP answer before it goes on the wire.
struct ViewAnswer {
  unsigned status = 200;     ///< 200, 404, 405, 503
  std::string content_type;  ///< "application/json", "text/html; charset=utf-8", ...
  std::string body;
  bool allow_get = false;  ///< 405: send "Allow: GET"
};

/// True for the paths answer_view serves (so the server can send 405 rather than 404 for another method).
bool is_view_path(std::string_view path);

/// The answer to `method` ("GET", ...) on `path` (no query string), from `snap` (null before the daemon's
/// first publication: JSON paths get 503, the page is served anyway and says so when it polls).
ViewAnswer answer_view(std::string_view method, std::string_view path,
                       const std::shared_ptr<const FabricSnapshot>& snap);

}  // namespace smd::control
