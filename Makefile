# Zapper's commands (see README.md):
#   make demo   build, start the demo origin, play channels/demo.m3u
#   make test   the whole test suite: the Swift tests, then the appliance's system test in QEMU
#   make check  the quick tier: the in-process tests only (no child process), a minute or two
#               (make test-image: image/test on bochs and virtio-gpu)
#   make fuzz   libFuzzer on each parser of outside bytes for FUZZ_SECONDS (60) each
#   make bench  build release, play a demo channel for a minute in zapper, mpv and ffmpeg, print a table;
#               the same for a 1080i25 broadcast channel deinterlaced (beside ffmpeg -vf bwdif and mpv);
#               then zap times: zapper's adjacent flips and number entry beside mpv's playlist-next
#               (on loopback, then over a shaped broadband link), key to screen while loads hang, a
#               provider-sized lineup, every input from outside at its bound (peak memory), and last
#               the soak: 10,000 changes with memory read every 1,000
#               (about 40 minutes; SOAK_ARGS="--flips 1000" for a short one)
# Each installs the Debian packages it needs first.

DEB_PACKAGES := ffmpeg pkg-config fontconfig fonts-dejavu-core curl \
	libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev \
	libdrm-dev libinput-dev libudev-dev libevdev-dev libasound2-dev \
	libcairo2-dev libpango1.0-dev zlib1g-dev libxml2-dev libsdl2-dev libmosquitto-dev libqrencode-dev libjemalloc-dev

# Only `make test` needs these: a real X server for the window's test, xwd for its
# screenshots (ffmpeg reads them), xdotool to type into the window (XTEST); prometheus for
# the metrics tests (promtool check metrics, and a real server scraping zapper); a Mosquitto
# broker and its clients for the MQTT tests (python3-venv for amqtt, below); Chromium and its
# WebDriver for the phone's remote page; zbarimg (zbar-tools) reads the QR code the panel's Phone tab shows.
TEST_PACKAGES := xvfb x11-apps xdotool openssl ca-certificates prometheus mosquitto mosquitto-clients chromium chromium-driver zbar-tools python3-venv

# Only `make bench` needs these (mpv is the peer zapper is measured against; a broker for the MQTT input).
BENCH_PACKAGES := mpv mosquitto mosquitto-clients

ORIGIN_PORT ?= 8600
# SwiftPM's outputs stay out of the checkout: the build folder lives under ~/.cache
# (one per checkout), and the Package.resolved every resolve writes at the package
# root is removed again (the versions come from Package.swift; git ignores it too).
BUILD_DIR ?= $(HOME)/.cache/zapper/build-$(shell pwd | md5sum | cut -c1-12)
# Extra `swift build` flags
SWIFT_BUILD_FLAGS ?=
SCRATCH = --scratch-path "$(BUILD_DIR)" $(SWIFT_BUILD_FLAGS)
SWIFTPM = swiftpm() { swift "$$@"; local status=$$?; rm -f Package.resolved; return $$status; }; swiftpm
# Options for `zapper-bench playback`, e.g. BENCH_ARGS="--channel 3"; for `zapper-bench zap`, e.g. ZAP_ARGS="--count 50"
BENCH_ARGS ?=
SOAK_ARGS ?= --flips 10000 --dwell 200 --every 1000
SHELL := /bin/bash
empty :=
space := $(empty) $(empty)

# What image/build and image/test need on the host (image/build installs the rest itself).
IMAGE_PACKAGES := qemu-system-x86 qemu-utils ovmf mmdebstrap busybox-static kmod cpio e2fsprogs \
	dosfstools mtools fdisk python3 binutils

.PHONY: demo test check test-image bench deps build-release fuzz amqtt

deps:
	@missing=""; \
	for package in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing Debian packages:$$missing"; \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v swift >/dev/null || { echo "make: swift is not on PATH (Swift 6.1 or newer, from swift.org)"; exit 1; }

build-release: deps
	$(SWIFTPM) build -c release $(SCRATCH) --product zapper-origin
	$(SWIFTPM) build -c release $(SCRATCH) --product zapper

