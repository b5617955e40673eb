// .npy / .npz: NumPy's header layout, round trips, other writers' variants, damaged files.
#include "tfcc/io/npy/npy.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <random>

#include "tfcc/io/npy/zip.h"
#include "tfcc/platform/file.h"

namespace tfcc::io {
namespace {

std::string header_of(const std::string& npy) {
  size_t len =
      static_cast<uint8_t>(npy[8]) | (static_cast<size_t>(static_cast<uint8_t>(npy[9])) << 8);
  return npy.substr(10, len);
}

std::string npy_with_header(const std::string& dict, std::string_view data) {
  std::string header = dict;
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>(header.size() >> 8));
  return out + header + std::string(data);
}

TEST(NpyTest, HeaderLayoutIsNumPys) {
  std::string npy =
      encode_npy(Tensor::from_vector<float>(std::vector<float>(12, 1.0f), Shape{3, 4}));
  EXPECT_EQ(npy.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  std::string h = header_of(npy);
  EXPECT_EQ(h.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 0), 0u) << h;
  EXPECT_EQ(h.back(), '\n');
  EXPECT_EQ((10 + h.size()) % 64, 0u);
  EXPECT_EQ(npy.size(), 10 + h.size() + 48);
  EXPECT_NE(header_of(encode_npy(Tensor::from_vector<int64_t>({1, 2, 3}))).find("'shape': (3,), }"),
            std::string::npos);
  EXPECT_NE(header_of(encode_npy(Tensor::scalar<bool>(true))).find("'descr': '|b1'"),
            std::string::npos);
  EXPECT_NE(header_of(encode_npy(Tensor::scalar<double>(1))).find("'shape': (), }"),
            std::string::npos);
}

TEST(NpyTest, RoundTripEveryDType) {
  std::vector<Tensor> tensors = {
      Tensor::from_vector<float>({1.5f, -2, 3, 4, 5, 6}, Shape{2, 3}),
      Tensor::from_vector<double>({3.25, -1e300}),
      Tensor::from_vector<int32_t>({-7, 0, 2147483647}, Shape{3, 1, 1}),
      Tensor::from_vector<int64_t>({-9000000000LL}),
      Tensor::from_vector<uint8_t>({0, 255}),
      Tensor::from_vector<bool>({true, false}),
      Tensor::scalar<float>(2.5f),
      Tensor::from_vector<float>({}, Shape{0, 3}),
  };
  for (const Tensor& t : tensors) {
    Tensor back = decode_npy(encode_npy(t));
    EXPECT_EQ(back.dtype(), t.dtype());
    EXPECT_EQ(back.shape(), t.shape());
    EXPECT_EQ(back.to_vector<double>(), t.to_vector<double>());
  }
  EXPECT_THROW(encode_npy(Tensor::from_vector<BFloat16>({BFloat16(1.0f)})), InvalidArgumentError);
}

TEST(NpyTest, FortranOrderBigEndianAndVersion2) {
  // [[1, 2, 3], [4, 5, 6]] stored column by column.
  std::vector<int32_t> f = {1, 4, 2, 5, 3, 6};
  Tensor t =
      decode_npy(npy_with_header("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3)}",
                                 std::string_view(reinterpret_cast<const char*>(f.data()), 24)));
  EXPECT_EQ(t.shape(), (Shape{2, 3}));
  EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 4, 5, 6}));
  // Big-endian float32 1.0 and 2.0; keys in another order, double quotes.
  Tensor be =
      decode_npy(npy_with_header("{\"shape\": (2,), \"fortran_order\": False, \"descr\": \">f4\"}",
                                 std::string("\x3f\x80\x00\x00\x40\x00\x00\x00", 8)));
  EXPECT_EQ(be.to_vector<float>(), (std::vector<float>{1, 2}));
  // Version 2.0: 4-byte header length.
  std::string header = "{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }\n";
  std::string v2("\x93NUMPY\x02\x00", 8);
  v2.push_back(static_cast<char>(header.size()));
  v2.append(3, '\0');
  v2.append(header).push_back('\x07');
  EXPECT_EQ(decode_npy(v2).item<int32_t>(), 7);
}

