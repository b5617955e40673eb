// Philox4x32-10, the counter-based random generator TensorFlow uses: the n-th block of random
// bits depends only on (key, counter + n), so random ops give the same numbers whatever the
// thread count, and any stretch of the stream can be produced without the ones before it.
//
//   tfcc::Philox gen(/*seed=*/42, /*stream=*/7);
//   auto block = gen.block(0);                 // four uint32
//   float u = tfcc::Philox::to_unit_float(block[0]);   // in [0, 1)
#pragma once

#include <array>
#include <cstdint>

namespace tfcc {

/// The Philox4x32 generator with 10 rounds (Salmon et al., "Random123", SC'11).
class Philox {
 public:
  using Block = std::array<uint32_t, 4>;

  /// `seed` keys the generator; `stream` selects an independent sub-stream (the counter's high
  /// 64 bits).
  Philox(uint64_t seed, uint64_t stream) : key_{uint32_t(seed), uint32_t(seed >> 32)} {
    stream_lo_ = uint32_t(stream);
    stream_hi_ = uint32_t(stream >> 32);
  }

  /// The `index`-th block of four random words.
  Block block(uint64_t index) const {
    Block ctr{uint32_t(index), uint32_t(index >> 32), stream_lo_, stream_hi_};
    std::array<uint32_t, 2> key = key_;
    for (int round = 0; round < 10; ++round) {
      ctr = single_round(ctr, key);
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    return ctr;
  }

  /// Blocks index .. index + kLanes - 1, equal to block()'s, in structure-of-arrays form: word w
  /// of block index + l is out[w][l]. The lanes are independent, so compilers vectorise them
  /// (one block per SIMD lane), several times faster than kLanes calls of block().
  template <int kLanes>
  void blocks(uint64_t index, uint32_t (&out)[4][kLanes]) const {
    uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      const uint64_t i = index + uint64_t(l);
      c0[l] = uint32_t(i);
      c1[l] = uint32_t(i >> 32);
      c2[l] = stream_lo_;
      c3[l] = stream_hi_;
    }
    uint32_t k0 = key_[0], k1 = key_[1];
    // Not unrolled: GCC's early complete unrolling would turn the lanes into scalar code.
#pragma GCC unroll 1
    for (int round = 0; round < 10; ++round) {
#pragma GCC unroll 1
      for (int l = 0; l < kLanes; ++l) {
        const uint64_t p0 = uint64_t(kMul0) * c0[l];
        const uint64_t p1 = uint64_t(kMul1) * c2[l];
        const uint32_t n0 = uint32_t(p1 >> 32) ^ c1[l] ^ k0;
        const uint32_t n2 = uint32_t(p0 >> 32) ^ c3[l] ^ k1;
        c1[l] = uint32_t(p1);
        c3[l] = uint32_t(p0);
        c0[l] = n0;
        c2[l] = n2;
      }
      k0 += kWeyl0;
      k1 += kWeyl1;
    }
    for (int l = 0; l < kLanes; ++l) {
      out[0][l] = c0[l];
      out[1][l] = c1[l];
      out[2][l] = c2[l];
      out[3][l] = c3[l];
    }
  }

  /// A float in [0, 1) from 23 random bits (TF's Uint32ToFloat).
  static float to_unit_float(uint32_t x) {
    uint32_t bits = (127u << 23) | (x & 0x7fffffu);
    float f;
    __builtin_memcpy(&f, &bits, 4);
    return f - 1.0f;
  }
  /// A double in [0, 1) from 52 random bits.
  static double to_unit_double(uint32_t hi, uint32_t lo) {
    uint64_t bits =
        (uint64_t{1023} << 52) | ((uint64_t(hi) << 32 | lo) & ((uint64_t{1} << 52) - 1));
    double d;
    __builtin_memcpy(&d, &bits, 8);
    return d - 1.0;
  }

 private:
  static constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  static constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;

  static Block single_round(const Block& c, const std::array<uint32_t, 2>& k) {
    uint64_t p0 = uint64_t(kMul0) * c[0];
    uint64_t p1 = uint64_t(kMul1) * c[2];
    return {uint32_t(p1 >> 32) ^ c[1] ^ k[0], uint32_t(p1), uint32_t(p0 >> 32) ^ c[3] ^ k[1],
            uint32_t(p0)};
  }

  std::array<uint32_t, 2> key_;
  uint32_t stream_lo_, stream_hi_;
};

}  // namespace tfcc
