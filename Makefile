# The two commands of the README, and the rest of the developer loop.
#   make demo       installs, builds, runs the main example
#   make test       installs, builds, runs the whole suite
#   make test-asan  the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      builds and runs the benchmarks (tfcc next to its peers), prints tables
#   make bench-suite  the benchmark suite: every model next to TensorFlow, PyTorch and ONNX
#                   Runtime, 1 and 2 threads, quiet and busy (SUITE_ARGS=--quick: a short check)
#   make fuzz       builds the libFuzzer targets with clang and runs each FUZZ_RUNS times
#                   (FUZZ_TARGETS="tfrecord_fuzz ..." runs only those)
#   make ci-extra   what CI adds to `make test`: the libraries built by clang (ASan), every fuzz
#                   target for FUZZ_SMOKE_RUNS executions, the parsers' tests under ASan
#   make test-tsan  the data pipeline tests under ThreadSanitizer
JOBS ?= $(shell nproc)
BUILD ?= build/release
ASAN_BUILD ?= build/asan
FUZZ_BUILD ?= build/fuzz
FUZZ_RUNS ?= 1000000
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_SMOKE_SECONDS ?= 60
FUZZ_CI_TARGETS ?= tfcc_keras tfcc_distribute tfcc_cli fuzz_targets io_tests data_tests
FUZZ_TARGETS ?=
TSAN_BUILD ?= build/tsan
CMAKE_FLAGS ?=
# Paths under the checkout are hashed relative to it, so every clone shares one ccache.
export CCACHE_BASEDIR ?= $(CURDIR)
# The sanitizer and fuzz builds carry debug info, which puts the build directory into each
# object's hash unless ccache is told not to hash it.
export CCACHE_NOHASHDIR ?= 1

.PHONY: all deps build demo test test-asan test-tsan fuzz ci-extra bench bench-suite format clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/examples/eager_basics
	rm -rf $(BUILD)/logs/fit $(BUILD)/demo_export && $(BUILD)/examples/keras_fit_cnn --full \
	  --logdir $(BUILD)/logs/fit --export $(BUILD)/demo_export
	$(BUILD)/tools/tfcc saved-model show $(BUILD)/demo_export/model
	$(BUILD)/tools/tfcc saved-model run $(BUILD)/demo_export/model --signature serving_default \
	  --input $(BUILD)/demo_export/test_images.npy
	rm -rf $(BUILD)/logs/summaries && $(BUILD)/examples/summaries $(BUILD)/logs/summaries
	@echo "TensorBoard logs of this run: tensorboard --logdir $(BUILD)/logs"

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFCC_SANITIZE=ON \
	  -DTFCC_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer needs clang, version 16 (clang 14 lacks the builtin that libstdc++ 12's
# std::source_location needs). One clang build serves three purposes: the tree is compiled by
# clang with -Werror and instrumented for coverage + ASan; each fuzz/*_fuzz.cc links the fuzzer
# driver; the test binaries run under ASan (`cmake --build build/fuzz` builds all of it).
# -O1 -gline-tables-only: file:line in reports at a fraction of -O2 -g's compile and link time
# (libFuzzer's own recommendation is -O1 or -O2).
# Re-configured when this Makefile changes, so a build/fuzz made by an older one takes new flags.
$(FUZZ_BUILD)/CMakeCache.txt: Makefile
	CC=clang-16 CXX=clang++-16 cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
	  -DTFCC_FUZZ=ON -DTFCC_BUILD_TESTS=ON -DTFCC_BUILD_BENCHMARKS=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer" $(CMAKE_FLAGS)
	touch $@

# The long runs: FUZZ_RUNS executions of each target (only the fuzz targets and what they link
# are built).
fuzz: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets
	bash scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_RUNS) $(FUZZ_TARGETS)

# What CI runs after `make test` (.ci/run): every library, the CLI, the fuzz targets and the
# parsers' test binaries built by clang in $(FUZZ_BUILD) (FUZZ_CI_TARGETS=all adds the other test
# binaries and the examples), each fuzz target for FUZZ_SMOKE_RUNS executions from its corpus (at
# most FUZZ_SMOKE_SECONDS each), and the parsers' tests under ASan.
# The smoke skips keras_file_fuzz's HDF5 stage: Debian's libhdf5 1.10.8 crashes inside its own code
# on damaged files within ~1,000 inputs (docs/fuzzing.md); the zip and JSON stages still run.
ci-extra: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_CI_TARGETS)
	TFCC_FUZZ_SKIP_HDF5=1 FUZZ_MAX_TOTAL_TIME=$(FUZZ_SMOKE_SECONDS) bash scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_RUNS)
	bash scripts/run-asan-parsers.sh $(FUZZ_BUILD)

# ThreadSanitizer over the input pipeline's tests (worker threads, prefetch, early destruction).
# OMP_NUM_THREADS=1: GCC's OpenMP runtime is not TSan-instrumented and would report its own sync.
$(TSAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFCC_BUILD_BENCHMARKS=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" $(CMAKE_FLAGS)

test-tsan: deps $(TSAN_BUILD)/CMakeCache.txt
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target data_tests
	OMP_NUM_THREADS=1 TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  $(TSAN_BUILD)/tests/data_tests

# The peers (LibTorch, PyTorch, TensorFlow) come from install-bench-deps.sh, not install-deps.sh,
# so `make test` stays lean. Re-configuring lets CMake find a LibTorch installed just now.
bench: deps
	@bash scripts/install-bench-deps.sh $(BUILD)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	bash benchmarks/run.sh $(BUILD)

# The suite of BENCHMARKS.md's first table (benchmarks/suite_run.sh; ~2 h in full, ~15 min with
# SUITE_ARGS=--quick). Only its own binaries are built.
SUITE_ARGS ?=
bench-suite: deps
	@bash scripts/install-bench-deps.sh $(BUILD)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTFCC_BUILD_BENCHMARKS=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target suite_bench fit_cnn_bench
	bash benchmarks/suite_run.sh $(SUITE_ARGS) $(BUILD)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf build

# A Debian package of the libraries, headers, CMake package, tfcc.pc and the `tfcc` command line,
# rooted at /usr (PACKAGE_BUILD/tfcc_<version>_amd64.deb). Built without -march=native, so the
# package runs on any x86-64 (kernels then use what the compiler's baseline allows).
PACKAGE_BUILD ?= build/package
.PHONY: package

$(PACKAGE_BUILD)/CMakeCache.txt:
	cmake -S . -B $(PACKAGE_BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
	  -DTFCC_NATIVE=OFF -DTFCC_BUILD_TESTS=OFF -DTFCC_BUILD_EXAMPLES=OFF -DTFCC_BUILD_BENCHMARKS=OFF \
	  $(CMAKE_FLAGS)

package: deps $(PACKAGE_BUILD)/CMakeCache.txt
	cmake --build $(PACKAGE_BUILD) -j $(JOBS)
	cd $(PACKAGE_BUILD) && cpack -G DEB
