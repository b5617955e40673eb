// Fuzzes tf.train.Example / SequenceExample parsing (tfcc::io::parse_single_example,
// parse_example, parse_single_sequence_example) with the specs of parse_example_fuzz.h: the
// input is one serialised record, parsed alone, as a batch of two (it and the first half of
// it), and as a SequenceExample, under every spec variant.
#include "fuzz/parse_example_fuzz.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view record(reinterpret_cast<const char*>(data), size);
  for (int variant = 0; variant < tfcc::fuzz::kExampleSpecVariants; ++variant) {
    const tfcc::io::FeatureSpecs spec = tfcc::fuzz::example_spec(variant);
    try {
      tfcc::io::parse_single_example(record, spec, "fuzz");
    } catch (const tfcc::Error&) {
    }
    try {
      const std::string_view batch[2] = {record, record.substr(0, size / 2)};
      tfcc::io::parse_example(batch, spec);
    } catch (const tfcc::Error&) {
    }
    try {
      auto [context, lists] = tfcc::fuzz::sequence_specs(variant);
      tfcc::io::parse_single_sequence_example(record, context, lists, "fuzz");
    } catch (const tfcc::Error&) {
    }
  }
  return 0;
}