# Starts the origin (unless one already serves the port), then the player.
demo: build-release
	@set -e; \
	bin=$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path); \
	if curl -sf -o /dev/null http://127.0.0.1:$(ORIGIN_PORT)/channels.json; then \
		echo "make: an origin already serves http://127.0.0.1:$(ORIGIN_PORT)"; origin=""; \
	else \
		echo "make: starting zapper-origin (the first run encodes the demo channels: a few minutes)"; \
		"$$bin/zapper-origin" --port $(ORIGIN_PORT) & origin=$$!; \
		trap 'kill $$origin 2>/dev/null' EXIT INT TERM; \
		until curl -sf -o /dev/null http://127.0.0.1:$(ORIGIN_PORT)/channels.json; do \
			kill -0 $$origin 2>/dev/null || { echo "make: zapper-origin failed"; exit 1; }; sleep 1; \
		done; \
	fi; \
	"$$bin/zapper" --lineup channels/demo.m3u

# Tests in flight at once. Unbounded, Swift Testing starts all 700 together: the async tests'
# continuations then queue on Swift's two cooperative threads behind hundreds of synchronous
# tests, and their real-time deadlines (an https fetch's 20 s, a segment's 10 s, a logo retry
# test's minute) ran out while nothing was wrong. 48, not 8: the sixty-odd end-to-end tests
# waiting (suspended, on no thread) for one of the five zapper places (Tests/PlayerTests/
# LaunchSlots.swift) each hold a place in the width; at 16 and 24 they held all of it, and the
# other suites' tests (a parameterized test's cases) waited behind them for minutes.
TEST_WIDTH ?= 48

# `make check`: the quick tier, every test that runs in the test process (the core, behaviour
# on the virtual clock, the UI goldens, parsers and decoders on bytes in memory), no child process:
# these suites and tests start zapper, the origin, a broker, an X server, Chromium, Prometheus,
# ffmpeg, gzip, openssl or zbarimg, and are left to `make test`. A test that starts a child belongs here.
CHECK_SKIP := ZapperPlaybackTests|OptionsReferenceTests|SubtitleRoundTripTests|HTTPSTests|PanelTests|LockAndStateTests|theCodeReadsBackAsTheLink|withoutALinkThereIsNoCodeButTheReason|MQTTFleetTests|OriginOverHTTP|HLSLiveSessionTests|WindowTests|FleetLinkTests|OlderBrokerTests|\
	StateKillTests|SystemdNotifyTests|WarmNeighbourTests|CaptionPlaybackTests|CatchUpTests|DecodeCeilingTests|\
	DecoderThreadsTests|GuardedRenditionTests|GuideMemoryTests|SegmentEncryptionTests|AudioChoiceTests|\
	DeinterlacerTests|MediaDecodeTests|MultiplexDemuxTests|PictureAndSoundTests|PictureCeilingTests|\
	SegmentDecryptorTests|SubtitleTrackTests|WarmHeadTests|separateAudioComesBackAfterAnOutage|gzippedChunks|\
	decompressedBytesAreCapped|badGzipIsAnError|readsAFileAndAGzippedFile|readsConcatenatedGzipMembers|\
	theMeterAgreesWithFFmpegsEbur

# Each phase of `make test` adds its name and seconds to $(PHASES); the last line prints them all.
PHASES = $(BUILD_DIR)/phases.txt
timed = start=$$SECONDS; $(2); status=$$?; echo "$(1) $$((SECONDS - start)) s" >> "$(PHASES)"; (exit $$status)

