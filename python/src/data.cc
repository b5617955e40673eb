// tf.data.Dataset over tfcc::data::Dataset. Elements cross as flat lists of tensors; the Python
// layer (python/tfcc/data.py) keeps the structure (a tensor or a tuple). map() with a Python
// function calls it eagerly on each element, taking the GIL (the pipeline may run it from a
// prefetch thread while fit holds no GIL).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>
#include <vector>

#include "convert.h"

namespace tfcc::py {
namespace {

using data::Dataset;
using data::Element;

// A Python callable shared by copies of a std::function: freed with the GIL held.
std::shared_ptr<nb::object> shared_callable(nb::object fn) {
  return std::shared_ptr<nb::object>(new nb::object(std::move(fn)), [](nb::object* p) {
    nb::gil_scoped_acquire gil;
    delete p;
  });
}

Element call_python(const nb::object& fn, const Element& e) {
  nb::gil_scoped_acquire gil;
  nb::list args;
  for (const Tensor& t : e) args.append(nb::cast(t));
  nb::object out = fn(args);
  Element result;
  for (nb::handle h : out) result.push_back(to_tensor(h));
  return result;
}

class PyIterator {
 public:
  explicit PyIterator(const Dataset& ds) : it_(ds.make_iterator()) {}
  std::optional<Element> next() {
    nb::gil_scoped_release release;
    return it_.get_next_as_optional();
  }

 private:
  data::Iterator it_;
};

}  // namespace

void bind_data(nb::module_& m) {
  nb::class_<Dataset>(m, "Dataset")
      .def_static("from_tensor_slices",
                  [](std::vector<Tensor> components) {
                    return Dataset::from_tensor_slices(std::move(components));
                  })
      .def_static("from_tensors",
                  [](std::vector<Tensor> components) {
                    return Dataset::from_tensors(std::move(components));
                  })
      .def_static("range", [](int64_t start, int64_t stop,
                              int64_t step) { return Dataset::range(start, stop, step); })
      .def("batch", &Dataset::batch, nb::arg("batch_size"), nb::arg("drop_remainder") = false)
      .def(
          "shuffle",
          [](const Dataset& ds, int64_t buffer_size, std::optional<uint64_t> seed, bool reshuffle) {
            data::ShuffleOptions o;
            o.seed = seed;
            o.reshuffle_each_iteration = reshuffle;
            return ds.shuffle(buffer_size, o);
          },
          nb::arg("buffer_size"), nb::arg("seed").none(), nb::arg("reshuffle_each_iteration"))
      .def("prefetch", &Dataset::prefetch)
      .def("take", &Dataset::take)
      .def("skip", &Dataset::skip)
      .def("repeat", &Dataset::repeat)
      .def("unbatch", &Dataset::unbatch)
      .def("cache", &Dataset::cache)
      .def("concatenate", &Dataset::concatenate)
      .def("cardinality", &Dataset::cardinality)
      .def("map_python",
           [](const Dataset& ds, nb::object fn) {
             auto callable = shared_callable(std::move(fn));
             return ds.map_element(
                 [callable](const Element& e) { return call_python(*callable, e); });
           })
      .def("filter_python", [](const Dataset& ds, nb::object fn) {
        auto callable = shared_callable(std::move(fn));
        return ds.filter_element([callable](const Element& e) {
          Element r = call_python(*callable, e);
          nb::gil_scoped_acquire gil;
          return r.size() == 1 && nb::cast<bool>(nb::cast(r[0]).attr("__bool__")());
        });
      });

  nb::class_<PyIterator>(m, "DatasetIterator")
      .def(nb::init<const Dataset&>())
      .def("next", &PyIterator::next);
}

}  // namespace tfcc::py
