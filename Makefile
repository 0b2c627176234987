# fruitsite: `make site` builds the sample site, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := site

SWIFT ?= swift
PYTHON ?= python3
# The official Mustache spec, kept beside the project (docs/explanation/mustache.md).
MUSTACHE_SPEC_DIR ?= $(abspath ../shared/spec/mustache)
export MUSTACHE_SPEC_DIR

RELEASE_BIN := .build/release/fruitsite
# The tests build the sample site, and copies of it, hundreds of times: they share one cache of
# pictures' variants, so that each picture is encoded once (FRUITSITE_PICTURE_CACHE, see
# docs/how-to/pictures.md), seeded with what `make site` encoded (test-pictures).
TEST_PICTURES := $(abspath .build/test-picture-cache)
TEST_ENV := FRUITSITE_PICTURE_CACHE=$(TEST_PICTURES)
# On Linux the Swift runtime and Foundation are linked in: the binary runs without a Swift
# installation, and starts in a third of the time (no relocating of shared libraries),
# which is most of a rebuild after one edit.
RELEASE_FLAGS := $(if $(filter Linux,$(shell uname)),--static-swift-stdlib)
# The C libraries: libvips decodes and encodes pictures, loaded at the first one (its headers
# are for shim-test); on Linux the executable also links jemalloc (see Package.swift).
PKG_CONFIG_DEPS := libcmark yaml-0.1 vips $(if $(filter Linux,$(shell uname)),jemalloc)
APT_DEPS := libcmark-dev libyaml-dev libvips-dev libjemalloc-dev pkg-config unicode-data bzip2
# Unicode's NormalizationTest.txt, which the NFC test reads (Debian compresses it).
UNICODE_TEST := /usr/share/unicode/NormalizationTest.txt

.PHONY: site test install deps mustache-reference release docs-test shim-test swift-test js-test browser-test bench fuzz sanitize test-pictures stress lint format help

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-19s %s\n", $$1, $$2}'

deps: ## Install libcmark, libyaml, libvips, pkg-config and (on Linux) jemalloc and unicode-data when they are missing
	@if pkg-config --exists $(PKG_CONFIG_DEPS) 2>/dev/null && { [ "$$(uname)" = Darwin ] || \
	  { ls $(UNICODE_TEST)* >/dev/null 2>&1 && command -v bzip2 >/dev/null; }; }; then exit 0; fi; \
	if [ "$$(uname)" = Darwin ]; then \
	  if command -v brew >/dev/null; then brew install cmark libyaml vips pkg-config; \
	  else echo "error: install Homebrew, then run: brew install cmark libyaml vips pkg-config" >&2; exit 1; fi; \
	elif command -v apt-get >/dev/null; then \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  if [ -n "$$sudo" ] && ! command -v sudo >/dev/null; then \
	    echo "error: run as root: apt-get install -y $(APT_DEPS)" >&2; exit 1; fi; \
	  echo "Installing $(APT_DEPS)…"; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $(APT_DEPS) >/dev/null || { \
	    echo "error: could not install; run: sudo apt-get install -y $(APT_DEPS)" >&2; exit 1; }; \
	else \
	  echo "error: install the development files of libcmark, libyaml, libvips and jemalloc, and pkg-config" >&2; exit 1; \
	fi

# The Mustache differential test (Tests/MustacheTests/DifferentialTests.swift) renders generated
# templates with Ruby's reference implementation too; Debian packages it as ruby-mustache.
mustache-reference: ## Install Ruby's mustache gem when missing (the Mustache differential test's reference)
	@if ruby -e 'require "mustache"' 2>/dev/null; then exit 0; fi; \
	if command -v apt-get >/dev/null; then \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  if [ -n "$$sudo" ] && ! command -v sudo >/dev/null; then \
	    echo "error: run as root: apt-get install -y ruby-mustache" >&2; exit 1; fi; \
	  echo "Installing ruby-mustache…"; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq ruby-mustache >/dev/null || { \
	    echo "error: could not install; run: sudo apt-get install -y ruby-mustache" >&2; exit 1; }; \
	else \
	  echo "error: install Ruby and its mustache gem (gem install mustache)" >&2; exit 1; \
	fi

