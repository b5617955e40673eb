// NumPy's `.npy` and `.npz` files, read and written by tfcc, so arrays move between tfcc programs
// and Python (np.load / np.save / np.savez).
//
//   tfcc::io::save_npy("/tmp/x.npy", x);                  // np.load("/tmp/x.npy") in Python
//   tfcc::Tensor y = tfcc::io::load_npy("/tmp/y.npy");    // written by np.save
//
//   tfcc::io::save_npz("/tmp/w.npz", {{"kernel", k}, {"bias", b}});
//   for (auto& [name, t] : tfcc::io::load_npz("/tmp/w.npz")) std::cout << name << "\n";
//
// `.npy`: the magic "\x93NUMPY", a version, a little-endian header length, a Python-literal dict
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded so the data starts on a
// 64-byte boundary, then the raw elements. tfcc writes version 1.0 (2.0 for huge headers) in C
// order; it reads versions 1-3, either byte order, and Fortran order (converted to C order).
// Dtypes: float32 <f4, float64 <f8, int32 <i4, int64 <i8, uint8 |u1, bool |b1 (NumPy has no
// bfloat16: cast to float32 first).
//
// `.npz`: a zip archive of `<name>.npy` members. tfcc writes them stored (np.savez); it reads
// stored members, and deflated ones (np.savez_compressed) when built with zlib.
//
// Files are untrusted: every length, the header syntax, the element count and (in zips) the
// CRC-32 of each member are checked; problems raise DataLossError or InvalidArgumentError naming
// the file; dtypes tfcc cannot hold raise UnimplementedError.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfcc/core/tensor.h"

namespace tfcc::io {

/// The bytes of a `.npy` file holding `tensor`.
std::string encode_npy(const Tensor& tensor);
/// Parses the bytes of a `.npy` file; `source` names it in errors.
Tensor decode_npy(std::string_view bytes, const std::string& source = "<npy bytes>");

/// Writes `tensor` to `path` (atomically).
void save_npy(const std::string& path, const Tensor& tensor);
/// Reads a `.npy` file.
Tensor load_npy(const std::string& path);

/// Named arrays, in archive order.
using NamedArrays = std::vector<std::pair<std::string, Tensor>>;

/// The bytes of a `.npz` archive; each array becomes the member `<name>.npy`.
std::string encode_npz(const NamedArrays& arrays);
/// Parses a `.npz` archive. Names lose their `.npy` suffix.
NamedArrays decode_npz(std::string_view bytes, const std::string& source = "<npz bytes>");

/// Writes an `.npz` archive (np.savez layout, stored members) atomically.
void save_npz(const std::string& path, const NamedArrays& arrays);
/// Reads an `.npz` archive.
NamedArrays load_npz(const std::string& path);

}  // namespace tfcc::io
#pragma GCC visibility pop
