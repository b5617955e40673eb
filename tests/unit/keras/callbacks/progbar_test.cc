// The Keras 2 progress bar: exact text for verbose 1 (terminal and not) and verbose 2, with an
// injected clock.
#include "tfcc/keras/callbacks/progbar.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::callbacks {
namespace {

struct FakeClock {
  double t = 0;
  std::function<double()> fn() {
    return [this] { return t; };
  }
};

TEST(Progbar, NonTerminalWritesOnlyTheFinalLine) {
  std::ostringstream out;
  FakeClock clock;
  Progbar bar(5, {.io = {.out = &out, .dynamic = false, .clock = clock.fn()}});
  for (int step = 1; step <= 4; ++step) {
    clock.t = 8.972 + 0.007 * (step - 1);
    bar.update(step, {{"loss", 2.0}, {"accuracy", 0.1}});
  }
  EXPECT_EQ(out.str(), "");
  clock.t = 9.0;
  bar.update(5, {{"loss", 1.57623}, {"accuracy", 0.49375}});
  EXPECT_EQ(
      out.str(),
      "5/5 [==============================] - 9s 7ms/step - loss: 1.5762 - accuracy: 0.4938\n");
}

TEST(Progbar, TerminalRedrawsInPlaceWithEta) {
  std::ostringstream out;
  FakeClock clock;
  Progbar bar(5, {.io = {.out = &out, .dynamic = true, .clock = clock.fn()}});
  clock.t = 1.0;
  bar.update(1, {{"loss", 0.5}});
  EXPECT_EQ(out.str(), "\r1/5 [=====>........................] - ETA: 4s - loss: 0.5000");
  out.str("");
  clock.t = 1.01;  // within 0.05 s of the last redraw: throttled
  bar.update(2, {{"loss", 0.4}});
  EXPECT_EQ(out.str(), "");
  clock.t = 3.0;
  bar.update(2, {{"loss", 0.0001}});
  // 61 characters were drawn before: backspaces and a carriage return, then the new line.
  EXPECT_EQ(out.str(), std::string(61, '\b') +
                           "\r2/5 [===========>..................] - ETA: 6s - loss: 1.0000e-04");
}

TEST(Progbar, VerboseTwoPrintsEpochAndStepTimes) {
  std::ostringstream out;
  FakeClock clock;
  Progbar bar(5, {.verbose = 2, .io = {.out = &out, .dynamic = false, .clock = clock.fn()}});
  clock.t = 0.05;
  bar.update(3, {{"loss", 1.0}});
  EXPECT_EQ(out.str(), "");
  clock.t = 0.091;
  bar.update(5, {{"loss", 1.57623}, {"accuracy", 0.49375}});
  EXPECT_EQ(out.str(), "5/5 - 0s - loss: 1.5762 - accuracy: 0.4938 - 91ms/epoch - 18ms/step\n");
}

TEST(Progbar, RightAlignsTheCountAndHandlesUnknownTargets) {
  std::ostringstream out;
  FakeClock clock;
  Progbar bar(469, {.io = {.out = &out, .dynamic = false, .clock = clock.fn()}});
  clock.t = 2;
  bar.update(7, {}, true);
  EXPECT_EQ(out.str().substr(0, 40), "  7/469 [..............................]");
  std::ostringstream out2;
  Progbar unknown(std::nullopt, {.io = {.out = &out2, .dynamic = false, .clock = clock.fn()}});
  unknown.update(12, {}, true);
  EXPECT_EQ(out2.str().substr(0, 15), "     12/Unknown");
}

class Recorder : public Callback {
 public:
  explicit Recorder(std::vector<std::string>* events) : events_(events) {}
  void on_epoch_begin(int epoch, Logs&) override {
    events_->push_back("begin " + std::to_string(epoch));
  }
  void on_epoch_end(int epoch, Logs& logs) override {
    events_->push_back("end " + std::to_string(epoch));
    logs.set("lr", 0.5);
  }

 private:
  std::vector<std::string>* events_;
};

TEST(CallbackList, ForwardsHooksInOrderAndHistoryRecordsLogs) {
  std::vector<std::string> events;
  auto history = std::make_shared<History>();
  CallbackList list({Recorder(&events), history});
  list.configure(nullptr, {.verbose = 0, .epochs = 2, .steps = 3});
  EXPECT_EQ(history->params().epochs, 2);
  Logs none;
  list.on_train_begin(none);
  for (int e = 0; e < 2; ++e) {
    Logs logs{{"loss", 1.0 / (e + 1)}, {"accuracy", 0.5}};
    list.on_epoch_begin(e, logs);
    list.on_epoch_end(e, logs);
  }
  EXPECT_EQ(events, (std::vector<std::string>{"begin 0", "end 0", "begin 1", "end 1"}));
  EXPECT_EQ(history->keys(), (std::vector<std::string>{"loss", "accuracy", "lr"}));
  EXPECT_EQ((*history)["loss"], (std::vector<double>{1.0, 0.5}));
  EXPECT_EQ(history->epoch(), (std::vector<int>{0, 1}));
  EXPECT_THROW((*history)["val_loss"], NotFoundError);
}

TEST(ProgbarLogger, PrintsEpochHeaders) {
  std::ostringstream out;
  ProgbarLogger logger({.out = &out, .dynamic = false});
  logger.set_params({.verbose = 1, .epochs = 2, .steps = 2});
  Logs logs{{"loss", 0.25}};
  logger.on_train_begin(logs);
  for (int e = 0; e < 2; ++e) {
    logger.on_epoch_begin(e, logs);
    logger.on_train_batch_end(0, logs);
    logger.on_train_batch_end(1, logs);
    logger.on_epoch_end(e, logs);
  }
  const std::string s = out.str();
  EXPECT_EQ(s.find("Epoch 1/2\n2/2 [==============================] - "), 0u) << s;
  EXPECT_NE(s.find("\nEpoch 2/2\n2/2 ["), std::string::npos) << s;
  EXPECT_NE(s.find(" - loss: 0.2500\n"), std::string::npos) << s;
}

}  // namespace
}  // namespace tfcc::keras::callbacks
