#include "tfcc/io/proto/message_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>

#include "tfcc/platform/errors.h"

namespace tfcc::io::proto {

void parse(google::protobuf::MessageLite& message, std::string_view bytes,
           std::string_view context) {
  auto fail = [&](std::string_view why) {
    std::string type = message.GetTypeName();
    if (type.starts_with("tensorflow.")) type.erase(0, 11);  // "Event", as TensorFlow names it
    throw DataLossError(::tfcc::internal::str_cat(context, context.empty() ? "" : ": ",
                                                  "malformed ", type, " (", bytes.size(),
                                                  " bytes): ", why));
  };
  if (bytes.size() > static_cast<size_t>(INT_MAX)) fail("larger than protobuf's 2 GiB limit");
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kMaxNestingDepth);
  if (!message.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    fail(
        "not a valid encoding (truncated, a bad length or tag, nesting deeper than 64, or a "
        "string that is not UTF-8)");
  }
}

std::string serialize(const google::protobuf::MessageLite& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

}  // namespace tfcc::io::proto
