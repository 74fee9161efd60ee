# pathlab: the README's two commands are `make run` and `make test`.
# Both install what is missing (Debian packages), configure and build first.
BUILD   ?= build
JOBS    ?= $(shell nproc)
SHARED  ?= ../shared
MOVINGAI = $(SHARED)/benchmarks/movingai
PATHLAB  = $(BUILD)/apps/cli/pathlab
# make test runs this many queries per scenario file (14 files -> 2,800 queries per algorithm).
SAMPLE  ?= 200

.PHONY: all deps build run demo test deep docs examples unit sanitize tsan conformance contract package python wheel fuzz e2e bench speed format clean wasm wasm-test bench-js site site-test

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake --preset release -B $(BUILD)

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

# The docs site (MkDocs over docs/, the C++ API reference by Doxygen in its api/ folder) into
# $(BUILD)/docs/site, failing on any warning. `make examples` builds, then runs every runnable
# example of the README and docs/ (with the site: the docs stage of make test).
docs: deps
	@scripts/docs.sh $(BUILD)/docs/site
examples: deps
	@scripts/check.sh build docs

# What a newcomer runs (10-13 minutes on 2 cores from a clean clone, by the machine): the Release
# build; the unit, property, CLI and server tests (ctest); the Moving AI conformance sample; the
# CLI contract; the installed-package consumers; the Python module's tests; the docs site and
# every runnable example of the README and docs/; the browser tests. The last line: N passed,
# N failed.
export BUILD JOBS SHARED SAMPLE
test: deps
	@scripts/check.sh build unit conformance contract package python docs e2e

# What CI adds after make test (scripts/check.sh says how each stage is counted): the Python
# package built as a wheel from the sources (a second build of the library), installed into a
# fresh virtual environment and used; one clang build with ASan + UBSan that runs every ctest test and 30 s of libFuzzer per parser, then a
# ThreadSanitizer build that runs every test querying from several threads (label `threads`),
# then the WebAssembly build and the npm package's tests (they compare with the Release build),
# then the static page (make site) in Chromium from a plain static file server.
deep: deps
	@scripts/check.sh wheel sanitize-build asan fuzz tsan-build tsan wasm-build wasm site

# The npm package `pathlab` (the library compiled to WebAssembly by Debian's Emscripten) into
# build-wasm/js/package, ready for `npm pack`; wasm-test runs its tests, bench-js sets it beside
# PathFinding.js, EasyStar.js and the native build on Moving AI queries.
wasm: deps
	@scripts/wasm.sh build

# The web page as static files that need no server (its API runs in the browser: pathlab::api
# compiled to WebAssembly, in a Web Worker) into build-site-wasm/site: any static file server
# serves it. site-test builds it and runs its browser tests (against the Release build's command).
site: deps
	@scripts/site.sh
site-test: build
	@scripts/check.sh site
wasm-test: build wasm
	@scripts/wasm.sh test $(PATHLAB)
bench-js: build wasm
	@scripts/wasm.sh bench

unit: deps
	@scripts/check.sh build unit
sanitize: deps
	@scripts/check.sh sanitize-build asan
tsan: deps
	@scripts/check.sh tsan-build tsan
fuzz: deps
	@scripts/check.sh sanitize-build fuzz
conformance: deps
	@scripts/check.sh build conformance
contract: deps
	@scripts/check.sh build contract
package: deps
	@scripts/check.sh build package
e2e: deps
	@scripts/check.sh build e2e
python: deps
	@scripts/check.sh build python
wheel: deps
	@scripts/check.sh wheel

# The Google Benchmark suite (bench/*_bench.cpp), then the full Moving AI set: every scenario,
# verified and timed.
bench: build
	cmake -S . -B $(BUILD) -DPATHLAB_BUILD_BENCH=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	@for b in $(BUILD)/bench/pathlab_*_bench; do echo "== $$b"; $$b || exit 1; done
	@scripts/conformance.sh $(PATHLAB) $(MOVINGAI) 0

# The README's Speed table: every scenario of the 14 shared maps, one thread, pathlab's optimal
# algorithms and then the research peers of shared docs/PEERS.md (built outside the project into
# PEERS) on the same files, in one run; writes $(BUILD)/speed.html.
PEERS ?= $(abspath $(SHARED)/../peers/bin)
speed: build
	@test -d "$(PEERS)" || echo "no peers in $(PEERS) (see $(SHARED)/docs/PEERS.md): pathlab alone"
	$(PATHLAB) bench $(MOVINGAI)/*.map.scen --algo astar,jps,jps+,subgoal,subgoal-ch --threads 1 \
	  $$(test -d "$(PEERS)" && echo --peers "$(PEERS)") --peer-timeout 300 --report $(BUILD)/speed.html

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD) build-asan build-tsan build-wasm build-site-wasm