release: deps ## Build fruitsite in release mode
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product fruitsite

site: release ## Install what is missing, build fruitsite and generate the sample site into Output/
	$(RELEASE_BIN) build
	@echo "Look at it: $(RELEASE_BIN) serve, then open http://127.0.0.1:8000/"

# Where `make install` puts the binary: /usr/local/bin (with sudo), or PREFIX=$HOME/.local.
PREFIX ?= /usr/local

install: ## Copy the binary `make site` built to PREFIX/bin (/usr/local/bin), so that `fruitsite` runs by name
	@test -x $(RELEASE_BIN) || { echo "error: build it first: make site" >&2; exit 1; }
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/fruitsite"

test: site lint docs-test shim-test swift-test js-test browser-test ## Every test: formatting, the documentation, Swift, JavaScript and the real browser

# The Swift half reads what the docs must name from the code: each command's --help, the
# front-matter and config keys, every template variable (docs/contributing.md, "The tests").
docs-test: deps test-pictures ## The documentation: every relative link and #anchor leads somewhere, and the reference names every option, key and variable
	$(PYTHON) Tests/Docs/check_links.py
	$(TEST_ENV) $(SWIFT) test --filter 'DocumentationTests|HelpReferenceTests'

# libvips is loaded with dlopen, so the compiler never compares Sources/CVips/shim.h with
# libvips's headers; this does.
shim-test: deps ## The libvips declarations of Sources/CVips/shim.h against libvips's own headers
	$(CC) -fsyntax-only $$(pkg-config --cflags vips) Tests/CVips/declarations.c

swift-test: deps mustache-reference test-pictures ## The Swift tests (the Mustache spec and differential test among them)
	$(TEST_ENV) MUSTACHE_REFERENCE=required $(SWIFT) test

js-test: release ## The JavaScript tests (node --test), some against sites the release build writes
	$(TEST_ENV) FRUITSITE_BIN=$(RELEASE_BIN) node --test Tests/JS/

browser-test: site ## Headless Chromium against the built sample site, plus the HTML checker and axe
	bash Tests/Browser/setup.sh
	$(TEST_ENV) FRUITSITE_BIN=$(RELEASE_BIN) FRUITSITE_SITE=Output $(PYTHON) -m pytest -q Tests/Browser

bench: release ## Benchmarks: fruitsite against Hugo, a first search against Pagefind, the search client (prints figures; not a test)
	bash Benchmarks/run.sh

fuzz: deps ## Run each libFuzzer target for a bounded time (FUZZ_SECONDS, default 120)
	bash Fuzz/run.sh

stress: release ## kill -9, concurrent builds, mount points, random edits: each trial must leave one whole site (TRIALS, ENTRIES, SEEDS)
	FRUITSITE_BIN=$(RELEASE_BIN) bash Tests/Stress/run.sh

sanitize: deps test-pictures ## The Swift tests under AddressSanitizer and ThreadSanitizer
	$(TEST_ENV) LSAN_OPTIONS=suppressions=$(abspath Tests/lsan.supp) $(SWIFT) test --sanitize=address --scratch-path .build/asan
	$(TEST_ENV) $(SWIFT) test --sanitize=thread --scratch-path .build/tsan

# Tests run in parallel, and would each encode the sample's pictures before any had cached them.
test-pictures:
	@mkdir -p $(TEST_PICTURES)
	@if [ -d .fruitsite-cache/pictures ]; then cp -n .fruitsite-cache/pictures/* $(TEST_PICTURES)/ 2>/dev/null || true; fi

lint: ## Check formatting with swift format
	$(SWIFT) format lint --strict --recursive Sources Tests Plugins Package.swift

format: ## Format the Swift sources in place
	$(SWIFT) format format --in-place --recursive Sources Tests Plugins Package.swift
