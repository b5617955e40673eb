// keras::saving::Json: dump, parse, Python literals, and malformed input.
#include "tfcc/keras/saving/json.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfcc/platform/errors.h"

namespace tfcc::keras::saving {
namespace {

TEST(Json, DumpKeepsKeyOrderAndPythonSeparators) {
  Json o = Json::object();
  o.set("units", Json(int64_t{64}));
  o.set("activation", Json("relu"));
  o.set("rate", Json(0.25));
  o.set("shape", Json::array().push(Json()).push(Json(int64_t{8})));
  o.set("on", Json(true));
  EXPECT_EQ(o.dump(),
            R"({"units": 64, "activation": "relu", "rate": 0.25, "shape": [null, 8], "on": true})");
}

TEST(Json, ParseRoundTrip) {
  const std::string text =
      R"({"a": [1, 2.5, -3e-07, "x\"y\n", null, false], "b": {"c": Infinity}})";
  Json j = Json::parse(text, "t.json");
  EXPECT_EQ(j.at("a").items()[0].as_int(), 1);
  EXPECT_DOUBLE_EQ(j.at("a").items()[2].as_number(), -3e-07);
  EXPECT_EQ(j.at("a").items()[3].as_string(), "x\"y\n");
  EXPECT_TRUE(std::isinf(j.at("b").at("c").as_number()));
  EXPECT_EQ(Json::parse(j.dump(), "again").dump(), j.dump());
}

// Python's json (and so Keras) writes non-finite floats as bare NaN / Infinity / -Infinity.
TEST(Json, NonFiniteNumbersAsPythonWritesThem) {
  const std::string text = R"({"a": NaN, "b": -Infinity, "c": "NaN", "d": [Infinity, 1.5]})";
  Json j = Json::parse(text, "nan.json");
  EXPECT_TRUE(std::isnan(j.at("a").as_number()));
  EXPECT_EQ(j.at("b").as_number(), -INFINITY);
  EXPECT_EQ(j.at("c").as_string(), "NaN");  // a string stays a string
  EXPECT_EQ(j.at("d").items()[0].as_number(), INFINITY);
  EXPECT_EQ(j.dump(), text);
  Json k = Json::object();
  k.set("x", Json(std::nan("")));
  EXPECT_EQ(k.dump(), R"({"x": NaN})");
  for (const char* bad : {"NaNa", "[Infinityy]", "[-NaN]", "nan", "[inf]"}) {
    EXPECT_THROW(Json::parse(bad, "bad.json"), DataLossError) << bad;
  }
}

TEST(Json, PythonLiterals) {
  EXPECT_EQ(Json::from_python_literal("(None, 8)").dump(), "[null, 8]");
  EXPECT_EQ(Json::from_python_literal("(3,)").dump(), "[3]");
  EXPECT_EQ(Json::from_python_literal("'relu'").as_string(), "relu");
  EXPECT_EQ(Json::from_python_literal("{'class_name': 'L2', 'config': {'l2': 0.02}}").dump(),
            R"({"class_name": "L2", "config": {"l2": 0.02}})");
  EXPECT_TRUE(Json::from_python_literal("True").as_bool());
  EXPECT_THROW(Json::from_python_literal("relu"), InvalidArgumentError);
}

TEST(Json, MalformedTextIsDataLossNamingTheOffset) {
  for (const char* bad : {"{", "[1,", "{\"a\" 1}", "\"abc", "[1] x", "{\"a\": tru}", "-"}) {
    try {
      Json::parse(bad, "config.json");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const DataLossError& e) {
      EXPECT_NE(std::string(e.what()).find("config.json"), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("offset"), std::string::npos);
    }
  }
  std::string deep(500, '[');
  EXPECT_THROW(Json::parse(deep, "deep.json"), DataLossError);
}

TEST(Json, TypeErrorsNameTheField) {
  Json j = Json::parse(R"({"units": "many"})", "c");
  EXPECT_THROW(j.at("units").as_int("units"), InvalidArgumentError);
  EXPECT_THROW(j.at("missing"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::saving
