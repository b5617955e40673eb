// The header of a `.npy` file: a Python dict literal with exactly the keys 'descr',
// 'fortran_order' and 'shape', e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
//
//   NpyHeader h = parse_npy_header("{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }",
//                                  "x.npy");   // h.dtype == uint8, h.shape == {4}
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/dtype.h"

namespace tfcc::io {

/// A parsed `.npy` header.
struct NpyHeader {
  std::string descr;  ///< as written, e.g. "<f4"
  DType dtype = float32;
  size_t item_size = 4;
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

/// Parses and validates a header. DataLossError for malformed syntax, missing or extra keys, or
/// negative dimensions; UnimplementedError for dtypes tfcc cannot hold (float16, int8, ...).
NpyHeader parse_npy_header(std::string_view text, const std::string& source);

}  // namespace tfcc::io
