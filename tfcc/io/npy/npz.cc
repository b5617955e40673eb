// .npz: named .npy members in a zip archive.
#include "tfcc/io/npy/npy.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io {

std::string encode_npz(const NamedArrays& arrays) {
  zip::Members members;
  members.reserve(arrays.size());
  for (const auto& [name, tensor] : arrays) {
    TFCC_CHECK_ARG(!name.empty(), "save_npz: an array name is empty");
    for (const auto& [other, unused] : members) {
      TFCC_CHECK_ARG(other != name + ".npy", "save_npz: the name '", name, "' is used twice");
    }
    std::string member = name;
    member.append(".npy");
    members.emplace_back(std::move(member), encode_npy(tensor));
  }
  return zip::write(members);
}

NamedArrays decode_npz(std::string_view bytes, const std::string& source) {
  return tfcc::internal::guard_parse(source, [&] {
    NamedArrays out;
    for (auto& [name, data] : zip::read(bytes, source)) {
      std::string key = name;
      if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0) key.resize(key.size() - 4);
      std::string where = source;
      where.append(" member ").append(name);
      out.emplace_back(std::move(key), decode_npy(data, where));
    }
    return out;
  });
}

void save_npz(const std::string& path, const NamedArrays& arrays) {
  write_file_atomic(path, encode_npz(arrays));
}

NamedArrays load_npz(const std::string& path) { return decode_npz(read_file(path), path); }

}  // namespace tfcc::io
