#include "smd/control/view_routes.h"

#include "smd/control/fabric_view_json.h"
#include "smd/control/requests.h"
#include "smd/control/view_assets.h"

namespace smd::control {

namespace {

constexpr std::string_view kApi = "/api/v1";
constexpr std::string_view kNodePrefix = "/api/v1/node/";
constexpr std::string_view kJson = "application/json";

const ViewAsset* find_asset(std::string_view path) {
  const auto assets = view_assets();
  if (assets.empty()) return nullptr;
  if (path == "/" || path == "/view" || path == "/view/") return &assets.front();
  for (const ViewAsset& a : assets) {
    if (a.path == path) return &a;
  }
  return nullptr;
}

ViewAnswer json_answer(unsigned status, Json body) { return {status, std::string(kJson), to_line(body), false}; }

ViewAnswer ok(Json result) {
  return json_answer(200, {{"ok", true}, {"version", kViewApiVersion}, {"result", std::move(result)}});
}

ViewAnswer fail(unsigned status, const std::string& message) {
  return json_answer(status, {{"ok", false}, {"version", kViewApiVersion}, {"error", message}});
}

// "%2F" and friends in a node name ("leaf 1" arrives as "leaf%201"); a bad escape is kept as it is.
std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      const int hi = hex(text[i + 1]);
      const int lo = hex(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

ViewAnswer api(std::string_view path, const FabricSnapshot& snap) {
  if (path == kApi || path == "/api/v1/") {
    return ok({{"version", kViewApiVersion},
               {"endpoints", {"/api/v1/fabric", "/api/v1/node/NAME", "/api/v1/sm", "/api/v1/sa"}}});
  }
  if (path == "/api/v1/fabric") return ok(fabric_view_json(snap));
  if (path == "/api/v1/sm") return ok({{"status", status_json(snap)}, {"last_sweep", report_json(snap.last_sweep)}});
  if (path == "/api/v1/sa") return ok(sa_json(snap.sa.get()));
  if (path.starts_with(kNodePrefix) && path.size() > kNodePrefix.size()) {
    auto page = node_view_json(snap, percent_decode(path.substr(kNodePrefix.size())));
    if (!page.ok()) return fail(404, page.error().message);
    return ok(std::move(*page));
  }
  return fail(404, "not found: " + std::string(path) + " (the API is listed at /api/v1)");
}

}  // namespace

bool is_view_path(std::string_view path) {
  return path == kApi || path.starts_with("/api/v1/") || find_asset(path) != nullptr;
}

ViewAnswer answer_view(std::string_view method, std::string_view path,
                       const std::shared_ptr<const FabricSnapshot>& snap) {
  const bool is_api = path == kApi || path.starts_with("/api/v1/");
  if (!is_view_path(path)) {
    return {404, "text/plain", "not found: smd serves /metrics, the fabric view at / and its API at /api/v1\n", false};
  }
  if (method != "GET") {
    return {405, "text/plain",
            "method not allowed: " + std::string(path) + " is read with GET (the view changes nothing)\n", true};
  }
  if (!is_api) {
    const ViewAsset* asset = find_asset(path);
    return {200, std::string(asset->content_type), std::string(asset->body), false};
  }
  if (!snap) return fail(503, "smd has published no state yet");
  return api(path, *snap);
}

}  // namespace smd::control
