# The two commands of the README, and the rest of the developer loop.
#   make demo       installs, builds, runs the main example
#   make test       installs, builds, runs the whole suite
#   make test-asan  the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      builds and runs the benchmarks (tfcc next to its peers), prints tables
JOBS ?= $(shell nproc)
BUILD ?= build/release
ASAN_BUILD ?= build/asan
CMAKE_FLAGS ?=

.PHONY: all deps build demo test test-asan bench format clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/examples/eager_basics
	rm -rf $(BUILD)/logs/summaries && $(BUILD)/examples/summaries $(BUILD)/logs/summaries

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFCC_SANITIZE=ON \
	  -DTFCC_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS)

test-asan: deps $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# The peers (LibTorch, PyTorch, TensorFlow) come from install-bench-deps.sh, not install-deps.sh,
# so `make test` stays lean. Re-configuring lets CMake find a LibTorch installed just now.
bench: deps
	@bash scripts/install-bench-deps.sh $(BUILD)
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	bash benchmarks/run.sh $(BUILD)

format:
	git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf build
