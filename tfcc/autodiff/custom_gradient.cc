#include "tfcc/autodiff/custom_gradient.h"

#include "tfcc/ops/dispatch.h"

namespace tfcc {

std::function<Tensor(const std::vector<Tensor>&)> custom_gradient(CustomGradientFn f) {
  return [f = std::move(f)](const std::vector<Tensor>& inputs) {
    CustomGradientResult r;
    {
      ObserverPause pause;
      r = f(inputs);
    }
    TFCC_CHECK_ARG(r.output.defined(), "custom_gradient: the function returned no output");
    TFCC_CHECK_ARG(static_cast<bool>(r.grad), "custom_gradient: the function returned no grad_fn");
    size_t n = inputs.size();
    auto grad = r.grad;
    GradFn rule = [grad, n](const GradContext& g) {
      std::vector<Tensor> out = grad(g.grads[0]);
      TFCC_CHECK_ARG(out.size() == n, "custom_gradient: grad_fn returned ", out.size(),
                     " gradients for ", n, " inputs");
      return out;
    };
    Tensor outputs[] = {r.output};
    record_custom_gradient(inputs, outputs, rule);
    return r.output;
  };
}

}  // namespace tfcc
