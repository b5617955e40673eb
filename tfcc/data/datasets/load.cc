#include "tfcc/data/datasets/load.h"

#include <cstdlib>
#include <sstream>

#include "tfcc/data/idx.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::datasets {
namespace {

struct Known {
  const char* name;
  const char* dir;  // Debian's folder name under /usr/share/datasets
  const char* description;
  const char* install;
  std::vector<std::string> classes;
};

const std::vector<Known>& known() {
  static const std::vector<Known> k = {
      {"fashion_mnist",
       "fashion-mnist",
       "Fashion-MNIST: 28x28 grayscale images of 70,000 fashion products from 10 categories "
       "(Zalando Research).",
       "Install it with `apt-get install dataset-fashion-mnist` (Debian), or put the four IDX "
       "files there",
       {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
        "Ankle boot"}},
      {"mnist",
       "mnist",
       "MNIST: 28x28 grayscale images of 70,000 handwritten digits (LeCun et al.).",
       "No Debian package ships the MNIST digits (dataset-fashion-mnist holds Fashion-MNIST in the "
       "same format); download train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
       "t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz into one of these folders",
       {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
  };
  return k;
}

const char* const kFiles[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
                              "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"};

// The path of `base` in `dir`, plain or .gz, or "" if neither exists.
std::string find_file(const std::string& dir, const std::string& base) {
  std::string plain = dir + "/" + base;
  if (file_exists(plain)) return plain;
  std::string gz = plain + ".gz";
  return file_exists(gz) ? gz : "";
}

bool has_all(const std::string& dir) {
  for (const char* f : kFiles) {
    if (find_file(dir, f).empty()) return false;
  }
  return true;
}

// The images (uint8 (N, 28, 28)) and labels (uint8 (N,), each below num_classes) of one split.
std::pair<Tensor, Tensor> read_split(const std::string& dir, const char* images_file,
                                     const char* labels_file, int64_t num_classes) {
  std::string ip = find_file(dir, images_file), lp = find_file(dir, labels_file);
  Tensor images = data::read_idx(ip);
  Tensor labels = data::read_idx(lp);
  if (images.dtype() != uint8 || images.rank() != 3 || images.shape().dim(1) != 28 ||
      images.shape().dim(2) != 28) {
    throw DataLossError(tfcc::internal::str_cat(
        "Images file ", ip, " holds a ", dtype_name(images.dtype()), " tensor of shape ",
        images.shape().to_string(), "; expected uint8 (N, 28, 28)"));
  }
  if (labels.dtype() != uint8 || labels.rank() != 1 ||
      labels.shape().dim(0) != images.shape().dim(0)) {
    throw DataLossError(tfcc::internal::str_cat(
        "Labels file ", lp, " holds a ", dtype_name(labels.dtype()), " tensor of shape ",
        labels.shape().to_string(), "; expected uint8 (", images.shape().dim(0), ",)"));
  }
  const uint8_t* in = labels.data<uint8_t>();
  for (int64_t i = 0; i < labels.shape().dim(0); ++i) {
    if (in[i] >= num_classes) {
      throw DataLossError(tfcc::internal::str_cat("Labels file ", lp, ": label ", int(in[i]),
                                                  " of example ", i, " (offset ", 8 + i,
                                                  ") is not below ", num_classes));
    }
  }
  return {images, labels};
}

data::Dataset load_split(const std::string& dir, const char* images_file, const char* labels_file,
                         int64_t num_classes, int64_t* count) {
  auto [images, labels] = read_split(dir, images_file, labels_file, num_classes);
  int64_t n = labels.shape().dim(0);
  Tensor labels64 = Tensor::empty(int64, Shape{n});
  const uint8_t* in = labels.data<uint8_t>();
  int64_t* out = labels64.mutable_data<int64_t>();
  for (int64_t i = 0; i < n; ++i) out[i] = in[i];
  *count = n;
  return data::Dataset::from_tensor_slices({images, labels64});
}

// The known dataset called `name` and the first folder holding its four files; NotFoundError
// naming every folder searched otherwise.
std::pair<const Known*, std::string> find_dataset(const std::string& name,
                                                  const LoadOptions& options) {
  const Known* k = nullptr;
  for (const Known& c : known()) {
    if (name == c.name) k = &c;
  }
  if (!k) {
    std::string names;
    for (const Known& c : known()) {
      if (!names.empty()) names.append(", ");
      names.append(c.name);
    }
    throw NotFoundError(
        tfcc::internal::str_cat("Dataset ", name, " not found. Available: ", names));
  }
  std::vector<std::string> searched;
  if (!options.data_dir.empty()) searched.push_back(options.data_dir);
  if (const char* env = std::getenv("TFCC_DATASETS_DIR"); env && *env) {
    searched.push_back(std::string(env) + "/" + k->name);
    if (std::string(k->name) != k->dir) searched.push_back(std::string(env) + "/" + k->dir);
  }
  searched.push_back(std::string("/usr/share/datasets/") + k->dir);
  std::string dir;
  for (const std::string& d : searched) {
    if (has_all(d)) {
      dir = d;
      break;
    }
  }
  if (dir.empty()) {
    std::string places;
    for (const std::string& d : searched) {
      places.append("\n  ");
      places.append(d);
    }
    const char* env = std::getenv("TFCC_DATASETS_DIR");
    throw NotFoundError(tfcc::internal::str_cat(
        "Dataset ", name, " not found: no folder holds its four IDX files (", kFiles[0], "[.gz], ",
        kFiles[1], "[.gz], ", kFiles[2], "[.gz], ", kFiles[3], "[.gz]). Searched:", places,
        env && *env ? "" : "\n  ($TFCC_DATASETS_DIR is not set)", "\n", k->install, "."));
  }
  return {k, dir};
}

}  // namespace

const data::Dataset& Splits::operator[](std::string_view split) const {
  if (split == "train") return train;
  if (split == "test") return test;
  throw NotFoundError(tfcc::internal::str_cat("Unknown split \"", split,
                                              "\"; this dataset has \"train\" and \"test\""));
}

std::string DatasetInfo::to_string() const {
  std::ostringstream os;
  os << "tfcc::datasets::DatasetInfo(\n    name='" << name << "',\n    description='" << description
     << "',\n    data_dir='" << data_dir << "',\n    features=(image: " << features[0].to_string()
     << ", label: " << features[1].to_string() << "),\n    num_classes=" << num_classes
     << ",\n    splits={";
  bool first = true;
  for (const auto& [split, n] : splits) {
    os << (first ? "" : ", ") << "'" << split << "': " << n;
    first = false;
  }
  os << "},\n)";
  return os.str();
}

LoadedWithInfo load_with_info(const std::string& name, const LoadOptions& options) {
  auto [k, dir] = find_dataset(name, options);
  DatasetInfo info;
  info.name = k->name;
  info.description = k->description;
  info.num_classes = static_cast<int64_t>(k->classes.size());
  info.class_names = k->classes;
  info.data_dir = dir;
  info.features = {{uint8, PartialShape{28, 28}}, {int64, PartialShape(Shape{})}};
  int64_t n_train = 0, n_test = 0;
  data::Dataset train = load_split(dir, kFiles[0], kFiles[1], info.num_classes, &n_train);
  data::Dataset test = load_split(dir, kFiles[2], kFiles[3], info.num_classes, &n_test);
  info.splits = {{"train", n_train}, {"test", n_test}};
  return LoadedWithInfo{Splits{std::move(train), std::move(test)}, std::move(info)};
}

Splits load(const std::string& name, const LoadOptions& options) {
  return load_with_info(name, options).datasets;
}

Arrays load_arrays(const std::string& name, const LoadOptions& options) {
  auto [k, dir] = find_dataset(name, options);
  const auto num_classes = static_cast<int64_t>(k->classes.size());
  auto [x_train, y_train] = read_split(dir, kFiles[0], kFiles[1], num_classes);
  auto [x_test, y_test] = read_split(dir, kFiles[2], kFiles[3], num_classes);
  return Arrays{x_train, y_train, x_test, y_test};
}

}  // namespace tfcc::datasets
