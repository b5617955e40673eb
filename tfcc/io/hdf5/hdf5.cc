#include "tfcc/io/hdf5/hdf5.h"

#include <hdf5.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

static_assert(std::is_same_v<hid_t, int64_t>, "hid_t is stored as int64_t in hdf5.h");

namespace tfcc::io::hdf5 {
namespace {

constexpr size_t kMaxAttributeBytes = size_t{1} << 20;
constexpr int64_t kMaxElements = int64_t{1} << 31;
constexpr uint64_t kExpansion = 100;               // logical bytes per stored byte, at most
constexpr uint64_t kUnstoredAllowance = 64 << 10;  // fill-valued bytes allowed beyond that

std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex* mu = new std::recursive_mutex;  // used until exit
  return *mu;
}

// Holds the lock and keeps HDF5 from printing its error stack (tfcc reports errors itself).
struct Lock {
  std::lock_guard<std::recursive_mutex> guard{hdf5_mutex()};
  Lock() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
};

// The innermost message of HDF5's error stack, then clears it.
std::string hdf5_message() {
  std::string msg;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        auto* s = static_cast<std::string*>(out);
        if (n == 0 && e->desc) *s = e->desc;
        return 0;
      },
      &msg);
  H5Eclear2(H5E_DEFAULT);
  return msg.empty() ? "unknown HDF5 error" : msg;
}

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw DataLossError(tfcc::internal::str_cat(source, ": ", what, " (", hdf5_message(), ")"));
}

// An owned hid_t, closed with `close` (H5Dclose, H5Tclose, ...).
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

std::string unique_name() {
  static std::atomic<uint64_t> counter{0};
  return tfcc::internal::str_cat("tfcc-hdf5-image-", counter.fetch_add(1));
}

hid_t file_type_of(DType dtype) {
  switch (dtype) {
    case float32:
      return H5T_IEEE_F32LE;
    case float64:
      return H5T_IEEE_F64LE;
    case int32:
      return H5T_STD_I32LE;
    case int64:
      return H5T_STD_I64LE;
    case uint8:
      return H5T_STD_U8LE;
    default:
      throw UnimplementedError(
          tfcc::internal::str_cat("HDF5: cannot write a dataset of dtype ", dtype_name(dtype),
                                  " (float32, float64, int32, int64 and uint8 are supported)"));
  }
}

hid_t memory_type_of(DType dtype) {
  switch (dtype) {
    case float32:
      return H5T_NATIVE_FLOAT;
    case float64:
      return H5T_NATIVE_DOUBLE;
    case int32:
      return H5T_NATIVE_INT32;
    case int64:
      return H5T_NATIVE_INT64;
    default:
      return H5T_NATIVE_UINT8;
  }
}

// The tfcc dtype a stored type is read as.
DType dtype_for(hid_t type, const std::string& where) {
  const H5T_class_t cls = H5Tget_class(type);
  const size_t size = H5Tget_size(type);
  if (cls == H5T_FLOAT && size > 0) return size > 4 ? float64 : float32;
  if (cls == H5T_INTEGER) {
    const bool is_signed = H5Tget_sign(type) == H5T_SGN_2;
    if (!is_signed && size == 1) return uint8;
    if (is_signed && size <= 4) return int32;
    if (is_signed && size == 8) return int64;
  }
  throw UnimplementedError(tfcc::internal::str_cat(
      where, ": dataset type (HDF5 class ", static_cast<int>(cls), ", ", size,
      " bytes) is not supported (floating point and signed integers, uint8)"));
}

}  // namespace

namespace detail {
struct FileState {
  hid_t id = -1;
  std::string source;
  ~FileState() {
    Lock lock;
    if (id >= 0) H5Fclose(id);
  }
};
}  // namespace detail

bool has_hdf5_signature(std::string_view bytes) {
  return bytes.size() >= 8 && bytes.substr(0, 8) == std::string_view("\x89HDF\r\n\x1a\n", 8);
}

File File::open_image(std::string_view bytes, const std::string& source) {
  TFCC_REQUIRE(DataLossError, has_hdf5_signature(bytes), source,
               ": not an HDF5 file (no HDF5 signature at the start)");
  Lock lock;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0 ||
      H5Pset_file_image(fapl.get(), const_cast<char*>(bytes.data()), bytes.size()) < 0) {
    fail(source, "cannot set up the in-memory file");
  }
  auto state = std::make_shared<detail::FileState>();
  state->source = source;
  state->id = H5Fopen(unique_name().c_str(), H5F_ACC_RDONLY, fapl.get());
  if (state->id < 0) fail(source, "not a readable HDF5 file");
  return File(std::move(state));
}

File File::open(const std::string& path) { return open_image(read_file(path), path); }

File File::create(const std::string& source) {
  Lock lock;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 1 << 20, 0) < 0) {
    fail(source, "cannot set up the in-memory file");
  }
  auto state = std::make_shared<detail::FileState>();
  state->source = source;
  state->id = H5Fcreate(unique_name().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (state->id < 0) fail(source, "cannot create the file");
  return File(std::move(state));
}