# The origin's loops are encoded before any test starts its clock: on a machine that has never
# encoded them (no ~/.cache/zapper-origin) that takes minutes of both cores, and tests with a
# time limit that ran beside it ran out of it.
test:
	@mkdir -p "$(BUILD_DIR)"; : > "$(PHASES)"
	@$(call timed,packages,$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) $(TEST_PACKAGES)" && \
		$(MAKE) --no-print-directory amqtt)
	@$(call timed,build,$(SWIFTPM) build $(SCRATCH) --build-tests)
	@$(call timed,encode,echo "make: preparing the origin's channels (a machine that never encoded them does so now: minutes)"; \
		"$$($(SWIFTPM) build $(SCRATCH) --show-bin-path)/zapper-origin" --encode-only --channels channels/channels.json)
	@# The failures are printed again at the end, where a CI log's tail shows them.
	@set -o pipefail; $(call timed,suite,{ \
		export ZAPPER_AMQTT="$(AMQTT)/bin/amqtt"; $(SWIFTPM) test $(SCRATCH) --skip-build --disable-xctest \
			--experimental-maximum-parallelization-width $(TEST_WIDTH); \
	} 2>&1 | tee "$(BUILD_DIR)/test.log") || { \
		echo "make: these tests failed (the whole log: $(BUILD_DIR)/test.log):"; \
		grep -E "✘.*(recorded an issue|failed after)|↳" "$(BUILD_DIR)/test.log" | cut -c1-600; exit 1; }
	@$(call timed,fuzz,$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS))
	@$(call timed,image,$(MAKE) --no-print-directory test-image)
	@echo "make: test passed; its phases took: $$(paste -sd, "$(PHASES)" | sed 's/,/, /g')"

# A broker that speaks MQTT 3.1.1 only, for the test of zapper's fallback from v5 (Debian ships
# none, and Mosquitto 2 always speaks v5): amqtt from PyPI, in a virtual environment of its own.
AMQTT := $(HOME)/.cache/zapper/amqtt-0.12.1
amqtt:
	@[ -x "$(AMQTT)/bin/amqtt" ] || { echo "make: installing amqtt 0.12.1 (PyPI) into $(AMQTT)"; \
		python3 -m venv "$(AMQTT)" && "$(AMQTT)/bin/pip" install -q amqtt==0.12.1; }

check: deps
	@$(SWIFTPM) build $(SCRATCH) --build-tests
	@start=$$SECONDS; $(SWIFTPM) test $(SCRATCH) --skip-build --disable-xctest --skip '$(subst $(space),,$(CHECK_SKIP))' \
		--experimental-maximum-parallelization-width $(TEST_WIDTH) && echo "make: check passed in $$((SECONDS - start)) s"

# libFuzzer on every parser of outside bytes (Sources/ZapperFuzzTargets): each target for
# FUZZ_SECONDS from Tests/FuzzTests/Seeds, …/Regressions and the corpus it grew before; a trap,
# a hang or a blow-up fails it and keeps the input (Tests/FuzzTests/run-fuzz). `make test` runs each for TEST_FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 10
FUZZ_TARGETS ?= m3u hls webvtt xmltv config state keymap logo mqtt captions
fuzz: deps
	export ZAPPER_FUZZ=1; $(SWIFTPM) build --scratch-path "$(BUILD_DIR)-fuzz" $(SWIFT_BUILD_FLAGS) --sanitize=fuzzer --product zapper-fuzz
	Tests/FuzzTests/run-fuzz "$(BUILD_DIR)-fuzz" $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The appliance in QEMU (image/test): builds the release zapper and zapper-origin (static Swift
# runtime, in ~/.cache/zapper/build-qemu), the test image (as root: mmdebstrap), boots it on
# bochs and virtio-gpu and checks the screen, the sound, keys, gamepad, IR and a crash restart.
test-image:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(IMAGE_PACKAGES)"
	@sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo --preserve-env=PATH,HOME"; \
	$$sudo image/test bochs virtio

# One run, one origin (on a free port), one channel: zapper, mpv and ffmpeg
# one after the other for a minute each (about four minutes); prints a table.
# Then the zap times (zapper and mpv; on loopback, then behind a 40 ms, 20 Mbit/s link: a network
# namespace as root, else the origin's own delay and bandwidth faults, said so), key-to-screen (flips while loads hang, the panel) and a
# 10,000-entry lineup beside the demo's 8.
bench: build-release
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BENCH_PACKAGES)"
	$(SWIFTPM) build -c release $(SCRATCH) --product zapper-bench
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" playback $(BENCH_ARGS)
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" deinterlace
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" zap $(ZAP_ARGS)
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" zap --network broadband $(ZAP_ARGS)
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" keys
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" lineup
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" inputs
	"$$($(SWIFTPM) build -c release $(SCRATCH) --show-bin-path)/zapper-bench" soak $(SOAK_ARGS)
