// A repository on GitHub by owner and name: what every request, event and
// publication names, below all of them.
#pragma once

#include <string>

namespace lw::github {

struct RepoRef {
  std::string owner;
  std::string name;
  std::string fullName() const { return owner + "/" + name; }
};

}  // namespace lw::github