Group File::root() const {
  Lock lock;
  hid_t id = H5Gopen2(state_->id, "/", H5P_DEFAULT);
  if (id < 0) fail(state_->source, "no root group");
  return Group(state_, id, "/");
}

std::string File::image() const {
  Lock lock;
  if (H5Fflush(state_->id, H5F_SCOPE_GLOBAL) < 0) fail(state_->source, "cannot flush");
  const ssize_t size = H5Fget_file_image(state_->id, nullptr, 0);
  if (size < 0) fail(state_->source, "cannot get the file image");
  std::string out(static_cast<size_t>(size), '\0');
  if (H5Fget_file_image(state_->id, out.data(), out.size()) != size) {
    fail(state_->source, "cannot get the file image");
  }
  return out;
}

const std::string& File::source() const { return state_->source; }

Group::Group(std::shared_ptr<detail::FileState> file, int64_t id, std::string path)
    : file_(std::move(file)),
      id_(new int64_t(id),
          [](int64_t* p) {
            Lock lock;
            H5Gclose(*p);
            delete p;
          }),
      path_(std::move(path)) {}

const std::string& Group::source() const { return file_->source; }

std::string Group::child_path(const std::string& name) const {
  std::string out = path_;
  if (out != "/") out.push_back('/');
  out.append(name);
  return out;
}

std::vector<std::string> Group::children() const {
  Lock lock;
  std::vector<std::string> names;
  auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  };
  if (H5Literate(*id_, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect, &names) < 0) {
    fail(file_->source, "cannot list the group " + path_);
  }
  return names;
}

namespace {
// The HDF5 object kind at the relative path `name`, or H5I_BADID when absent. Walks the path
// one link at a time (H5Lexists fails on a missing intermediate group).
H5I_type_t object_kind(hid_t group, const std::string& name) {
  if (name.empty()) return H5I_BADID;
  std::string prefix;
  for (size_t start = 0; start <= name.size();) {
    size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    if (end == start) return H5I_BADID;  // empty component
    if (!prefix.empty()) prefix.push_back('/');
    prefix.append(name, start, end - start);
    if (H5Lexists(group, prefix.c_str(), H5P_DEFAULT) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      return H5I_BADID;
    }
    start = end + 1;
  }
  Handle obj(H5Oopen(group, name.c_str(), H5P_DEFAULT), H5Oclose);
  if (!obj.ok()) {
    H5Eclear2(H5E_DEFAULT);
    return H5I_BADID;
  }
  return H5Iget_type(obj.get());
}
}  // namespace

bool Group::has_group(const std::string& name) const {
  Lock lock;
  return object_kind(*id_, name) == H5I_GROUP;
}

bool Group::has_dataset(const std::string& name) const {
  Lock lock;
  return object_kind(*id_, name) == H5I_DATASET;
}

Group Group::group(const std::string& name) const {
  Lock lock;
  TFCC_REQUIRE(DataLossError, object_kind(*id_, name) == H5I_GROUP, file_->source, ": no group ",
               child_path(name));
  hid_t id = H5Gopen2(*id_, name.c_str(), H5P_DEFAULT);
  if (id < 0) fail(file_->source, "cannot open the group " + child_path(name));
  return Group(file_, id, child_path(name));
}

Group Group::create_group(const std::string& name) {
  Lock lock;
  hid_t id = H5Gcreate2(*id_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) fail(file_->source, "cannot create the group " + child_path(name));
  return Group(file_, id, child_path(name));
}

Tensor Group::read(const std::string& name) const {
  Lock lock;
  const std::string where = tfcc::internal::str_cat(file_->source, ": dataset ", child_path(name));
  TFCC_REQUIRE(DataLossError, object_kind(*id_, name) == H5I_DATASET, file_->source,
               ": no dataset ", child_path(name));
  Handle dset(H5Dopen2(*id_, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dset.ok()) fail(file_->source, "cannot open the dataset " + child_path(name));
  Handle type(H5Dget_type(dset.get()), H5Tclose);
  Handle space(H5Dget_space(dset.get()), H5Sclose);
  if (!type.ok() || !space.ok()) fail(file_->source, "unreadable dataset " + child_path(name));
  const DType dtype = dtype_for(type.get(), where);
  std::vector<int64_t> dims;
  const H5S_class_t kind = H5Sget_simple_extent_type(space.get());
  if (kind == H5S_SIMPLE) {
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0 || rank > H5S_MAX_RANK) fail(file_->source, "bad rank in " + child_path(name));
    std::vector<hsize_t> h(static_cast<size_t>(rank));
    if (H5Sget_simple_extent_dims(space.get(), h.data(), nullptr) < 0) {
      fail(file_->source, "bad dimensions in " + child_path(name));
    }
    int64_t count = 1;
    for (hsize_t d : h) {
      TFCC_REQUIRE(DataLossError, d <= static_cast<hsize_t>(kMaxElements), where,
                   " has a dimension of ", d, " (more than 2^31)");
      count *= static_cast<int64_t>(d);
      TFCC_REQUIRE(DataLossError, count <= kMaxElements, where, " holds more than 2^31 elements");
      dims.push_back(static_cast<int64_t>(d));
    }
  } else {
    TFCC_REQUIRE(DataLossError, kind == H5S_SCALAR, where, " has no data (null dataspace)");
  }
  const Shape shape(dims);
  const uint64_t bytes = static_cast<uint64_t>(shape.num_elements()) * dtype_size(dtype);
  const uint64_t stored = H5Dget_storage_size(dset.get());
  TFCC_REQUIRE(DataLossError, bytes <= stored * kExpansion + kUnstoredAllowance, where, " claims ",
               bytes, " bytes but stores ", stored, " (a damaged or hostile file)");
  Tensor out = Tensor::empty(dtype, shape);
  if (shape.num_elements() > 0 && H5Dread(dset.get(), memory_type_of(dtype), H5S_ALL, H5S_ALL,
                                          H5P_DEFAULT, out.mutable_raw_data()) < 0) {
    fail(file_->source, "cannot read the dataset " + child_path(name));
  }
  return out;
}

