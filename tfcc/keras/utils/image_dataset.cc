// image_dataset_from_directory: the file index (Keras' index_directory), the NumPy-compatible
// shuffle, the split, and the decode + resize map.
#include "tfcc/keras/utils/image_dataset.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <random>

#include "tfcc/io/image/image.h"
#include "tfcc/keras/utils/smart_resize.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/image/image.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::utils {
namespace {

namespace fs = std::filesystem;

bool is_image_file(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* ext : {".bmp", ".gif", ".jpeg", ".jpg", ".png"}) {
    if (lower.ends_with(ext)) return true;
  }
  return false;
}

// The image files under `dir`, as os.walk + sorted(root) + sorted(files) lists them.
std::vector<std::string> image_files(const fs::path& dir, bool follow_links) {
  std::vector<std::pair<std::string, std::string>> found;  // (root, file name)
  auto opts =
      follow_links ? fs::directory_options::follow_directory_symlink : fs::directory_options::none;
  for (auto it = fs::recursive_directory_iterator(dir, opts);
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_directory()) continue;
    const std::string name = it->path().filename().string();
    if (is_image_file(name)) found.emplace_back(it->path().parent_path().string(), name);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  out.reserve(found.size());
  for (auto& [root, name] : found) out.push_back((fs::path(root) / name).string());
  return out;
}

// numpy.random.RandomState(seed).shuffle: Fisher-Yates from the end, each index drawn from
// MT19937 32-bit outputs masked to the next power of two minus one, rejecting values > i.
template <typename T>
void numpy_shuffle(std::vector<T>& v, uint32_t seed) {
  std::mt19937 mt(seed);
  for (size_t i = v.size(); i-- > 1;) {
    uint32_t mask = static_cast<uint32_t>(i);
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    uint32_t j;
    do {
      j = static_cast<uint32_t>(mt()) & mask;
    } while (j > i);
    std::swap(v[i], v[j]);
  }
}

struct Index {
  std::vector<std::string> paths;
  std::vector<int32_t> labels;
  std::vector<std::string> class_names;
};

Index index_directory(const std::string& directory, const ImageDatasetOptions& o) {
  if (!fs::is_directory(directory)) {
    throw NotFoundError("image_dataset_from_directory: directory " + directory + " does not exist");
  }
  Index index;
  std::vector<std::string> subdirs;
  if (o.labels == "inferred") {
    for (const auto& e : fs::directory_iterator(directory)) {
      const std::string name = e.path().filename().string();
      if (e.is_directory() && !name.starts_with(".")) subdirs.push_back(name);
    }
    std::sort(subdirs.begin(), subdirs.end());
    if (!o.class_names.empty()) {
      for (const auto& c : o.class_names) {
        if (std::find(subdirs.begin(), subdirs.end(), c) == subdirs.end()) {
          std::string all;
          for (const auto& s : subdirs) all += (all.empty() ? "" : ", ") + s;
          throw InvalidArgumentError(
              "image_dataset_from_directory: the `class_names` passed did not match the names "
              "of the subdirectories of the target directory. Expected: [" +
              all + "] (or a subset of it), but received: '" + c + "'");
        }
      }
      subdirs = o.class_names;
    }
    index.class_names = subdirs;
  } else {
    TFCC_CHECK_ARG(o.class_names.empty(),
                   "image_dataset_from_directory: class_names can only be given with "
                   "labels=\"inferred\"");
    subdirs = {""};
  }
  for (size_t c = 0; c < subdirs.size(); ++c) {
    for (auto& p : image_files(fs::path(directory) / subdirs[c], o.follow_links)) {
      index.paths.push_back(std::move(p));
      index.labels.push_back(static_cast<int32_t>(c));
    }
  }
  return index;
}

Tensor label_tensor(int32_t label, const ImageDatasetOptions& o, int64_t classes) {
  if (o.label_mode == "int") return Tensor::scalar<int32_t>(label);
  if (o.label_mode == "binary") return Tensor::from_vector<float>({float(label)}, Shape{1});
  std::vector<float> hot(static_cast<size_t>(classes), 0.0f);
  hot[static_cast<size_t>(label)] = 1.0f;
  return Tensor::from_vector(hot, Shape{classes});
}

