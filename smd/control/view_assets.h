// The fabric view's static files (smd/control/view/: index.html, view.js, view.css), built into the binary
// at build time by smd/control/view/embed_assets.cmake, so the page works offline and a package carries no
// separate web root. The generated source defines view_assets().
#pragma once

#include <span>
#include <string_view>

namespace smd::control {

/// One embedded file: the URL path it is served at ("/view.js"), its Content-Type, and its bytes.
struct ViewAsset {
  std::string_view path;
  std::string_view content_type;
  std::string_view body;
};

/// Every embedded file, index.html first (served at "/" and "/view" as well as "/index.html").
std::span<const ViewAsset> view_assets();

}  // namespace smd::control