void Group::write(const std::string& name, const Tensor& value) {
  Lock lock;
  const hid_t file_type = file_type_of(value.dtype());
  std::vector<hsize_t> dims;
  for (int64_t d : value.shape().dims()) dims.push_back(static_cast<hsize_t>(d));
  Handle space(dims.empty() ? H5Screate(H5S_SCALAR)
                            : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr),
               H5Sclose);
  if (!space.ok()) fail(file_->source, "cannot make the dataspace of " + child_path(name));
  Handle dset(
      H5Dcreate2(*id_, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  if (!dset.ok()) fail(file_->source, "cannot create the dataset " + child_path(name));
  if (value.shape().num_elements() > 0 &&
      H5Dwrite(dset.get(), memory_type_of(value.dtype()), H5S_ALL, H5S_ALL, H5P_DEFAULT,
               value.raw_data()) < 0) {
    fail(file_->source, "cannot write the dataset " + child_path(name));
  }
}

std::optional<std::string> Group::string_attribute(const std::string& name) const {
  Lock lock;
  const htri_t exists = H5Aexists(*id_, name.c_str());
  if (exists < 0) fail(file_->source, "cannot read the attributes of " + path_);
  if (exists == 0) return std::nullopt;
  const std::string where =
      tfcc::internal::str_cat(file_->source, ": attribute '", name, "' of ", path_);
  Handle attr(H5Aopen(*id_, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attr.ok()) fail(file_->source, "cannot open the attribute " + name + " of " + path_);
  Handle type(H5Aget_type(attr.get()), H5Tclose);
  Handle space(H5Aget_space(attr.get()), H5Sclose);
  TFCC_REQUIRE(DataLossError, type.ok() && space.ok() && H5Tget_class(type.get()) == H5T_STRING,
               where, " is not a string");
  TFCC_REQUIRE(DataLossError, H5Sget_simple_extent_npoints(space.get()) == 1, where,
               " is not a single string");
  Handle memtype(H5Tcopy(H5T_C_S1), H5Tclose);
  // The same character set as stored (HDF5 converts no ASCII <-> UTF-8).
  if (!memtype.ok() || H5Tset_cset(memtype.get(), H5Tget_cset(type.get())) < 0) {
    fail(file_->source, "unsupported string type for " + name);
  }
  if (H5Tis_variable_str(type.get()) > 0) {
    if (H5Tset_size(memtype.get(), H5T_VARIABLE) < 0) fail(file_->source, "string type");
    char* text = nullptr;
    if (H5Aread(attr.get(), memtype.get(), &text) < 0) fail(file_->source, "cannot read " + name);
    std::string out = text ? std::string(text, strnlen(text, kMaxAttributeBytes)) : "";
    H5free_memory(text);
    return out;
  }
  const size_t size = H5Tget_size(type.get());
  TFCC_REQUIRE(DataLossError, size > 0 && size <= kMaxAttributeBytes, where, " has a size of ",
               size, " bytes");
  if (H5Tset_size(memtype.get(), size) < 0) fail(file_->source, "string type");
  std::string out(size, '\0');
  if (H5Aread(attr.get(), memtype.get(), out.data()) < 0)
    fail(file_->source, "cannot read " + name);
  out.resize(strnlen(out.data(), out.size()));
  return out;
}

void Group::set_string_attribute(const std::string& name, const std::string& value) {
  Lock lock;
  if (H5Aexists(*id_, name.c_str()) > 0) H5Adelete(*id_, name.c_str());
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  if (!type.ok() || !space.ok() || H5Tset_size(type.get(), H5T_VARIABLE) < 0 ||
      H5Tset_cset(type.get(), H5T_CSET_UTF8) < 0) {
    fail(file_->source, "cannot make a string type");
  }
  Handle attr(H5Acreate2(*id_, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
  const char* text = value.c_str();
  if (!attr.ok() || H5Awrite(attr.get(), type.get(), &text) < 0) {
    fail(file_->source, "cannot write the attribute " + name + " of " + path_);
  }
}

}  // namespace tfcc::io::hdf5
