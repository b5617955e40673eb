// Hostile files for every reader: decompression bombs and sizes declared past memory (`bombs`),
// truncated and bit-flipped files of each format (`damage`). Every read must end in a tfcc error
// (or, for damage no checksum can see, in a successful read): a crash, a std::bad_alloc or any
// other exception, a peak memory far beyond the file, or an error message quoting megabytes of
// input counts as escaped.
#include <sys/resource.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tests/integration/fault_injection.h"
#include "tfcc/data/csv.h"
#include "tfcc/data/gzip.h"
#include "tfcc/data/idx.h"
#include "tfcc/data/tfrecord.h"
#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/record/record_writer.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"
#include "tfcc/tfcc.h"

namespace tf = tfcc;
using namespace tfcc::keras;

namespace fault_injection {
namespace {

constexpr uint64_t kMiB = 1 << 20;

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_be32(std::string& out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// `head` followed by `zeros` zero bytes, deflated in a stream (never held whole): window bits
// 15 + 16 gzip, 15 zlib, -15 raw deflate. `crc` receives the zip CRC-32 of the whole.
std::string deflate_zeros(const std::string& head, uint64_t zeros, int window_bits,
                          uint32_t* crc = nullptr) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, window_bits, 9, Z_DEFAULT_STRATEGY);
  std::string out, chunk(kMiB, '\0'), buf(1 << 16, '\0');
  uLong c = crc32(0, nullptr, 0);
  auto feed = [&](const char* p, size_t n, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(p));
    z.avail_in = static_cast<uInt>(n);
    do {
      z.next_out = reinterpret_cast<Bytef*>(buf.data());
      z.avail_out = static_cast<uInt>(buf.size());
      deflate(&z, flush);
      out.append(buf.data(), buf.size() - z.avail_out);
    } while (z.avail_out == 0);
    c = crc32(c, reinterpret_cast<const Bytef*>(p), static_cast<uInt>(n));
  };
  feed(head.data(), head.size(), Z_NO_FLUSH);
  for (uint64_t left = zeros; left > 0;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(left, kMiB));
    left -= n;
    feed(chunk.data(), n, Z_NO_FLUSH);
  }
  feed(nullptr, 0, Z_FINISH);
  deflateEnd(&z);
  if (crc) *crc = static_cast<uint32_t>(c);
  return out;
}

std::string idx_header(std::vector<uint32_t> dims) {
  std::string h{'\0', '\0', '\x08', static_cast<char>(dims.size())};
  for (uint32_t d : dims) put_be32(h, d);
  return h;
}

// A TFRecord header declaring `length` bytes, with a valid length checksum.
std::string record_header(uint64_t length) {
  std::string h;
  put_le(h, length, 8);
  put_le(h, tf::crc32c::mask(tf::crc32c::value(h.data(), 8)), 4);
  return h;
}

// A zip archive of one deflated member.
std::string zip_one(const std::string& name, const std::string& deflated, uint32_t crc,
                    uint32_t usize) {
  std::string out;
  put_le(out, 0x04034b50, 4);
  put_le(out, 20, 2), put_le(out, 0, 2), put_le(out, 8, 2), put_le(out, 0, 4);
  put_le(out, crc, 4), put_le(out, deflated.size(), 4), put_le(out, usize, 4);
  put_le(out, name.size(), 2), put_le(out, 0, 2);
  out += name + deflated;
  std::string cd;
  put_le(cd, 0x02014b50, 4);
  put_le(cd, 20, 2), put_le(cd, 20, 2), put_le(cd, 0, 2), put_le(cd, 8, 2), put_le(cd, 0, 4);
  put_le(cd, crc, 4), put_le(cd, deflated.size(), 4), put_le(cd, usize, 4);
  put_le(cd, name.size(), 2), put_le(cd, 0, 2), put_le(cd, 0, 2), put_le(cd, 0, 2);
  put_le(cd, 0, 2), put_le(cd, 0, 4), put_le(cd, 0, 4);
  cd += name;
  uint64_t cd_offset = out.size();
  out += cd;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 2), put_le(out, 0, 2), put_le(out, 1, 2), put_le(out, 1, 2);
  put_le(out, cd.size(), 4), put_le(out, cd_offset, 4), put_le(out, 0, 2);
  return out;
}

long peak_rss_mib() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

