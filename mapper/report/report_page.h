// The report as one HTML file: assets/page.html with the stylesheet, the
// script and the page data (page_data.h) inlined. No external reference
// of any kind: the page's Content-Security-Policy forbids every fetch, so
// it works from file:// and offline, and can be attached to a CI run.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace testmap::report {

void RenderReportPage(const nlohmann::json& page_data, std::ostream& out);

}  // namespace testmap::report