ImageDataset make_dataset(std::vector<std::string> paths, std::vector<int32_t> labels,
                          std::vector<std::string> class_names, const ImageDatasetOptions& o) {
  const bool with_labels = o.label_mode != "none";
  const int64_t channels = o.color_mode == "grayscale" ? 1 : o.color_mode == "rgba" ? 4 : 3;
  const int64_t classes = static_cast<int64_t>(class_names.size());
  const image::ResizeMethod method = image::resize_method(o.interpolation);
  const DType image_dtype = method == image::ResizeMethod::kNearest ? uint8 : float32;
  data::ElementSpec spec = {
      {image_dtype, PartialShape({o.image_size[0], o.image_size[1], channels})}};
  if (with_labels) {
    if (o.label_mode == "int") spec.push_back({int32, PartialShape(std::vector<int64_t>{})});
    if (o.label_mode == "binary") spec.push_back({float32, PartialShape({1})});
    if (o.label_mode == "categorical") spec.push_back({float32, PartialShape({classes})});
  }
  auto shared_paths = std::make_shared<const std::vector<std::string>>(paths);
  auto shared_labels = std::make_shared<const std::vector<int32_t>>(std::move(labels));
  const ImageDatasetOptions opts = o;
  auto load = [shared_paths, shared_labels, opts, channels, classes, method,
               with_labels](const data::Element& e) -> data::Element {
    const int64_t i = e[0].item<int64_t>();
    const std::string& path = (*shared_paths)[static_cast<size_t>(i)];
    Tensor bytes = io::read_file(path);
    Tensor img = io::decode_image(
        std::string_view(static_cast<const char*>(bytes.raw_data()), bytes.nbytes()),
        {.channels = static_cast<int>(channels), .expand_animations = false}, path);
    img = opts.crop_to_aspect_ratio ? smart_resize(img, opts.image_size, opts.interpolation)
                                    : image::resize(img, opts.image_size, {.method = method});
    if (!with_labels) return {img};
    return {img, label_tensor((*shared_labels)[static_cast<size_t>(i)], opts, classes)};
  };
  data::Dataset ds =
      data::Dataset::range(static_cast<int64_t>(paths.size()))
          .map_element(load, {.num_parallel_calls = o.num_parallel_calls, .output_spec = spec});
  std::optional<uint64_t> seed;
  if (o.seed) seed = static_cast<uint64_t>(*o.seed);
  if (o.batch_size > 0) {
    if (o.shuffle) ds = ds.shuffle(o.batch_size * 8, {.seed = seed});
    ds = ds.batch(o.batch_size);
  } else if (o.shuffle) {
    ds = ds.shuffle(1024, {.seed = seed});
  }
  ds = ds.prefetch(data::AUTOTUNE);
  return {ds, std::move(class_names), std::move(paths)};
}

void check_options(const ImageDatasetOptions& o) {
  const char* f = "image_dataset_from_directory: ";
  TFCC_CHECK_ARG(o.labels == "inferred" || o.labels == "none", f,
                 "`labels` must be \"inferred\" or \"none\", got \"", o.labels, "\"");
  TFCC_CHECK_ARG(o.label_mode == "int" || o.label_mode == "categorical" ||
                     o.label_mode == "binary" || o.label_mode == "none",
                 f,
                 "`label_mode` must be one of \"int\", \"categorical\", \"binary\", \"none\"; "
                 "got \"",
                 o.label_mode, "\"");
  TFCC_CHECK_ARG(o.labels != "none" || o.label_mode == "none", f,
                 "with labels=\"none\", label_mode must be \"none\"");
  TFCC_CHECK_ARG(o.color_mode == "rgb" || o.color_mode == "rgba" || o.color_mode == "grayscale", f,
                 "`color_mode` must be one of {\"rgb\", \"rgba\", \"grayscale\"}; got \"",
                 o.color_mode, "\"");
  TFCC_CHECK_ARG(o.image_size[0] > 0 && o.image_size[1] > 0, f, "image_size must be positive");
  TFCC_CHECK_ARG(o.batch_size >= 0, f, "batch_size must be >= 0 (0: unbatched)");
  if (o.validation_split) {
    TFCC_CHECK_ARG(*o.validation_split > 0 && *o.validation_split < 1, f,
                   "`validation_split` must be between 0 and 1, received: ", *o.validation_split);
    TFCC_CHECK_ARG(o.subset == "training" || o.subset == "validation" || o.subset == "both", f,
                   "with validation_split, `subset` must be \"training\", \"validation\" or "
                   "\"both\"; got \"",
                   o.subset, "\"");
    TFCC_CHECK_ARG(!o.shuffle || o.seed, f,
                   "if using `validation_split` and shuffling the data, you must provide a "
                   "`seed` argument, to make sure that there is no overlap between the training "
                   "and validation subset");
  } else {
    TFCC_CHECK_ARG(o.subset.empty(), f, "`subset` \"", o.subset, "\" needs a `validation_split`");
  }
  image::resize_method(o.interpolation);
}

