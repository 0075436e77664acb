// A certificate authority made for one test, with the openssl command: its
// certificate (ca.pem) and a server certificate it signed for 127.0.0.1
// (server.pem, server.key), so that a client's CA handling is exercised for
// real against support/local_http_server.h's https mode. P-256 keys, valid
// for a day.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "support/temp_dir.h"

namespace lw::test {

struct TestCa {
  TempDir dir;
  std::string caFile = (dir.root / "ca.pem").string();
  std::string certFile = (dir.root / "server.pem").string();
  std::string keyFile = (dir.root / "server.key").string();

  explicit TestCa(const std::string& name = "lw-test-ca") {
    const std::string d = dir.root.string();
    dir.write("san.ext", "subjectAltName=IP:127.0.0.1\n");
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=" + name + " -keyout " +
        d + "/ca.key -out " + caFile);
    run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=127.0.0.1 -keyout " + keyFile +
        " -out " + d + "/server.csr");
    run("openssl x509 -req -days 1 -in " + d + "/server.csr -CA " + caFile + " -CAkey " + d +
        "/ca.key -CAcreateserial -extfile " + d + "/san.ext -out " + certFile);
  }

  std::string caPem() const {
    std::stringstream text;
    text << std::ifstream(caFile).rdbuf();
    return text.str();
  }

 private:
  void run(const std::string& command) const {
    if (std::system((command + " >" + dir.root.string() + "/openssl.log 2>&1").c_str()) != 0)
      throw std::runtime_error("openssl failed: " + command);
  }
};

}  // namespace lw::test
