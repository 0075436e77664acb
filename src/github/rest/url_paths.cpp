#include "github/rest/url_paths.h"

#include "core/http.h"

namespace lw::github {

std::string urlEncode(const std::string& s) { return lw::http::percentEncode(s); }

std::string urlEncodePath(const std::string& path) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    std::size_t end = path.find('/', start);
    out += urlEncode(path.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    out += '/';
    start = end + 1;
  }
}

}  // namespace lw::github
