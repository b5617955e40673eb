#include "tfcc/keras/layers/reshaping.h"

#include <algorithm>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"

namespace tfcc::keras::layers {
namespace {

void check_channels_last(const std::string& format, const std::string& layer) {
  TFCC_CHECK_ARG(format == "channels_last", "Layer '", layer,
                 "': only data_format='channels_last' is supported, got '", format, "'");
}

// x's shape, checked to have `rank` axes and every non-batch one known.
PartialShape known_shape(const Tensor& x, int64_t rank, const std::string& layer) {
  const PartialShape s = x.partial_shape();
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == rank, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=", rank,
                 ", found ndim=", s.rank_known() ? s.rank() : -1,
                 ". Full shape received: ", s.to_string());
  for (int64_t i = 1; i < rank; ++i) {
    TFCC_CHECK_ARG(s.dim(i) != PartialShape::kUnknown, "Layer '", layer,
                   "' needs the non-batch dimensions known, got ", s.to_string());
  }
  return s;
}

// Each element of x along `axis` repeated n times in place (nearest-neighbour upsampling).
Tensor repeat_axis(const Tensor& x, int64_t axis, int64_t n) {
  if (n == 1) return x;
  const PartialShape s = x.partial_shape();
  std::vector<int64_t> multiples(s.rank() + 1, 1);
  multiples[axis + 1] = n;
  std::vector<int64_t> dims = s.dims();
  dims[0] = -1;
  dims[axis] *= n;
  return reshape(tile(expand_dims(x, axis + 1), multiples), dims);
}

std::vector<std::vector<int64_t>> all_sides(int64_t v, size_t axes) {
  return std::vector<std::vector<int64_t>>(axes, {v, v});
}

void check_pairs(const std::vector<std::vector<int64_t>>& p, size_t axes, const char* what,
                 const std::string& layer) {
  TFCC_CHECK_ARG(p.size() == axes, "Layer '", layer, "': `", what, "` should have ", axes,
                 " elements, each a pair (before, after). Received: ", p.size(), " elements");
  for (const auto& pair : p) {
    TFCC_CHECK_ARG(pair.size() == 2, "Layer '", layer, "': each element of `", what,
                   "` must be a pair (before, after)");
    for (int64_t v : pair) {
      TFCC_CHECK_ARG(v >= 0, "Layer '", layer, "': `", what, "` must be >= 0, got ", v);
    }
  }
}

// x cropped by `crop` (pairs for axes 1..) of a known-shaped input.
Tensor crop(const Tensor& x, const std::vector<std::vector<int64_t>>& crop,
            const std::string& layer) {
  const PartialShape s = known_shape(x, static_cast<int64_t>(crop.size()) + 2, layer);
  std::vector<int64_t> begin(s.rank(), 0), size(s.rank(), -1);
  for (size_t i = 0; i < crop.size(); ++i) {
    const int64_t d = s.dim(i + 1);
    TFCC_CHECK_ARG(crop[i][0] + crop[i][1] < d, "Layer '", layer, "': cropping (", crop[i][0], ", ",
                   crop[i][1], ") of axis ", i + 1, " must be smaller than its length ", d,
                   " (input shape ", s.to_string(), ")");
    begin[i + 1] = crop[i][0];
    size[i + 1] = d - crop[i][0] - crop[i][1];
  }
  return slice(x, begin, size);
}

Tensor zero_pad(const Tensor& x, const std::vector<std::vector<int64_t>>& padding,
                const std::string& layer) {
  const int64_t rank = static_cast<int64_t>(padding.size()) + 2;
  const PartialShape s = x.partial_shape();
  TFCC_CHECK_ARG(s.rank_known() && s.rank() == rank, "Input 0 of layer \"", layer,
                 "\" is incompatible with the layer: expected ndim=", rank,
                 ". Full shape received: ", s.to_string());
  std::vector<std::vector<int64_t>> p = {{0, 0}};
  p.insert(p.end(), padding.begin(), padding.end());
  p.push_back({0, 0});
  return pad(x, p);
}

}  // namespace