struct Tally {
  int fed = 0, escaped = 0;
  // Runs `read`: a tfcc error (with a short message) or, when `may_succeed`, success is fine.
  void feed(const std::string& what, const std::function<void()>& read, bool may_succeed) {
    ++fed;
    long before = peak_rss_mib();
    std::string outcome;
    bool ok = false;
    try {
      read();
      outcome = "read without error";
      ok = may_succeed;
    } catch (const tf::Error& e) {
      outcome = std::string(tf::error_code_name(e.code())) + ": " + tf::quote_input(e.what(), 160);
      ok = std::string(e.what()).size() < 2000;
      if (!ok)
        outcome += " (message of " + std::to_string(std::string(e.what()).size()) + " bytes)";
    } catch (const std::exception& e) {
      outcome = std::string("non-tfcc exception: ") + e.what();
    }
    long grew = peak_rss_mib() - before;
    if (grew > 512) {
      ok = false;
      outcome += " (peak memory grew by " + std::to_string(grew) + " MiB)";
    }
    if (!ok) ++escaped;
    if (!ok || may_succeed == false) {
      std::printf("  %s %s: %s\n", ok ? "ok" : "ESCAPED", what.c_str(), outcome.c_str());
    }
  }
};

int bombs(const std::string& dir) {
  Tally t;
  auto file = [&](const std::string& name, const std::string& bytes) {
    std::string p = dir + "/" + name;
    tf::write_file_atomic(p, bytes);
    return p;
  };
  // IDX (the datasets loader's format), gzip: 4 GiB declared over 1 MiB of data, and 200 MiB of
  // real zeros in 200 KiB.
  std::string p = file("declared.idx.gz", deflate_zeros(idx_header({65536, 65536}), kMiB, 31));
  t.feed(
      "gzip IDX declaring 4 GiB", [&] { tf::data::read_idx(p); }, false);
  p = file("zeros.idx.gz", deflate_zeros(idx_header({200, 1024, 1024}), 200 * kMiB, 31));
  t.feed(
      "gzip IDX of 200 MiB zeros", [&] { tf::data::read_idx(p); }, false);
  t.feed(
      "gzip IDX dataset of 200 MiB zeros", [&] { tf::data::idx_dataset({p}); }, false);
  p = file("zeros.gz", deflate_zeros("", 200 * kMiB, 31));
  t.feed(
      "gzip of 200 MiB zeros", [&] { tf::data::read_file_maybe_gzip(p); }, false);
  p = file("plain.idx", idx_header({65536, 65536}));
  t.feed(
      "plain IDX declaring 4 GiB", [&] { tf::data::read_idx(p); }, false);
  // TFRecord: a record declaring 1 TiB, and a real 200 MiB record of zeros.
  for (const char* type : {"GZIP", "ZLIB"}) {
    int bits = std::string(type) == "GZIP" ? 31 : 15;
    p = file(std::string("huge.") + type, deflate_zeros(record_header(uint64_t{1} << 40), 0, bits));
    t.feed(
        std::string(type) + " TFRecord declaring 1 TiB",
        [&] { tf::io::read_tf_records(p, {.compression_type = type}); }, false);
    p = file(std::string("zeros.") + type,
             deflate_zeros(record_header(200 * kMiB), 200 * kMiB + 4, bits));
    t.feed(
        std::string(type) + " TFRecord of 200 MiB zeros",
        [&] { tf::io::read_tf_records(p, {.compression_type = type}); }, false);
    t.feed(
        std::string(type) + " TFRecordDataset of 200 MiB zeros",
        [&] {
          for (auto e : tf::data::tfrecord_dataset({p}, type)) (void)e;
        },
        false);
  }
  p = file("huge.tfrecord", record_header(uint64_t{1} << 60));
  t.feed(
      "TFRecord declaring 2^60 bytes", [&] { tf::io::read_tf_records(p); }, false);
  // npz: a member of 200 MiB zeros deflated, and one declaring 4 GiB over 1 KiB.
  uint32_t crc = 0;
  std::string member = deflate_zeros("", 200 * kMiB, -15, &crc);
  p = file("zeros.npz", zip_one("x.npy", member, crc, 200 * kMiB));
  t.feed(
      "npz member of 200 MiB zeros", [&] { tf::io::load_npz(p); }, false);
  member = deflate_zeros("", 1024, -15, &crc);
  p = file("declared.npz", zip_one("x.npy", member, crc, 0xfffffff0u));
  t.feed(
      "npz member declaring 4 GiB", [&] { tf::io::load_npz(p); }, false);
  // npy declaring 2^40 elements in a small file.
  std::string npy = tf::io::encode_npy(tf::zeros({4}, tf::float32));
  size_t at = npy.find("(4,)");
  if (at != std::string::npos) npy.replace(at, 4, "(1099511627776,)");
  p = file("declared.npy", npy);
  t.feed(
      "npy declaring 2^40 floats", [&] { tf::io::load_npy(p); }, false);
  // CSV: a 50 MiB field that is not a number must not be quoted whole in the error.
  p = file("wide.csv", std::string(50 * kMiB, 'x') + "\n");
  t.feed(
      "CSV with a 50 MiB bad field",
      [&] {
        for (auto e : tf::data::csv_dataset({p}, {tf::data::csv_required(tf::float32)})) (void)e;
      },
      false);
  std::printf("bombs fed %d, escaped %d\n", t.fed, t.escaped);
  return t.escaped == 0 ? 0 : 1;
}

