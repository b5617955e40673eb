// TFRecord files as a dataset (tf.data.TFRecordDataset), on tfcc::io's record reader.
//
//   {
//     tfcc::io::TFRecordWriter writer("/tmp/train.tfrecord");
//     writer.write(serialized_example);
//   }
//   auto ds = tfcc::data::tfrecord_dataset({"/tmp/train.tfrecord"});
//   for (const auto& e : ds) parse(tfcc::data::tensor_bytes(e[0]));   // one record per element
//
// Each element is one record's bytes as a 1-D uint8 tensor (tfcc has no string dtype; see
// bytes_tensor). A corrupted or truncated record raises DataLossError naming the file and offset.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::data {

/// The records of `filenames`, file after file. `compression_type`: "", "ZLIB" or "GZIP".
Dataset tfrecord_dataset(std::vector<std::string> filenames,
                         const std::string& compression_type = "");

}  // namespace tfcc::data
#pragma GCC visibility pop