Permute::Permute(std::vector<int64_t> dims, LayerArgs args)
    : Layer(std::move(args), "permute"), dims_(std::move(dims)) {
  std::vector<int64_t> sorted = dims_;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    TFCC_CHECK_ARG(sorted[i] == static_cast<int64_t>(i) + 1,
                   "Invalid permutation argument `dims` for Permute Layer. The set of indices in "
                   "`dims` must be consecutive and start from 1. Received dims=",
                   keras::config::repr(dims_));
  }
}

Tensor Permute::call(const Tensor& x, bool) {
  TFCC_CHECK_ARG(x.rank() == static_cast<int64_t>(dims_.size()) + 1, "Permute '", name(),
                 "' with dims ", keras::config::repr(dims_), " needs inputs of rank ",
                 dims_.size() + 1, ", got ", x.partial_shape().to_string());
  std::vector<int64_t> perm = {0};
  perm.insert(perm.end(), dims_.begin(), dims_.end());
  return transpose(x, perm);
}

RepeatVector::RepeatVector(int64_t n, LayerArgs args)
    : Layer(std::move(args), "repeat_vector"), n_(n) {
  TFCC_CHECK_ARG(n_ >= 1, "RepeatVector: n must be a positive integer, got ", n_);
}

Tensor RepeatVector::call(const Tensor& x, bool) {
  TFCC_CHECK_ARG(x.rank() == 2, "Input 0 of layer \"", name(),
                 "\" is incompatible with the layer: expected ndim=2, found ndim=", x.rank(),
                 ". Full shape received: ", x.partial_shape().to_string());
  return tile(expand_dims(x, 1), {1, n_, 1});
}

UpSampling1D::UpSampling1D(int64_t size, LayerArgs args)
    : Layer(std::move(args), "up_sampling1d"), size_(size) {
  TFCC_CHECK_ARG(size_ >= 1, "UpSampling1D: size must be positive, got ", size_);
}

Tensor UpSampling1D::call(const Tensor& x, bool) {
  known_shape(x, 3, name());
  return repeat_axis(x, 1, size_);
}

UpSampling2D::UpSampling2D(IntOrTuple size, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "up_sampling2d"),
      size_(size.expand(2, "size")),
      options_(std::move(options)) {
  for (int64_t v : size_) TFCC_CHECK_ARG(v >= 1, "UpSampling2D: size must be positive, got ", v);
  check_channels_last(options_.data_format, name());
  if (options_.interpolation != "nearest") {
    TFCC_CHECK_ARG(options_.interpolation == "bilinear" || options_.interpolation == "bicubic" ||
                       options_.interpolation == "lanczos3" ||
                       options_.interpolation == "lanczos5" || options_.interpolation == "area",
                   "UpSampling2D: unknown interpolation '", options_.interpolation, "'");
    throw UnimplementedError(internal::str_cat(
        "UpSampling2D '", name(), "': interpolation='", options_.interpolation,
        "' is not implemented; only 'nearest' is (use a Resizing layer for bilinear)"));
  }
}

Tensor UpSampling2D::call(const Tensor& x, bool) {
  known_shape(x, 4, name());
  return repeat_axis(repeat_axis(x, 1, size_[0]), 2, size_[1]);
}

UpSampling3D::UpSampling3D(IntOrTuple size, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "up_sampling3d"),
      size_(size.expand(3, "size")),
      options_(std::move(options)) {
  for (int64_t v : size_) TFCC_CHECK_ARG(v >= 1, "UpSampling3D: size must be positive, got ", v);
  check_channels_last(options_.data_format, name());
}

Tensor UpSampling3D::call(const Tensor& x, bool) {
  known_shape(x, 5, name());
  return repeat_axis(repeat_axis(repeat_axis(x, 1, size_[0]), 2, size_[1]), 3, size_[2]);
}

Cropping1D::Cropping1D(IntOrTuple cropping, LayerArgs args)
    : Layer(std::move(args), "cropping1d"), cropping_(cropping.expand(2, "cropping")) {
  check_pairs({cropping_}, 1, "cropping", name());
}

Tensor Cropping1D::call(const Tensor& x, bool) { return crop(x, {cropping_}, name()); }

Cropping2D::Cropping2D(std::vector<std::vector<int64_t>> cropping, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "cropping2d"),
      cropping_(std::move(cropping)),
      options_(std::move(options)) {
  check_pairs(cropping_, 2, "cropping", name());
  check_channels_last(options_.data_format, name());
}

