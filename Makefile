# pathlab: the README's two commands are `make run` and `make test`.
# Both install what is missing (Debian packages), configure and build first.
BUILD   ?= build
JOBS    ?= $(shell nproc)
SHARED  ?= ../shared
MOVINGAI = $(SHARED)/benchmarks/movingai
PATHLAB  = $(BUILD)/apps/cli/pathlab
# make test runs this many queries per scenario file (14 files -> 2,800 queries per algorithm).
SAMPLE  ?= 200

.PHONY: all deps build run demo test unit sanitize conformance contract package fuzz e2e bench format clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The web visualizer on the bundled maps (and the Moving AI maps when ../shared has them):
# prints its URL and serves until Ctrl-C. PORT=0 picks a free port.
PORT ?= 8080
run: build
	@if [ -d $(MOVINGAI) ]; then $(PATHLAB) serve --port $(PORT) --maps $(MOVINGAI); \
	else $(PATHLAB) serve --port $(PORT); fi

# The CLI demo: the bundled maps solved with several algorithms, pictures and a comparison table.
demo: build
	@scripts/demo.sh $(PATHLAB)

# Every test: unit and property tests, CLI tests, the same tests again under ASan + UBSan, the
# Moving AI conformance sample, the CLI contract, the installed-package consumer and 30 s of
# fuzzing per parser.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory sanitize conformance contract package e2e fuzz

# The C++ and CLI tests in a Debug build with AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize: deps
	cmake --preset debug >/dev/null
	cmake --build build-debug -j $(JOBS)
	cd build-debug && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

unit: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

conformance: build
	@scripts/conformance.sh $(PATHLAB) $(MOVINGAI) $(SAMPLE)

contract: build
	@if [ -x $(SHARED)/tools/check-cli-contract ]; then \
	  $(SHARED)/tools/check-cli-contract $(PATHLAB); \
	else echo "SKIP: $(SHARED)/tools/check-cli-contract not found"; fi

package: build
	@tests/package/run.sh $(BUILD)

fuzz: deps
	@scripts/install-deps.sh --fuzz
	@scripts/run-fuzz.sh 30

# Browser tests of the web visualizer (Playwright driving Debian's headless Chromium).
e2e: build
	@scripts/install-deps.sh --e2e
	@tests/e2e/run.sh $(PATHLAB) $(BUILD)/e2e

# The Google Benchmark suite (bench/*_bench.cpp), then the full Moving AI set: every scenario,
# verified and timed.
bench: build
	cmake -S . -B $(BUILD) -DPATHLAB_BUILD_BENCH=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	@for b in $(BUILD)/bench/pathlab_*_bench; do echo "== $$b"; $$b || exit 1; done
	@scripts/conformance.sh $(PATHLAB) $(MOVINGAI) 0

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD) build-debug build-fuzz build-package
