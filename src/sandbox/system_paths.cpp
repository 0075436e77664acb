#include "sandbox/system_paths.h"

namespace lw::sandbox {

const std::vector<std::string>& systemTrees() {
  static const std::vector<std::string> paths = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};
  return paths;
}

const std::vector<std::string>& systemEtcPaths() {
  static const std::vector<std::string> paths = {
      // users and name service (passwd and group hold no secrets: shadow does)
      "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts", "/etc/host.conf", "/etc/resolv.conf",
      "/etc/gai.conf", "/etc/services", "/etc/protocols",
      // the dynamic loader
      "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
      // time and locale
      "/etc/localtime", "/etc/timezone", "/etc/locale.alias",
      // TLS roots (Debian, then Red Hat's layout); the private key directories beside them
      // are root-only and left out
      "/etc/ssl/certs", "/etc/ssl/openssl.cnf", "/etc/ca-certificates", "/etc/pki/ca-trust", "/etc/pki/tls/certs",
      "/etc/pki/tls/cert.pem", "/etc/pki/tls/openssl.cnf",
      // tool defaults
      "/etc/alternatives", "/etc/os-release", "/etc/debian_version", "/etc/mime.types", "/etc/gitconfig", "/etc/magic",
      "/etc/terminfo", "/etc/inputrc"};
  return paths;
}

bool othersMayRead(const struct stat& st) {
  const mode_t need = S_ISDIR(st.st_mode) ? (S_IROTH | S_IXOTH) : S_IROTH;
  return (st.st_mode & need) == need;
}

}  // namespace lw::sandbox
