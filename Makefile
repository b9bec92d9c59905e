# SPDX-License-Identifier: GPL-2.0
# fattree: `make` builds the module and the programs, `make check` runs every
# test (in a VM for the kernel side), `make demo` runs the main job in a VM.
# Both install their own dependencies (scripts/install-deps).

BUILD	:= $(CURDIR)/build
KDIR	?= $(shell scripts/find-kdir)
KVER	 = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
KSFT	:= $(BUILD)/kselftest/tools/testing/selftests

CC	?= gcc
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O2 -g -Iuapi -Itools/lib \
	       -D_GNU_SOURCE -DFTCTL_VERSION='"0.1.0"'
NL_CFLAGS    = $(shell pkg-config --cflags libnl-genl-3.0)
NL_LIBS      = $(shell pkg-config --libs libnl-genl-3.0)
JSON_CFLAGS  = $(shell pkg-config --cflags json-c)
JSON_LIBS    = $(shell pkg-config --libs json-c)

FTNL_SRCS  := tools/lib/ftnl.c
FTCTL_SRCS := $(wildcard tools/ftctl/*.c) $(FTNL_SRCS)
# The engine core, compiled for userspace exactly as for the kernel.
CORE_SRCS  := $(wildcard kmod/core/*.c)
SCHED_SRCS := $(wildcard daemon/sched/*.c)
FTSIM_SRCS := $(wildcard tools/ftsim/*.c) $(CORE_SRCS) $(SCHED_SRCS)
FATTREED_SRCS := $(wildcard daemon/*.c) $(SCHED_SRCS) $(CORE_SRCS) $(FTNL_SRCS)

.PHONY: all module tools selftests deps check demo bench clean help

all: module tools selftests

help:
	@echo "make          build kmod/fattree.ko (KDIR=$(KDIR)) and the programs"
	@echo "make check    install what is missing, build, run every test"
	@echo "make demo     install what is missing, build, run the main job in a VM"
	@echo "make bench    data-path figures from one VM boot"
	@echo "make clean    remove build products"

deps:
	@scripts/install-deps

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

tools: $(BUILD)/bin/ftctl $(BUILD)/bin/ftsim $(BUILD)/bin/udp_pair $(BUILD)/bin/fattreed

$(BUILD)/obj/%.o: %.c $(wildcard tools/lib/*.h tools/ftctl/*.h uapi/linux/*.h kmod/core/*.h \
			    daemon/*.h daemon/sched/*.h tools/ftsim/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -Ikmod/core -Idaemon $(NL_CFLAGS) $(JSON_CFLAGS) -c $< -o $@

$(BUILD)/bin/fattreed: $(patsubst %.c,$(BUILD)/obj/%.o,$(FATTREED_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $^ $(NL_LIBS) $(JSON_LIBS) -o $@

$(BUILD)/bin/ftsim: $(patsubst %.c,$(BUILD)/obj/%.o,$(FTSIM_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@

$(BUILD)/bin/udp_pair: $(BUILD)/obj/tools/bench/udp_pair.o
	@mkdir -p $(dir $@)
	$(CC) $^ -o $@

$(BUILD)/bin/ftctl: $(patsubst %.c,$(BUILD)/obj/%.o,$(FTCTL_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $^ $(NL_LIBS) $(JSON_LIBS) -o $@

# The kselftest framework comes from Debian's linux-source package at build
# time; it is never copied into the repository.
$(KSFT)/lib.mk:
	scripts/fetch-kselftest $(BUILD)/kselftest

selftests: $(KSFT)/lib.mk module tools
	$(MAKE) -C selftests/fattree KSFT_DIR=$(KSFT) OUTPUT=$(BUILD)/selftests/fattree \
		FTNL_SRCS="$(addprefix $(CURDIR)/,$(FTNL_SRCS))"
	scripts/install-selftests $(KSFT) $(BUILD)/selftests $(BUILD)/ksft

check:
	@scripts/install-deps
	@$(MAKE) --no-print-directory all
	@scripts/check

demo:
	@scripts/install-deps
	@$(MAKE) --no-print-directory all
	@tools/vm/ft-vm --kver $(KVER) --out $(BUILD)/vm/demo --timeout 600 -- scripts/demo-guest

# Data-path figures from one VM boot (printed, never pass/fail).
bench:
	@scripts/install-deps
	@$(MAKE) --no-print-directory all
	@tools/vm/ft-vm --kver $(KVER) --out $(BUILD)/vm/bench --timeout 1800 -- scripts/bench-guest

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C tests/unit clean
	rm -rf $(BUILD)
