"""Writes the Keras 3 references that applications_test.cc compares tfcc's keras::applications
with: for each model below, reference/<case>.txt holds the model's name, its total and trainable
parameter counts (model.summary()'s totals), its output shape, then one line per layer in
model.layers order: name, class name, parameter count.

Run with TensorFlow 2.21's Keras 3 (weights=None: nothing is downloaded):
  python3 tests/unit/keras/applications/keras_reference.py
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402

A = keras.applications
CASES = {
    "mobilenet_v2": lambda: A.MobileNetV2(weights=None),
    "mobilenet_v2_035_96_avg": lambda: A.MobileNetV2(
        weights=None, alpha=0.35, input_shape=(96, 96, 3), include_top=False, pooling="avg"),
    "mobilenet_v2_130_classes10": lambda: A.MobileNetV2(
        weights=None, alpha=1.3, input_shape=(64, 80, 3), classes=10),
    "resnet50": lambda: A.ResNet50(weights=None),
    "resnet50_64_max": lambda: A.ResNet50(
        weights=None, input_shape=(64, 64, 3), include_top=False, pooling="max"),
    "resnet50_v2": lambda: A.ResNet50V2(weights=None),
    "vgg16": lambda: A.VGG16(weights=None),
    "vgg16_notop_avg": lambda: A.VGG16(
        weights=None, include_top=False, input_shape=(64, 64, 3), pooling="avg"),
    "densenet121": lambda: A.DenseNet121(weights=None),
    "mobilenet_v3_small": lambda: A.MobileNetV3Small(weights=None),
    "efficientnet_b0": lambda: A.EfficientNetB0(weights=None),
}


def write(case, model, out):
    trainable = sum(int(w.numpy().size) for w in model.trainable_weights)
    lines = [f"model {model.name}", f"total {model.count_params()}", f"trainable {trainable}",
             f"output {tuple(model.output.shape)}"]
    for layer in model.layers:
        lines.append(f"{layer.name} {type(layer).__name__} {layer.count_params()}")
    with open(os.path.join(out, f"{case}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{case}: {len(model.layers)} layers, {model.count_params()} params")


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference")
    os.makedirs(out, exist_ok=True)
    for case, build in CASES.items():
        keras.backend.clear_session()
        write(case, build(), out)


if __name__ == "__main__":
    main()