// Truncations at 8 points and 8 single-bit flips of `path`, each read by `read`.
void damage_file(Tally& t, const std::string& what, const std::string& path,
                 const std::function<void()>& read, std::mt19937& rng) {
  const std::string good = tf::read_file(path);
  for (int i = 0; i < 16; ++i) {
    std::string bad = good;
    std::string how;
    if (i < 8) {
      bad.resize(good.size() * static_cast<size_t>(i) / 8);
      how = "truncated to " + std::to_string(bad.size());
    } else if (!good.empty()) {
      size_t at = rng() % good.size();
      bad[at] = static_cast<char>(bad[at] ^ (1 << (rng() % 8)));
      how = "bit flipped at " + std::to_string(at);
    }
    tf::write_file_atomic(path, bad);
    t.feed(what + " " + how, read, true);
  }
  tf::write_file_atomic(path, good);
}

int damage(const std::string& dir) {
  Tally t;
  std::mt19937 rng(20261203);
  auto model = std::make_shared<Sequential>(std::vector<LayerPtr>{
      layers::Dense(8, {.activation = "relu", .input_shape = {4}}), layers::Dense(2)});
  model->compile({.optimizer = "adam", .loss = losses::MeanSquaredError()});
  const std::string w = dir + "/w";
  model->save_weights(w);
  auto load_w = [&] { model->load_weights(w); };
  damage_file(t, "checkpoint index", tf::checkpoint::index_filename(w), load_w, rng);
  damage_file(t, "checkpoint data", tf::checkpoint::data_filename(w, 0, 1), load_w, rng);
  damage_file(t, "checkpoint manifest", tf::checkpoint::manifest_filename(w), load_w, rng);
  damage_file(
      t, "checkpoint state", dir + "/checkpoint", [&] { tf::train::latest_checkpoint(dir); }, rng);
  const std::string m = dir + "/model";
  model->save(m);
  auto load_m = [&] { models::load_model(m); };
  damage_file(t, "model config.json", m + "/config.json", load_m, rng);
  damage_file(t, "model metadata.json", m + "/metadata.json", load_m, rng);
  damage_file(t, "model variables data", m + "/variables/variables.data-00000-of-00001", load_m,
              rng);
  tf::Tensor x = tf::random::normal({16, 4});
  tf::io::save_npy(dir + "/x.npy", x);
  damage_file(
      t, "npy", dir + "/x.npy", [&] { tf::io::load_npy(dir + "/x.npy"); }, rng);
  tf::io::save_npz(dir + "/x.npz", {{"x", x}, {"y", x}});
  damage_file(
      t, "npz", dir + "/x.npz", [&] { tf::io::load_npz(dir + "/x.npz"); }, rng);
  for (const char* type : {"", "GZIP", "ZLIB"}) {
    const std::string p = dir + "/r.tfrecord" + type;
    {
      tf::io::TFRecordWriter writer(p, type);
      for (int i = 0; i < 20; ++i) writer.write(std::string(100 + i, static_cast<char>('a' + i)));
      writer.close();
    }
    damage_file(
        t, std::string("TFRecord ") + type, p,
        [&] { tf::io::read_tf_records(p, {.compression_type = type}); }, rng);
  }
  tf::write_file_atomic(dir + "/i.idx", idx_header({3, 4}) + std::string(12, '\7'));
  damage_file(
      t, "IDX", dir + "/i.idx", [&] { tf::data::read_idx(dir + "/i.idx"); }, rng);
  tf::write_file_atomic(dir + "/i.idx.gz", deflate_zeros(idx_header({30, 40}), 1200, 31));
  damage_file(
      t, "gzip IDX", dir + "/i.idx.gz", [&] { tf::data::read_idx(dir + "/i.idx.gz"); }, rng);
  std::printf("damaged files read %d, escaped %d\n", t.fed, t.escaped);
  return t.escaped == 0 ? 0 : 1;
}

}  // namespace

int files_main(int argc, char** argv) {
  const std::string mode = argv[1], dir = argv[2];
  std::filesystem::remove_all(dir);
  tf::make_dirs(dir);
  tf::config::threading::set_intra_op_parallelism_threads(1);
  int rc = mode == "bombs" ? bombs(dir) : damage(dir);
  std::filesystem::remove_all(dir);
  (void)argc;
  return rc;
}

}  // namespace fault_injection
