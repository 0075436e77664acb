#include "egress/connection_record.h"

#include <boost/json/object.hpp>

namespace lw::egress {

boost::json::value toJson(const ConnectionRecord& r) {
  return boost::json::object{{"host", r.host},
                             {"port", r.port},
                             {"kind", r.tunnel ? "tunnel" : "http"},
                             {"allowed", r.allowed},
                             {"reason", r.reason},
                             {"address", r.address},
                             {"bytesSent", r.bytesSent},
                             {"bytesReceived", r.bytesReceived},
                             {"startedMs", r.startedMs},
                             {"durationMs", r.durationMs}};
}

}  // namespace lw::egress