// The file index, shuffled and checked; `seed` fixed when shuffling.
Index prepared_index(const std::string& directory, ImageDatasetOptions& o) {
  check_options(o);
  Index index = index_directory(directory, o);
  const char* f = "image_dataset_from_directory: ";
  if (o.label_mode == "binary") {
    TFCC_CHECK_ARG(index.class_names.size() == 2, f,
                   "when passing label_mode=\"binary\", there must be exactly 2 class_names; "
                   "found ",
                   index.class_names.size());
  }
  if (index.paths.empty()) {
    throw InvalidArgumentError(std::string(f) + "no images found in directory " + directory +
                               ". Allowed formats: .bmp, .gif, .jpeg, .jpg, .png");
  }
  if (o.verbose) {
    std::cout << "Found " << index.paths.size() << " files";
    if (o.labels == "inferred")
      std::cout << " belonging to " << index.class_names.size() << " classes";
    std::cout << ".\n";
  }
  if (o.shuffle) {
    if (!o.seed) o.seed = static_cast<int64_t>(std::random_device{}() % 1000000);
    numpy_shuffle(index.paths, static_cast<uint32_t>(*o.seed));
    numpy_shuffle(index.labels, static_cast<uint32_t>(*o.seed));
  }
  return index;
}

template <typename T>
std::vector<T> part(const std::vector<T>& v, size_t begin, size_t end) {
  return std::vector<T>(v.begin() + static_cast<ptrdiff_t>(begin),
                        v.begin() + static_cast<ptrdiff_t>(end));
}

}  // namespace

ImageDataset image_dataset_from_directory(const std::string& directory,
                                          const ImageDatasetOptions& options) {
  TFCC_CHECK_ARG(options.subset != "both",
                 "image_dataset_from_directory: for subset \"both\" call "
                 "image_datasets_from_directory, which returns the two datasets");
  ImageDatasetOptions o = options;
  Index index = prepared_index(directory, o);
  size_t begin = 0, end = index.paths.size();
  if (o.validation_split) {
    const auto val = static_cast<size_t>(*o.validation_split * double(index.paths.size()));
    if (o.subset == "training") {
      end -= val;
      if (o.verbose) std::cout << "Using " << end << " files for training.\n";
    } else {
      begin = end - val;
      if (o.verbose) std::cout << "Using " << val << " files for validation.\n";
    }
  }
  return make_dataset(part(index.paths, begin, end), part(index.labels, begin, end),
                      index.class_names, o);
}

std::pair<ImageDataset, ImageDataset> image_datasets_from_directory(const std::string& directory,
                                                                    ImageDatasetOptions o) {
  if (o.subset.empty()) o.subset = "both";
  TFCC_CHECK_ARG(o.subset == "both" && o.validation_split,
                 "image_datasets_from_directory: needs validation_split and subset \"both\"");
  Index index = prepared_index(directory, o);
  const size_t n = index.paths.size();
  const auto val = static_cast<size_t>(*o.validation_split * double(n));
  if (o.verbose) {
    std::cout << "Using " << n - val << " files for training.\nUsing " << val
              << " files for validation.\n";
  }
  return {make_dataset(part(index.paths, 0, n - val), part(index.labels, 0, n - val),
                       index.class_names, o),
          make_dataset(part(index.paths, n - val, n), part(index.labels, n - val, n),
                       index.class_names, o)};
}

}  // namespace tfcc::keras::utils
