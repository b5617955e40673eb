// Walking serialised Example / SequenceExample messages down to their feature map entries.
#include <google/protobuf/io/coded_stream.h>

#include <climits>

#include "tfcc/io/example/parse_internal.h"

namespace tfcc::io::internal {

namespace {

constexpr int kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5;

}  // namespace

bool for_each_field(std::string_view msg,
                    const std::function<bool(int, int, std::string_view)>& f) {
  if (msg.size() > static_cast<size_t>(INT_MAX)) return false;
  const auto* data = reinterpret_cast<const uint8_t*>(msg.data());
  google::protobuf::io::CodedInputStream in(data, static_cast<int>(msg.size()));
  while (true) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return in.ConsumedEntireMessage();
    const int field = static_cast<int>(tag >> 3), wire = static_cast<int>(tag & 7);
    if (field == 0) return false;
    std::string_view payload;
    switch (wire) {
      case kVarint: {
        uint64_t v;
        if (!in.ReadVarint64(&v)) return false;
        break;
      }
      case kFixed64:
        if (!in.Skip(8)) return false;
        break;
      case kFixed32:
        if (!in.Skip(4)) return false;
        break;
      case kLengthDelimited: {
        uint64_t len;  // read whole: ReadVarint32 would drop the high bits of a huge length
        if (!in.ReadVarint64(&len) || len > static_cast<uint64_t>(INT_MAX)) return false;
        const int at = in.CurrentPosition();
        if (!in.Skip(static_cast<int>(len))) return false;
        payload = msg.substr(static_cast<size_t>(at), len);
        break;
      }
      default:  // groups (deprecated, never in these messages) and invalid wire types
        return false;
    }
    if (!f(field, wire, payload)) return false;
  }
}

bool for_each_map_entry(std::string_view msg, int field,
                        const std::function<void(std::string_view, const Pieces&)>& visit) {
  Pieces value;
  return for_each_field(msg, [&](int number, int wire, std::string_view entry) {
    if (number != field || wire != kLengthDelimited) return true;  // unknown field: skipped
    std::string_view key;
    value.clear();
    bool ok = for_each_field(entry, [&](int n, int w, std::string_view p) {
      if (w != kLengthDelimited) return true;
      if (n == 1) key = p;  // the last occurrence wins, as for any singular field
      if (n == 2) value.push_back(p);
      return true;
    });
    if (!ok) return false;
    visit(key, value);
    return true;
  });
}

bool parse_pieces(const Pieces& pieces, google::protobuf::MessageLite& out) {
  out.Clear();
  for (std::string_view p : pieces) {
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(p.data()),
                                              static_cast<int>(p.size()));
    if (!out.MergeFromCodedStream(&in) || !in.ConsumedEntireMessage()) return false;
  }
  return true;
}

bool scan_features(std::string_view features, const KeyIndex& keys, std::vector<Pieces>& out) {
  return for_each_map_entry(features, 1, [&](std::string_view key, const Pieces& value) {
    auto it = keys.find(key);
    if (it != keys.end()) out[it->second] = value;
  });
}

}  // namespace tfcc::io::internal