TEST(NpyTest, DamagedFilesAreRejected) {
  std::string good = encode_npy(Tensor::from_vector<float>({1, 2, 3}));
  EXPECT_THROW(decode_npy(""), DataLossError);
  EXPECT_THROW(decode_npy("NUMPY"), DataLossError);
  EXPECT_THROW(decode_npy(good.substr(0, good.size() - 1)), DataLossError);  // truncated data
  EXPECT_THROW(decode_npy(good + "x"), DataLossError);                       // trailing bytes
  EXPECT_THROW(decode_npy(good.substr(0, 40)), DataLossError);               // truncated header
  const char* bad_headers[] = {
      "{'descr': '<f4', 'fortran_order': False}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
      "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
      "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} junk",
      "['descr']",
  };
  for (const char* h : bad_headers) {
    EXPECT_THROW(decode_npy(npy_with_header(h, std::string(4, '\0'))), DataLossError) << h;
  }
  EXPECT_THROW(decode_npy(npy_with_header("{'descr': '<f2', 'fortran_order': False, 'shape': (2,)}",
                                          "abcd")),
               UnimplementedError);
  EXPECT_THROW(decode_npy(npy_with_header("{'descr': '|b1', 'fortran_order': False, 'shape': (1,)}",
                                          "\x02")),
               DataLossError);
  // Random damage never crashes: every outcome is a tensor or a tfcc::Error.
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string b = good;
    b[rng() % b.size()] ^= static_cast<char>(1 << (rng() % 8));
    try {
      decode_npy(b);
    } catch (const Error&) {
    }
  }
}

TEST(NpzTest, RoundTripAndFiles) {
  std::string dir = internal::str_cat(testing::TempDir(), "tfcc_npz_test_", ::getpid());
  make_dirs(dir);
  NamedArrays arrays = {{"kernel", Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2})},
                        {"bias", Tensor::from_vector<int64_t>({5})},
                        {"flag", Tensor::scalar<bool>(true)}};
  save_npz(dir + "/w.npz", arrays);
  NamedArrays back = load_npz(dir + "/w.npz");
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back[i].first, arrays[i].first);
    EXPECT_EQ(back[i].second.shape(), arrays[i].second.shape());
    EXPECT_EQ(back[i].second.to_vector<double>(), arrays[i].second.to_vector<double>());
  }
  save_npy(dir + "/x.npy", arrays[0].second);
  EXPECT_EQ(load_npy(dir + "/x.npy").to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_THROW(load_npy(dir + "/missing.npy"), NotFoundError);
  EXPECT_THROW(encode_npz({{"a", arrays[1].second}, {"a", arrays[1].second}}),
               InvalidArgumentError);
}

std::string deflate_raw(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(in.size() + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST(NpzTest, ReadsDeflatedMembers) {
  // Build a stored archive, then swap its one member for a deflated copy (method 8).
  std::string npy = encode_npy(Tensor::from_vector<int32_t>(std::vector<int32_t>(100, 3)));
  std::string packed = deflate_raw(npy);
  std::string name = "x.npy";
  std::string archive = zip::write({{name, npy}});
  // Patch: local header (method at 8, compressed size at 18) and central directory.
  std::string local = archive.substr(0, 30);
  local[8] = 8;
  uint32_t cs = static_cast<uint32_t>(packed.size());
  for (int i = 0; i < 4; ++i) local[18 + i] = static_cast<char>((cs >> (8 * i)) & 0xff);
  std::string cd = archive.substr(30 + name.size() + npy.size());
  cd[10] = 8;
  for (int i = 0; i < 4; ++i) cd[20 + i] = static_cast<char>((cs >> (8 * i)) & 0xff);
  uint32_t cd_offset = static_cast<uint32_t>(30 + name.size() + packed.size());
  size_t eocd = cd.size() - 22;
  for (int i = 0; i < 4; ++i) cd[eocd + 16 + i] = static_cast<char>((cd_offset >> (8 * i)) & 0xff);
  std::string deflated = local + name + packed + cd;
  NamedArrays back = decode_npz(deflated);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].first, "x");
  EXPECT_EQ(back[0].second.to_vector<int32_t>(), std::vector<int32_t>(100, 3));
  deflated[30 + name.size() + 3] ^= 0x10;  // damage the deflate stream
  EXPECT_THROW(decode_npz(deflated), DataLossError);
}

TEST(NpzTest, DamagedArchivesAreRejected) {
  std::string archive = encode_npz({{"a", Tensor::from_vector<float>({1, 2, 3})}});
  EXPECT_THROW(decode_npz(""), DataLossError);
  EXPECT_THROW(decode_npz("PK"), DataLossError);
  int rejected = 0;
  for (size_t n = 0; n < archive.size(); ++n) {
    try {
      decode_npz(archive.substr(0, n));
    } catch (const DataLossError&) {
      ++rejected;
    }
  }
  EXPECT_EQ(rejected, static_cast<int>(archive.size()));
  std::mt19937 rng(11);
  for (int i = 0; i < 2000; ++i) {
    std::string b = archive;
    b[rng() % b.size()] ^= static_cast<char>(1 << (rng() % 8));
    try {
      decode_npz(b);
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace tfcc::io
