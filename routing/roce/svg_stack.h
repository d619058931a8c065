// Several charts of svg_chart.h in one SVG document, one below the other: `smd plan --fail --svg` draws
// the comparison before the loss above the one after it, so the same bars can be read off both.
#pragma once

#include <span>
#include <string>

#include "routing/base/status.h"

namespace smd::roce {

/// One document holding `charts` (complete SVG documents as svg_chart returns them) stacked top to
/// bottom, each nested as an <svg> element at its offset; the width is the widest chart's. Errors:
/// kInvalidInput when a chart has no root <svg> element with numeric width and height attributes.
Result<std::string> svg_stack(std::span<const std::string> charts);

}  // namespace smd::roce
