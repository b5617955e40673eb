#include "tfcc/graph/trace/print.h"

#include <memory>

#include "tfcc/graph/trace/trace_context.h"

namespace tfcc::internal {
namespace {

void emit(std::ostream& os, const std::vector<PrintPiece>& pieces, std::span<const Tensor> values) {
  std::string line;
  size_t next = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i) line.append(" ");
    if (const auto* s = std::get_if<std::string>(&pieces[i])) {
      line.append(*s);
    } else {
      line.append(values[next++].values_string());
    }
  }
  line.append("\n");
  os << line << std::flush;
}

}  // namespace

void print_pieces(std::ostream& os, std::vector<PrintPiece> pieces, std::source_location loc) {
  std::vector<Tensor> tensors;
  for (const PrintPiece& p : pieces) {
    if (const auto* t = std::get_if<Tensor>(&p)) {
      TFCC_CHECK_ARG(t->defined(), "tfcc::print: an argument is an undefined Tensor");
      tensors.push_back(*t);
    }
  }
  graph::TraceContext* ctx = graph::TraceContext::current();
  if (!ctx) {
    emit(os, pieces, tensors);
    return;
  }
  auto host = std::make_shared<graph::HostFn>();
  host->name = "PrintV2";
  std::ostream* stream = &os;
  for (PrintPiece& p : pieces) {
    if (std::holds_alternative<Tensor>(p)) p = Tensor();  // the node's inputs carry them
  }
  host->fn = [stream, pieces](std::span<const Tensor> values) {
    emit(*stream, pieces, values);
    return std::vector<Tensor>{};
  };
  graph::Node n;
  n.kind = graph::NodeKind::kHostCall;
  n.host = std::move(host);
  n.location = loc;
  ctx->add_node(std::move(n), tensors);
}

}  // namespace tfcc::internal
