// comparison_report: see comparison_report.h.
#include "smd/cli/comparison_report.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "routing/roce/fabric_sketch.h"
#include "routing/roce/report_chart.h"
#include "routing/roce/report_text.h"
#include "routing/roce/xml_text.h"

namespace smd {
namespace {

/// An SVG document inlined in HTML: from its root <svg on (the XML declaration is not HTML).
std::string_view svg_element(std::string_view doc) {
  const std::size_t at = doc.find("<svg");
  return at == std::string_view::npos ? std::string_view{} : doc.substr(at);
}

/// JSON inside <script type="application/json">: "</" would end the element, so every '<' is
/// written as the JSON escape \u003c (the text still parses to the same value).
std::string script_safe(const std::string& json) {
  std::string out;
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "li{margin:.35em 0;line-height:1.35}svg{max-width:100%;height:auto}.small{color:#555;font-size:.9em}";

// Why the collectives chart is empty, in the operator's own words: nothing asked ("none" or an empty
// list), or a list every collective of which was left out (expert groups inside hosts), with the notes
// that say so.
std::string no_collectives_html(const std::string& asked, const std::vector<std::string>& notes) {
  using roce::xml_escape;
  if (asked == "none" || asked.empty()) {
    return "<p>No collectives were timed (--collectives " + (asked.empty() ? std::string("''") : asked) + ").</p>\n";
  }
  std::string out = "<p>No collectives were timed: every one of --collectives " + xml_escape(asked) +
                    " was left out.</p>\n";
  std::string why;
  for (const std::string& n : notes) {
    if (n.find(" left out") != std::string::npos) why += "<li>" + xml_escape(n) + "</li>\n";
  }
  return why.empty() ? out : out + "<ul>\n" + why + "</ul>\n";
}

}  // namespace

std::string comparison_report_html(const ComparisonReportInput& in) {
  using roce::xml_escape;
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << xml_escape(in.title)
    << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>" << xml_escape(in.title) << "</h1>\n";
  if (!in.before) {
    s << "<p>No comparison was run.</p>\n</body>\n</html>\n";
    return s.str();
  }
  const roce::Comparison& before = *in.before;
  // 1. The collectives, before and after on one scale.
  s << "<section id=\"collectives\">\n<h2>Collectives: completion time relative to ideal</h2>\n";
  if (before.collectives.empty()) {
    s << no_collectives_html(in.collectives_asked, before.notes);
  } else {
    double axis = roce::report_axis_max(before.collectives);
    if (in.after) axis = std::max(axis, roce::report_axis_max(in.after->collectives));
    s << roce::report_chart(before.collectives, axis, in.after ? "before the loss" : "on the whole fabric as given");
    if (in.after) s << roce::report_chart(in.after->collectives, axis, "after losing " + in.loss_text);
  }
  s << "</section>\n";
  // 2. What the numbers say.
  s << "<section id=\"findings\">\n<h2>What changed and why</h2>\n<ul>\n";
  for (const auto& f : roce::report_findings(before, in.after, in.loss_text, in.ib_tables_after)) {
    s << "<li>" << xml_escape(f) << "</li>\n";
  }
  s << "</ul>\n</section>\n";
  // 3. The fabric with the focus's hottest cables.
  if (in.plan) {
    s << "<section id=\"fabric\">\n<h2>The fabric and its hottest cables</h2>\n";
    const auto focus = roce::report_focus(before);
    s << "<p class=\"small\">Switch-to-switch cables; the three hottest of each scheme in "
      << xml_escape(roce::focus_label(before, focus)) << " in the scheme's colour.</p>\n"
      << "<div class=\"sketch\" data-when=\"before\" data-focus=\"" << xml_escape(roce::focus_label(before, focus))
      << "\">\n"
      << roce::fabric_sketch(*in.plan, nullptr, roce::focus_marks(before, focus),
                             "hottest cables in " + roce::focus_label(before, focus))
      << "</div>\n";
    if (in.after) {
      const auto after_focus = roce::report_focus(*in.after);
      s << "<div class=\"sketch\" data-when=\"after\" data-focus=\""
        << xml_escape(roce::focus_label(*in.after, after_focus)) << "\">\n"
        << roce::fabric_sketch(*in.plan, in.after_plan, roce::focus_marks(*in.after, after_focus),
                               "after losing " + in.loss_text + " (lost cables dashed red): hottest cables in " +
                                   roce::focus_label(*in.after, after_focus))
        << "</div>\n";
    }
    s << "</section>\n";
  }
  // 4. Every figure, 5. every number.
  s << "<section id=\"details\">\n<h2>Every figure</h2>\n"
    << svg_element(in.details_svg) << "</section>\n"
    << "<section id=\"data\">\n<h2>The numbers</h2>\n<p class=\"small\">The comparison as <code>smd plan --format "
       "json</code> gives it (roce.comparison, roce.after_loss), in this page's source.</p>\n"
    << "<script type=\"application/json\" id=\"comparison-json\">"
    << script_safe(in.json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace))
    << "</script>\n</section>\n</body>\n</html>\n";
  return s.str();
}

}  // namespace smd
