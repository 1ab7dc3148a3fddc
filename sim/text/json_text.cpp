// See json_text.h.
#include "sim/text/json_text.h"

namespace perflab {

std::string json_text(const Json& doc, int indent) {
  return doc.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace perflab