Cropping2D::Cropping2D(int64_t cropping, Options options)
    : Cropping2D(all_sides(cropping, 2), std::move(options)) {}

Tensor Cropping2D::call(const Tensor& x, bool) { return crop(x, cropping_, name()); }

Cropping3D::Cropping3D(std::vector<std::vector<int64_t>> cropping, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "cropping3d"),
      cropping_(std::move(cropping)),
      options_(std::move(options)) {
  check_pairs(cropping_, 3, "cropping", name());
  check_channels_last(options_.data_format, name());
}

Cropping3D::Cropping3D(int64_t cropping, Options options)
    : Cropping3D(all_sides(cropping, 3), std::move(options)) {}

Tensor Cropping3D::call(const Tensor& x, bool) { return crop(x, cropping_, name()); }

ZeroPadding1D::ZeroPadding1D(IntOrTuple padding, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "zero_padding1d"),
      padding_(padding.expand(2, "padding")),
      options_(std::move(options)) {
  check_pairs({padding_}, 1, "padding", name());
  check_channels_last(options_.data_format, name());
}

Tensor ZeroPadding1D::call(const Tensor& x, bool) { return zero_pad(x, {padding_}, name()); }

ZeroPadding3D::ZeroPadding3D(std::vector<std::vector<int64_t>> padding, Options options)
    : Layer({options.name, options.trainable, options.input_shape}, "zero_padding3d"),
      padding_(std::move(padding)),
      options_(std::move(options)) {
  check_pairs(padding_, 3, "padding", name());
  check_channels_last(options_.data_format, name());
}

ZeroPadding3D::ZeroPadding3D(int64_t padding, Options options)
    : ZeroPadding3D(all_sides(padding, 3), std::move(options)) {}

Tensor ZeroPadding3D::call(const Tensor& x, bool) { return zero_pad(x, padding_, name()); }

const config::LayerSchema& Permute::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<Permute>(&Permute::args_).arg("dims", &Permute::dims_);
  return schema;
}

const config::LayerSchema& RepeatVector::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<RepeatVector>(&RepeatVector::args_).arg("n", &RepeatVector::n_);
  return schema;
}

const config::LayerSchema& UpSampling1D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<UpSampling1D>(&UpSampling1D::args_).arg("size", &UpSampling1D::size_);
  return schema;
}

const config::LayerSchema& UpSampling2D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<UpSampling2D>(&UpSampling2D::options_)
          .arg("size", &UpSampling2D::size_)
          .option("data_format", &Options::data_format)
          .option("interpolation", &Options::interpolation);
  return schema;
}

const config::LayerSchema& UpSampling3D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<UpSampling3D>(&UpSampling3D::options_)
          .arg("size", &UpSampling3D::size_)
          .option("data_format", &Options::data_format);
  return schema;
}

const config::LayerSchema& Cropping1D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<Cropping1D>(&Cropping1D::args_).arg("cropping", &Cropping1D::cropping_);
  return schema;
}

const config::LayerSchema& Cropping2D::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Cropping2D>(&Cropping2D::options_)
                                                .arg("cropping", &Cropping2D::cropping_)
                                                .option("data_format", &Options::data_format);
  return schema;
}

const config::LayerSchema& Cropping3D::config_schema() {
  static const config::LayerSchema schema = keras::config::schema<Cropping3D>(&Cropping3D::options_)
                                                .arg("cropping", &Cropping3D::cropping_)
                                                .option("data_format", &Options::data_format);
  return schema;
}

const config::LayerSchema& ZeroPadding1D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<ZeroPadding1D>(&ZeroPadding1D::options_)
          .arg("padding", &ZeroPadding1D::padding_)
          .option("data_format", &Options::data_format);
  return schema;
}

const config::LayerSchema& ZeroPadding3D::config_schema() {
  static const config::LayerSchema schema =
      keras::config::schema<ZeroPadding3D>(&ZeroPadding3D::options_)
          .arg("padding", &ZeroPadding3D::padding_)
          .option("data_format", &Options::data_format);
  return schema;
}

}  // namespace tfcc::keras::layers
