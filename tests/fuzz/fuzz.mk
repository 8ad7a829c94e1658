# Fuzz targets (docs/fuzzing.md), included by GNUmakefile.
#
# Two builds of the same targets:
#  - build-fuzz/fuzz/fuzz_<t>: clang, libFuzzer, ASan+UBSan. `make fuzz`
#    runs each for FUZZ_SECONDS. Needs `scripts/install-deps`.
#  - build-asan/fuzz/replay_<t>: gcc, ASan+UBSan, linked with replay.c. `make
#    check` replays the checked-in corpora once (no fuzzing, no clang).

FUZZ_TARGETS := jsonrpc http frame convert calc symbolic validator jail units analysis smt2
FUZZ_BUILD   := build-fuzz
FUZZ_SECONDS ?= 60

# Helpers each target links besides fz_json.c and fz_util.c.
FZ_HELP_jsonrpc := fz_server
FZ_HELP_http    := fz_server
FZ_HELP_frame   := fz_server
# Link-time replacements (tests/fuzz/fz_server.c, fuzz_http.c).
FZ_WRAP_jsonrpc := -Wl,--wrap=cc_pool_submit
FZ_WRAP_frame   := -Wl,--wrap=cc_pool_submit
FZ_WRAP_http    := -Wl,--wrap=cc_pool_submit -Wl,--wrap=evhttp_send_reply \
                   -Wl,--wrap=evhttp_send_reply_start -Wl,--wrap=evhttp_send_reply_chunk \
                   -Wl,--wrap=evhttp_send_reply_end

fz_libs = $(addprefix $(1)/lib/,libcc_sup.a libcc_symbolic.a libcc_calc.a libcc_exec.a libcc_state.a \
          libcc_sandbox.a libcc_analysis.a libcc_treesitter.a libcc_common.a libcc_proto.a)
fz_objs = $(1)/obj/tests/fuzz/fuzz_$(2).o $(1)/obj/tests/fuzz/fz_json.o $(1)/obj/tests/fuzz/fz_util.o \
          $(patsubst %,$(1)/obj/tests/fuzz/%.o,$(FZ_HELP_$(2)))

# Flags and compilers belong to the build directory (as for build-asan):
# whatever asks for an object under build-fuzz/ gets clang with libFuzzer's
# coverage and the sanitizers. clang finds warnings gcc does not; the gcc
# builds keep -Werror for those.
FUZZ_SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                 -fno-sanitize-recover=undefined
$(FUZZ_BUILD)/%: CC := clang
$(FUZZ_BUILD)/%: CXX := clang++
$(FUZZ_BUILD)/%: EXTRA_CFLAGS := $(EXTRA_CFLAGS) -Wno-error
$(eval $(call component_rules,$(FUZZ_BUILD),$(FUZZ_SANFLAGS),-O1 -g))

# $(1) = target name. --as-needed: giac is loaded only by what uses it (its
# static constructors allocate for good, which LeakSanitizer would report).
define fuzz_target_rules
$(FUZZ_BUILD)/fuzz/fuzz_$(1): $(call fz_objs,$(FUZZ_BUILD),$(1)) $(call fz_libs,$(FUZZ_BUILD))
	@mkdir -p $$(@D)
	$$(CXX) $(FUZZ_SANFLAGS) -fsanitize=fuzzer -o $$@ $$^ -Wl,--as-needed $$(UNIT_LIBS) $(FZ_WRAP_$(1))
$(SAN_BUILD)/fuzz/replay_$(1): $(call fz_objs,$(SAN_BUILD),$(1)) $(SAN_BUILD)/obj/tests/fuzz/replay.o $(call fz_libs,$(SAN_BUILD))
	@mkdir -p $$(@D)
	$$(CXX) $(SANFLAGS) -o $$@ $$^ -Wl,--as-needed $$(UNIT_LIBS) $(FZ_WRAP_$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_target_rules,$(t))))

FUZZ_BINS   := $(addprefix $(FUZZ_BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
REPLAY_BINS := $(addprefix $(SAN_BUILD)/fuzz/replay_,$(FUZZ_TARGETS))

fuzz-bins: $(FUZZ_BINS)

# make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="calc units"]
fuzz:
	scripts/install-deps
	$(MAKE) -j$(JOBS) fuzz-bins
	scripts/fuzz run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: asan-bins
	@$(ASAN_ENV) scripts/fuzz replay $(SAN_BUILD) $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-bins fuzz-replay
