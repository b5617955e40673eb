// Fuzzes the CSV parser. The first byte picks the options and column types; the rest is text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/data/csv.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  using tfcc::data::csv_default;
  using tfcc::data::csv_required;
  std::vector<tfcc::data::CsvColumn> cols;
  int ncols = 1 + (mode & 3);
  for (int i = 0; i < ncols; ++i) {
    switch ((mode >> 2) + i & 3) {
      case 0:
        cols.push_back(csv_required(tfcc::int32));
        break;
      case 1:
        cols.push_back(csv_default(int64_t{-1}));
        break;
      case 2:
        cols.push_back(csv_default(0.5f));
        break;
      default:
        cols.push_back(csv_required(tfcc::float64));
        break;
    }
  }
  tfcc::data::CsvOptions opt;
  opt.header = mode & 0x10;
  opt.use_quote_delim = !(mode & 0x20);
  opt.field_delim = (mode & 0x40) ? ';' : ',';
  if (mode & 0x80) opt.na_value = "NA";
  try {
    tfcc::data::parse_csv(text, cols, opt, "fuzz");
  } catch (const tfcc::Error&) {
  }
  return 0;
}
