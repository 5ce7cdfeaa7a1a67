#include "mapper/report/report_page.h"

#include <stdexcept>
#include <string>
#include <string_view>

#include "mapper/report/page_assets.h"

namespace testmap::report {
namespace {

// JSON inside <script type="application/json">: the HTML parser ends the
// element at the first "</script" and treats "<!--" specially, whatever
// the JSON means. '<' only ever occurs inside JSON strings, where \u003c
// means the same character.
std::string ScriptSafeJson(const nlohmann::json& j) {
  std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 64);
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

// Writes `page` with `marker` replaced by `content`, once.
void Splice(std::string& page, std::string_view marker, std::string_view content) {
  size_t at = page.find(marker);
  if (at == std::string::npos)
    throw std::logic_error("mapper/report/assets/page.html lacks " + std::string(marker));
  page.replace(at, marker.size(), content);
}

}  // namespace

void RenderReportPage(const nlohmann::json& page_data, std::ostream& out) {
  std::string page = assets::k_page_html;
  Splice(page, "/*TESTMAP_PAGE_CSS*/", assets::k_page_css);
  Splice(page, "/*TESTMAP_PAGE_JS*/", assets::k_page_js);
  // Last: the data may contain any of the markers as text.
  Splice(page, "__TESTMAP_PAGE_DATA__", ScriptSafeJson(page_data));
  out << page;
}

}  // namespace testmap::report
