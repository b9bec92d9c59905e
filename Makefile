# SPDX-License-Identifier: GPL-2.0
# fattree: `make` builds the module and the programs, `make check` runs every
# test (in a VM for the kernel side), `make demo` runs the main job in a VM.
# Both install their own dependencies (scripts/install-deps).

BUILD	:= $(CURDIR)/build
# The kernel to build for and boot in the VM: KERNEL=6.12 (a series: its
# newest installed release) or KERNEL=<release>; without it, Debian's
# default kernel. KDIR=/path/to/kernel/build overrides the build directory
# itself. Both reach every script this file runs. The kernel is found when
# a recipe needs it (scripts/find-kdir), never when this file is read:
# `make demo` installs the headers first, then looks for them.
KERNEL	?=
KDIR	?=
export KERNEL KDIR
FIND_KDIR := $(CURDIR)/scripts/find-kdir
# What the recipes run; tests/tools/make-recipes replaces them with stubs.
INSTALL_DEPS ?= scripts/install-deps
FTVM	?= tools/vm/ft-vm
BENCH_RUN ?= scripts/bench/run
CHECK	?= scripts/check

CC	?= gcc
# Every program's objects get USER_CFLAGS plus their own directory's
# flags (cflags-DIR, as kbuild's ccflags-y per directory): the include
# paths and libraries that directory's sources use, nothing more. -MMD -MP
# write each object's header dependencies beside it in build/obj/ (.d,
# included below), so an object is rebuilt when a header it reads changes,
# and only then. CPPFLAGS and CFLAGS (compiling) and LDFLAGS (linking), from
# the environment or make's command line, come after them: a distribution's
# hardening flags, as Debian's dpkg-buildflags gives them.
# The version, kept once: kmod/fattree.h's FATTREE_VERSION (a file of the
# tree, not something install-deps brings).
VERSION	:= $(shell sed -n 's/^\#define FATTREE_VERSION[[:space:]]*"\(.*\)"/\1/p' kmod/fattree.h)
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O2 -g -Iuapi -Ilib \
	       -D_GNU_SOURCE -DFT_VERSION='"$(VERSION)"' -MMD -MP
# The libraries' flags come from pkg-config when a recipe expands them,
# never when this file is read (recursive =, not :=): `make check` and
# `make demo` install the libraries (scripts/install-deps) after reading it.
NL_CFLAGS    = $(shell pkg-config --cflags libnl-genl-3.0)
NL_LIBS      = $(shell pkg-config --libs libnl-genl-3.0)
JSON_CFLAGS  = $(shell pkg-config --cflags json-c)
JSON_LIBS    = $(shell pkg-config --libs json-c)
ROUTE_CFLAGS = $(shell pkg-config --cflags libnl-route-3.0)
ROUTE_LIBS   = $(shell pkg-config --libs libnl-route-3.0)
URING_LIBS   = $(shell pkg-config --libs liburing)

# The engine core, compiled for userspace exactly as for the kernel.
cflags-kmod/core       :=
# The shared userspace libraries (lib/: the netlink client, numbers,
# shapes and names; lib/sched: the scheduling library), on which the
# daemon and the tools depend and which depend on nothing of theirs.
cflags-lib              = $(NL_CFLAGS)
cflags-lib/sched       :=
cflags-tools/ftctl      = $(NL_CFLAGS) $(JSON_CFLAGS)
cflags-daemon           = $(NL_CFLAGS) $(JSON_CFLAGS)
cflags-tools/ftsim     := -Ikmod/core -pthread
cflags-tools/fttraffic  = -Ikmod/core $(NL_CFLAGS) $(ROUTE_CFLAGS) $(JSON_CFLAGS)
cflags-tools/bench      = $(NL_CFLAGS) $(ROUTE_CFLAGS)

# The userspace library every tool shares: durations and numbers, the
# shape syntax, the pattern names, the spec's enum names (FTLIB_SRCS), and
# the netlink layer.
FTLIB_SRCS := lib/ftunits.c lib/ftshape.c lib/ftpattern.c lib/ftnames.c
FTNL_SRCS  := lib/ftnl.c lib/ftobj.c $(FTLIB_SRCS)
FTCTL_SRCS := $(wildcard tools/ftctl/*.c) $(FTNL_SRCS)
CORE_SRCS  := $(wildcard kmod/core/*.c)
SCHED_SRCS := $(wildcard lib/sched/*.c)
FTSIM_SRCS := $(wildcard tools/ftsim/*.c) $(CORE_SRCS) $(SCHED_SRCS) $(FTLIB_SRCS)
FATTREED_SRCS := $(wildcard daemon/*.c) $(SCHED_SRCS) $(CORE_SRCS) $(FTNL_SRCS)
FTTRAFFIC_SRCS := $(wildcard tools/fttraffic/*.c) $(CORE_SRCS) $(FTNL_SRCS)
USER_SRCS  := $(sort $(FTCTL_SRCS) $(FTSIM_SRCS) $(FATTREED_SRCS) $(FTTRAFFIC_SRCS) \
		     tools/bench/udp_pair.c tools/bench/rtnl_wait.c)
obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

.PHONY: all module tools selftests deps check check-host selftest check-debug demo bench clean help \
	man man-if-scdoc install \
	uninstall install-tools uninstall-tools install-python uninstall-python install-dkms uninstall-dkms \
	version fuzz ynl ynl-gen mpi

# Plain `make`: what a user of their own machine needs (kernel headers and
# the libraries). The selftests need the kselftest framework from Debian's
# linux-source; `make selftests` or `make check` builds them.
all: module tools man-if-scdoc mpi

help:
	@echo "make          build kmod/fattree.ko (against KDIR=, else scripts/find-kdir's"
	@echo "              choice), the programs, and the man pages when scdoc is there"
	@echo "make selftests  the kselftest programs (needs linux-source-6.1, or the"
	@echo "              kernel's own series' linux-source: 6.12 for KERNEL=6.12)"
	@echo "              KERNEL=6.12 (or a release) picks another installed kernel"
	@echo "make check    install what is missing, build, run every test"
	@echo "make check-host  the same for the tests that need no VM and no package"
	@echo "              build (scripts/check --host)"
	@echo "make selftest T=NAME  build, then run the one selftest program NAME"
	@echo "              (module_test, ftctl_test.sh or ftctl_test) in the VM"
	@echo "make check-debug  the selftests under a KASAN/lockdep/kmemleak kernel built"
	@echo "              from linux-source-6.1 (cached in build/debug-kernel/; the first"
	@echo "              build takes long)"
	@echo "make demo     install what is missing, build, run the main job in a VM"
	@echo "make bench    benchmarks and docs/results.md (QUICK=1: a smoke run)"
	@echo "make install  module (modules_install), depmod, programs, man pages, unit, spec,"
	@echo "              Python API"
	@echo "              (PREFIX=$(PREFIX), DESTDIR=, DEPMOD=, INSTALL_KVER=, SIGN_KEY=, SIGN_CERT=)"
	@echo "make uninstall  remove what make install installed (same variables)"
	@echo "make install-tools  all but the module (which DKMS builds); uninstall-tools"
	@echo "make install-python  the Python API alone, YNL library and spec inside"
	@echo "              (PYTHONDIR=$(PYTHONDIR); needs make ynl); uninstall-python"
	@echo "make install-dkms  the module's source under /usr/src for dkms(8)"
	@echo "make ynl      the kernel's YNL tool and netlink schema into build/ynl (make check does it)"
	@echo "make ynl-gen  regenerate uapi/linux/fattree.h, kmod/netlink_gen.[ch],"
	@echo "              lib/ftnames.[ch] and kmod/core/ft_cmds.[ch] from"
	@echo "              uapi/fattree.yaml with the kernel's ynl-gen-c"
	@echo "              (after changing the spec)"
	@echo "make clean    remove build products"

deps:
	@scripts/install-deps

# A module for another kernel than the running one (find-kdir's default
# when the running kernel has no headers) is said in one line.
module:
	@kdir=$$($(FIND_KDIR)) && \
	kver=$$(KDIR="$$kdir" $(FIND_KDIR) --release) && \
	{ [ "$$kver" = "$$(uname -r)" ] || \
	  echo "  NOTE    building for kernel $$kver, not the running $$(uname -r) (KERNEL= or KDIR= chooses)"; } && \
	echo "$(MAKE) -C $$kdir M=$(CURDIR) W=1 modules" && \
	$(MAKE) -C "$$kdir" M=$(CURDIR) W=1 modules

tools: $(BUILD)/bin/ftctl $(BUILD)/bin/ftsim $(BUILD)/bin/udp_pair $(BUILD)/bin/rtnl_wait \
	$(BUILD)/bin/fattreed $(BUILD)/bin/fttraffic

# cflags-DIR of the source's directory; no such variable is an error, so
# a new directory says what it needs.
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(if $(filter undefined,$(origin cflags-$(patsubst %/,%,$(dir $<)))),\
		$(error $<: no cflags-$(patsubst %/,%,$(dir $<)) in the Makefile))
	$(CC) $(USER_CFLAGS) $(cflags-$(patsubst %/,%,$(dir $<))) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

-include $(patsubst %.c,$(BUILD)/obj/%.d,$(USER_SRCS))

$(BUILD)/bin/fattreed: $(call obj,$(FATTREED_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(NL_LIBS) $(JSON_LIBS) -o $@

$(BUILD)/bin/fttraffic: $(call obj,$(FTTRAFFIC_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(URING_LIBS) $(ROUTE_LIBS) $(NL_LIBS) $(JSON_LIBS) -lm -o $@

# ftsim's MPI layer, tools/ftsim/mpi.c: FTSIM_MPI=auto (the default) builds
# it with Open MPI's mpicc and -DFTSIM_MPI when the recipe finds mpicc, so
# that the one ftsim runs alone, with --jobs threads, and as the ranks of
# mpirun or srun; without mpicc (or FTSIM_MPI=0) mpi.c is a one-process
# stub and ftsim links as every other program; FTSIM_MPI=1 wants mpicc.
# The choice is made when the recipe runs, never when this file is read
# (`make check` installs Open MPI after reading it), and kept in
# build/ftsim-mpi, rewritten only when it changes: ftsim is relinked when
# mpicc comes or goes.
FTSIM_MPI ?= auto
MPICC	?= mpicc
FTSIM_MPI_OBJ := $(BUILD)/obj-mpi/tools/ftsim/mpi.o

.PHONY: FORCE
FORCE:

$(BUILD)/ftsim-mpi: FORCE
	@mkdir -p $(dir $@); \
	case "$(FTSIM_MPI)" in \
	0|no|none) want=none ;; \
	1|yes) command -v $(MPICC) >/dev/null || { echo "make: FTSIM_MPI=1 but no $(MPICC)" \
		"(apt-get install libopenmpi-dev)" >&2; exit 1; }; want=mpi ;; \
	*) if command -v $(MPICC) >/dev/null; then want=mpi; else want=none; fi ;; \
	esac; \
	[ "$$(cat $@ 2>/dev/null)" = "$$want" ] || echo "$$want" > $@

# The stub's object is a prerequisite either way: it reads what the MPI
# one reads, so a change to either relinks ftsim, and the MPI one is
# compiled again then (one file), in the recipe that links.
$(BUILD)/bin/ftsim: $(call obj,$(FTSIM_SRCS)) $(BUILD)/ftsim-mpi
	@mkdir -p $(dir $@)
	@if [ "$$(cat $(BUILD)/ftsim-mpi)" = mpi ]; then \
		mkdir -p $(dir $(FTSIM_MPI_OBJ)) && \
		echo "  MPICC   $(FTSIM_MPI_OBJ) (tools/ftsim/mpi.c, -DFTSIM_MPI)" && \
		$(MPICC) $(USER_CFLAGS) $(cflags-tools/ftsim) -DFTSIM_MPI $(CPPFLAGS) $(CFLAGS) \
			-c tools/ftsim/mpi.c -o $(FTSIM_MPI_OBJ) && \
		objs="$(filter-out $(call obj,tools/ftsim/mpi.c) $(BUILD)/ftsim-mpi,$^) $(FTSIM_MPI_OBJ)" && \
		echo "$(MPICC) $(LDFLAGS) $$objs -pthread -o $@" && \
		$(MPICC) $(LDFLAGS) $$objs -pthread -o $@; \
	else \
		echo "  NOTE    ftsim without MPI ($(if $(filter 0 no none,$(FTSIM_MPI)),FTSIM_MPI=$(FTSIM_MPI),no $(MPICC): apt-get install libopenmpi-dev))"; \
		echo "$(CC) $(LDFLAGS) $(filter-out $(BUILD)/ftsim-mpi,$^) -pthread -o $@" && \
		$(CC) $(LDFLAGS) $(filter-out $(BUILD)/ftsim-mpi,$^) -pthread -o $@; \
	fi

$(BUILD)/bin/udp_pair: $(call obj,tools/bench/udp_pair.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

# The MPI jobs ftmpirun runs in tests and benchmarks (tools/mpi/): built
# with Open MPI's mpicc when the recipe finds it, skipped with a line
# otherwise.
mpi:
	@if command -v mpicc >/dev/null; then \
		$(MAKE) --no-print-directory $(BUILD)/bin/ftmpi_jobs; \
	else \
		echo "  SKIP    ftmpi_jobs (no mpicc: apt-get install libopenmpi-dev)"; \
	fi

$(BUILD)/bin/ftmpi_jobs: tools/mpi/ftmpi_jobs.c
	@mkdir -p $(dir $@)
	mpicc $(USER_CFLAGS) $(CPPFLAGS) $(CFLAGS) $< $(LDFLAGS) -o $@

$(BUILD)/bin/rtnl_wait: $(call obj,tools/bench/rtnl_wait.c)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(ROUTE_LIBS) $(NL_LIBS) -o $@

$(BUILD)/bin/ftctl: $(call obj,$(FTCTL_SRCS))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(NL_LIBS) $(JSON_LIBS) -o $@

# The kselftest framework comes from Debian's linux-source package of the
# kernel's series, at build time (scripts/fetch-kselftest --kernel: 6.12's
# for KERNEL=6.12, else 6.1's, also when that package is missing), into
# build/kselftest/SERIES/; it is never copied into the repository. The
# programs are built per series too (build/selftests/SERIES/): after a
# change of KERNEL= none is left built against the other harness.
selftests: module tools mpi
	@series=$$(scripts/fetch-kselftest --kernel $(BUILD)/kselftest) && \
	ksft=$(BUILD)/kselftest/$$series/tools/testing/selftests && \
	kdir=$$($(FIND_KDIR)) && \
	echo "  KSFT    $$ksft" && \
	echo "$(MAKE) -C $$kdir M=$(CURDIR)/selftests/fattree/kmod W=1 modules" && \
	$(MAKE) -C "$$kdir" M=$(CURDIR)/selftests/fattree/kmod W=1 modules && \
	$(MAKE) -C selftests/fattree KSFT_DIR=$$ksft OUTPUT=$(BUILD)/selftests/$$series/fattree \
		FTNL_SRCS="$(addprefix $(CURDIR)/,$(FTNL_SRCS))" && \
	scripts/install-selftests $$ksft $(BUILD)/selftests/$$series $(BUILD)/ksft

# The kernel's YNL tool and netlink schema, from Debian's linux-source-6.12
# (scripts/fetch-ynl: extracted once, kept while the tarball is the same):
# the YAML spec's host check and ynl_test.sh use them. Only `make check`
# asks for them; without them the selftest skips.
ynl:
	@scripts/fetch-ynl $(BUILD)/ynl

# The files generated from the YAML spec by the kernel's ynl-gen-c
# (scripts/ynl-gen: the uapi header, the kernel's policies and ops table,
# and the enums' names for userspace).
# They are committed, so a build needs neither linux-source-6.12 nor
# python; after a change of uapi/fattree.yaml, `make ynl-gen` writes them
# again, and tests/tools/ynl-generated (make check) fails while they are
# stale.
ynl-gen:
	@YNL_DIR=$(BUILD)/ynl scripts/ynl-gen

check:
	@$(INSTALL_DEPS) check
	@$(MAKE) --no-print-directory ynl
	@$(MAKE) --no-print-directory all selftests
	@$(CHECK)

# The steps of check that need no VM and no package build (scripts/check
# --host: style, unit tests, tools, spec, man pages, install, recipes,
# harness, a quick fuzz), with what they need installed and built.
check-host:
	@$(INSTALL_DEPS) host
	@$(MAKE) --no-print-directory ynl
	@$(MAKE) --no-print-directory all
	@$(CHECK) --host

# One selftest program in the VM, as make check runs it: T=NAME as
# build/ksft/kselftest-list.txt names it (fattree:NAME), the .sh of a
# script optional. Its console log and TAP go to build/vm/selftest-NAME/;
# the last line is "N passed, M failed", the status ft-vm's when the guest
# failed, else 1 for a failed case.
T	?=
KSFT_LIST = $(BUILD)/ksft/kselftest-list.txt
selftest:
	@[ -n "$(T)" ] || { echo "make selftest: which program? T=NAME, e.g." \
		"T=module_test or T=ftctl_test.sh (the names: $(KSFT_LIST) once built)" >&2; exit 2; }
	@$(INSTALL_DEPS) check
	@$(MAKE) --no-print-directory ynl
	@$(MAKE) --no-print-directory all selftests
	@t=; for n in "$(T)" "$(T).sh" "$(T:.sh=)"; do \
		grep -qxF "fattree:$$n" "$(KSFT_LIST)" 2>/dev/null && { t=$$n; break; }; \
	done; \
	[ -n "$$t" ] || { echo "make selftest: no selftest program '$(T)' in $(KSFT_LIST):" \
		$$(sed 's/^fattree://' "$(KSFT_LIST)" 2>/dev/null) >&2; exit 2; }; \
	kver=$$($(FIND_KDIR) --release) || exit $$?; \
	d=$(BUILD)/vm/selftest-$$t; mkdir -p "$$d"; \
	{ $(FTVM) --kver "$$kver" --out "$$d" --timeout 1800 \
		-- $(BUILD)/ksft/run_kselftest.sh -t fattree:$$t 2>&1; echo $$? > "$$d/rc"; } | \
		tee "$$d/selftest.tap"; \
	rc=$$(cat "$$d/rc"); scripts/tap-summary "$$d/selftest.tap" || { [ "$$rc" -ne 0 ] || rc=1; }; \
	exit "$$rc"

# The debug kernel lane (scripts/check-debug): not part of check, see
# docs/testing.md.
check-debug:
	@$(INSTALL_DEPS) --debug-kernel
	@$(MAKE) --no-print-directory all selftests
	@scripts/check-debug

# The guest kernel is the one the module was built for, found after
# install-deps has run. Under TCG the guest's vCPUs get a host thread
# each (FTVM_TCG_THREAD, see tools/vm/ft-vm): the demo switches no trace
# event, and on one thread its traffic ran at a sixth of the rate.
demo:
	@$(INSTALL_DEPS)
	@$(MAKE) --no-print-directory all
	@kver=$$($(FIND_KDIR) --release) && \
	FTVM_TCG_THREAD=$${FTVM_TCG_THREAD:-multi} \
	$(FTVM) --kver "$$kver" --out $(BUILD)/vm/demo --timeout 600 -- scripts/demo-guest

# The benchmarks and the reproduction report (scripts/bench/run): scheduler
# speed, schedule quality, cycles against lambda, the data path in one VM
# boot, MPI jobs under each path choice in another; docs/results.md with
# plots and raw JSON in docs/bench/. Figures, never pass/fail. QUICK=1:
# every benchmark at tiny sizes, into build/bench-quick/.
QUICK	?=
bench:
	@$(INSTALL_DEPS) bench
	@$(MAKE) --no-print-directory all
	@kver=$$($(FIND_KDIR) --release) && \
	$(BENCH_RUN) --kver "$$kver" $(if $(filter-out 0,$(QUICK)),--quick)

# Long libFuzzer runs of every harness (tests/fuzz/): FUZZ_TIME seconds each;
# what they find is kept in build/fuzz/ (`tests/fuzz/run --help`).
FUZZ_TIME ?= 600
fuzz:
	@$(INSTALL_DEPS)
	@tests/fuzz/run --time $(FUZZ_TIME)

clean:
	-kdir=$$($(FIND_KDIR) 2>/dev/null) && $(MAKE) -C "$$kdir" M=$(CURDIR) clean
	-kdir=$$($(FIND_KDIR) 2>/dev/null) && $(MAKE) -C "$$kdir" M=$(CURDIR)/selftests/fattree/kmod clean
	-$(MAKE) -C tests/unit clean
	rm -rf $(BUILD)

# --- Man pages, install, uninstall, DKMS -----------------------------------
# The man pages' sources are scdoc(5) files in docs/man/; @VERSION@ in their
# title line becomes the module's version. Their date is the last commit of
# each source, so a rebuild gives the same page.
# Repeated in dkms.conf and debian/changelog, which install-dkms and
# debian/rules (by `make version`) check against it.
version:
	@echo "$(VERSION)"

SCDOC	?= scdoc
MAN_SRCS  := $(wildcard docs/man/*.scd)
MAN_PAGES := $(patsubst docs/man/%.scd,$(BUILD)/man/%,$(MAN_SRCS))

man: $(MAN_PAGES)

# Plain make's man pages: built when scdoc is installed, else one line.
man-if-scdoc:
	@if command -v $(SCDOC) >/dev/null; then \
		$(MAKE) --no-print-directory man; \
	else \
		echo "  SKIP    man pages ($(SCDOC) not found: apt-get install scdoc)"; \
	fi

$(BUILD)/man/%: docs/man/%.scd kmod/fattree.h
	@command -v $(SCDOC) >/dev/null || \
		{ echo "make: $(SCDOC) not found (apt-get install scdoc)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@epoch=$$(git log -1 --format=%ct -- $< 2>/dev/null); \
	sed 's/@VERSION@/$(VERSION)/' $< | \
		SOURCE_DATE_EPOCH=$${epoch:-$$(stat -c %Y $<)} $(SCDOC) > $@.tmp
	@mv $@.tmp $@
	@echo "  SCDOC   $@"

# Where things go. PREFIX=/usr for a distribution package; DESTDIR stages
# the whole tree under another root (the module and depmod's files too).
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
SBINDIR	?= $(PREFIX)/sbin
MANDIR	?= $(PREFIX)/share/man
DATADIR	?= $(PREFIX)/share/fattree
INCLUDEDIR ?= $(PREFIX)/include
UNITDIR	?= $(PREFIX)/lib/systemd/system
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
# The Python API: the package fattree (its YNL library and spec inside it)
# and the module fattree_mininet. /usr/lib/python3/dist-packages is where
# Debian's python3 finds packages (python3-fattree puts them there); under
# another PREFIX, set PYTHONPATH to PYTHONDIR, or set PYTHONDIR to a
# directory of sys.path (Debian: /usr/local/lib/python3.X/dist-packages).
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
# INSTALL_PYTHON=0: install and install-tools leave the Python API out
# (the Debian package fattree-tools: it is python3-fattree's).
INSTALL_PYTHON ?= 1
# The kernel the module was built for (its vermagic), else KDIR's.
# (Computed once, when first needed.)
INSTALL_KVER ?= $(eval INSTALL_KVER := $(or $(shell modinfo -F vermagic kmod/fattree.ko \
	2>/dev/null | cut -d' ' -f1),$(shell $(FIND_KDIR) --release 2>/dev/null)))$(INSTALL_KVER)
MODDIR	 = /lib/modules/$(INSTALL_KVER)/extra
# The build directory of that kernel, whose modules_install installs the
# module and whose sign-file signs it. (Computed once, when first needed;
# KDIR and KERNEL are passed by hand: make 4.3's $(shell) does not see
# variables set on make's command line.)
INSTALL_KDIR ?= $(eval INSTALL_KDIR := $(shell KDIR='$(KDIR)' KERNEL='$(INSTALL_KVER)' \
	$(FIND_KDIR) 2>/dev/null))$(INSTALL_KDIR)
# DEPMOD= (empty) skips depmod, as a package build wants.
DEPMOD	?= depmod
# SIGN_KEY and SIGN_CERT (e.g. DKMS's /var/lib/dkms/mok.key and mok.pub, an
# enrolled Machine Owner Key) sign the installed module for Secure Boot.
SIGN_KEY  ?=
SIGN_CERT ?=
,	:= ,
SIGN_FILE ?= $(INSTALL_KDIR)/scripts/sign-file
SIGN_HASH ?= $(or $(shell sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' $(INSTALL_KDIR)/.config 2>/dev/null),sha256)

# Every installed file, one per line: source, destination, mode, and a tag:
# "-" plain, "module" the kernel module (installed by MODULES_INSTALL, not
# by the loop), "unit" the systemd unit (its
# ExecStart rewritten to SBINDIR), "fttraffic" only when fttraffic is built,
# "python" the Python API, "ynl" the kernel's YNL library it drives,
# vendored inside the package as fattree._ynl (install and install-tools
# skip it, with a note, when `make ynl` has not extracted it;
# install-python requires it). INSTALL_PYTHON=0 leaves out both.
# `make uninstall` removes exactly these destinations.
define INSTALL_FILES
kmod/fattree.ko $(MODDIR)/fattree.ko 0644 module
$(BUILD)/bin/fattreed $(SBINDIR)/fattreed 0755 -
$(BUILD)/bin/ftctl $(BINDIR)/ftctl 0755 -
$(BUILD)/bin/ftsim $(BINDIR)/ftsim 0755 -
$(BUILD)/bin/fttraffic $(BINDIR)/fttraffic 0755 fttraffic
$(BUILD)/man/fattreed.8 $(MANDIR)/man8/fattreed.8 0644 -
$(BUILD)/man/ftctl.8 $(MANDIR)/man8/ftctl.8 0644 -
$(BUILD)/man/ftsim.1 $(MANDIR)/man1/ftsim.1 0644 -
$(BUILD)/man/fttraffic.1 $(MANDIR)/man1/fttraffic.1 0644 fttraffic
$(BUILD)/man/fattree.4 $(MANDIR)/man4/fattree.4 0644 -
daemon/fattreed@.service $(UNITDIR)/fattreed@.service 0644 unit
daemon/fattree-fabric@.service $(UNITDIR)/fattree-fabric@.service 0644 unit
uapi/fattree.yaml $(DATADIR)/fattree.yaml 0644 -
daemon/examples/sc.fabric $(DATADIR)/examples/sc.fabric 0644 -
daemon/examples/sc.env $(DATADIR)/examples/sc.env 0644 -
daemon/examples/sc.conf $(DATADIR)/examples/sc.conf 0644 -
uapi/linux/fattree.h $(INCLUDEDIR)/linux/fattree.h 0644 -
uapi/linux/fattree_structs.h $(INCLUDEDIR)/linux/fattree_structs.h 0644 -
uapi/linux/if_fattree.h $(INCLUDEDIR)/linux/if_fattree.h 0644 -
python/fattree.py $(PYTHONDIR)/fattree/__init__.py 0644 python
uapi/fattree.yaml $(PYTHONDIR)/fattree/fattree.yaml 0644 python
python/fattree_mininet.py $(PYTHONDIR)/fattree_mininet.py 0644 python
$(BUILD)/ynl/tools/net/ynl/lib/__init__.py $(PYTHONDIR)/fattree/_ynl/__init__.py 0644 ynl
$(BUILD)/ynl/tools/net/ynl/lib/nlspec.py $(PYTHONDIR)/fattree/_ynl/nlspec.py 0644 ynl
$(BUILD)/ynl/tools/net/ynl/lib/ynl.py $(PYTHONDIR)/fattree/_ynl/ynl.py 0644 ynl
tools/completion/fattree $(COMPLETIONDIR)/ftctl 0644 -
tools/completion/fattree $(COMPLETIONDIR)/fttraffic 0644 fttraffic
tools/completion/fattree $(COMPLETIONDIR)/ftsim 0644 -
tools/completion/fattree $(COMPLETIONDIR)/fattreed 0644 -
endef
export INSTALL_FILES

# The module goes in through the kernel's own modules_install, run on kmod/
# (whose modules.order, written by kbuild, names fattree.ko there: it lands
# in extra/, not extra/kmod/), with DESTDIR as INSTALL_MOD_PATH. Three of
# its steps are turned off on its command line:
#  - signing with the kernel's own key (CONFIG_MODULE_SIG_ALL=, which
#    Debian's kernels set): a distribution's headers never hold that key,
#    so sign-file fails, and kbuild ignores that for external modules;
#    SIGN_KEY signs the installed module below instead;
#  - compression (CONFIG_MODULE_COMPRESS_*=; Debian's 6.12 compresses every
#    module with xz): the installed module stays the built one, which
#    sign-file can sign and uninstall finds;
#  - its depmod (DEPMOD=/bin/true): kbuild's depmod.sh wants the kernel's
#    System.map in the build directory, which Debian's headers do not
#    ship, so there it only warns (its warning and DEPMOD line are left
#    out); RUN_DEPMOD runs depmod, and honours DEPMOD= and DESTDIR.
define MODULES_INSTALL
out=$$($(MAKE) --no-print-directory -C "$(INSTALL_KDIR)" M=$(CURDIR)/kmod INSTALL_MOD_DIR=extra \
	INSTALL_MOD_PATH="$(DESTDIR)" CONFIG_MODULE_SIG_ALL= CONFIG_MODULE_COMPRESS_GZIP= \
	CONFIG_MODULE_COMPRESS_XZ= CONFIG_MODULE_COMPRESS_ZSTD= DEPMOD=/bin/true \
	modules_install 2>&1); rc=$$?; \
[ -z "$$out" ] || printf '%s\n' "$$out" | grep -v -e "missing 'System.map' file" -e '^  DEPMOD  '; \
[ $$rc -eq 0 ] && [ -f "$(DESTDIR)$(MODDIR)/fattree.ko" ] || \
	{ echo "make install: modules_install did not install $(DESTDIR)$(MODDIR)/fattree.ko" >&2; \
	  exit 1; }
endef

# depmod for the installed kernel: in DESTDIR when staging (where the
# kernel's own modules.order and modules.builtin are usually absent: those
# warnings are left out); a note, not a failure, when depmod is missing or
# DEPMOD is empty.
define RUN_DEPMOD
d=$$(PATH=$$PATH:/sbin:/usr/sbin command -v "$(DEPMOD)" 2>/dev/null); \
if [ -z "$(DEPMOD)" ]; then \
	echo "  DEPMOD  skipped (DEPMOD is empty): run depmod $(INSTALL_KVER) on the target"; \
elif [ -z "$$d" ]; then \
	echo "  DEPMOD  skipped: $(DEPMOD) not found; run depmod $(INSTALL_KVER) by hand" >&2; \
elif [ -n "$(DESTDIR)" ]; then \
	echo "  DEPMOD  -b $(DESTDIR) $(INSTALL_KVER)"; \
	out=$$("$$d" -b "$(DESTDIR)" "$(INSTALL_KVER)" 2>&1); rc=$$?; \
	[ -z "$$out" ] || printf '%s\n' "$$out" | grep -v 'could not open modules\.\(order\|builtin\)' >&2; \
	[ $$rc -eq 0 ]; \
else \
	echo "  DEPMOD  $(INSTALL_KVER)"; "$$d" "$(INSTALL_KVER)"; \
fi
endef

# In a loop over INSTALL_FILES, $(call PYTHON_ONLY,python) skips every row
# but the Python API's; $(call PYTHON_ONLY,) none.
PYTHON_ONLY = case "$(1):$$tag" in python:python|python:ynl) ;; python:*) continue;; esac;

# $(call INSTALL_TOOLS[,python]) installs every file of INSTALL_FILES but
# the module (and the Python API's when INSTALL_PYTHON=0); with "python",
# only the Python API's.
define INSTALL_TOOLS
set -e; printf '%s\n' "$$INSTALL_FILES" | while read -r src dst mode tag; do \
	[ "$$tag" = module ] && continue; \
	$(call PYTHON_ONLY,$(1)) \
	case "$(INSTALL_PYTHON):$$tag" in 0:python|0:ynl) continue;; esac; \
	if [ "$$tag" = fttraffic ] && [ ! -f "$(BUILD)/bin/fttraffic" ]; then \
		echo "  SKIP    $(DESTDIR)$$dst (fttraffic is not built)"; continue; \
	fi; \
	if [ "$$tag" = ynl ] && [ ! -f "$$src" ]; then \
		echo "  SKIP    $(DESTDIR)$$dst (no YNL library: make ynl first)"; continue; \
	fi; \
	echo "  INSTALL $(DESTDIR)$$dst"; \
	if [ "$$tag" = unit ]; then \
		install -d "$$(dirname "$(DESTDIR)$$dst")"; \
		sed -e 's|^ExecStart=[^ ]*/fattreed|ExecStart=$(SBINDIR)/fattreed|' \
		    -e 's|^\(Exec[A-Za-z]*=\)[^ ]*/ftctl |\1$(BINDIR)/ftctl |' "$$src" \
			> "$(DESTDIR)$$dst"; \
		chmod "$$mode" "$(DESTDIR)$$dst"; \
	else \
		install -D -m "$$mode" "$$src" "$(DESTDIR)$$dst"; \
	fi; \
done
endef

install: tools man
	@[ -n "$(INSTALL_KVER)" ] || \
		{ echo "make install: no kernel version (build the module, or set INSTALL_KVER)" >&2; \
		  exit 1; }
	@missing=; printf '%s\n' "$$INSTALL_FILES" | { \
	while read -r src dst mode tag; do \
		case "$$tag" in fttraffic|ynl) continue;; esac; \
		[ -f "$$src" ] || missing="$$missing $$src"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make install: not built:$$missing (run make first)" >&2; exit 1; \
	fi; }
	@[ -n "$(INSTALL_KDIR)" ] || { KDIR='$(KDIR)' KERNEL='$(INSTALL_KVER)' $(FIND_KDIR); \
		echo "make install: no build directory for kernel $(INSTALL_KVER)" >&2; exit 1; }
	@rel=$$(KDIR="$(INSTALL_KDIR)" $(FIND_KDIR) --release); [ "$$rel" = "$(INSTALL_KVER)" ] || \
		{ echo "make install: $(INSTALL_KDIR) is kernel $$rel, the module's is" \
		       "$(INSTALL_KVER) (set KDIR or INSTALL_KVER)" >&2; exit 1; }
	$(if $(SIGN_KEY)$(SIGN_CERT),@[ -f "$(SIGN_KEY)" ] && [ -f "$(SIGN_CERT)" ] || \
		{ echo "make install: SIGN_KEY and SIGN_CERT must both name files" >&2; exit 1; }; \
		[ -x "$(SIGN_FILE)" ] || \
		{ echo "make install: $(SIGN_FILE) not found (set SIGN_FILE)" >&2; exit 1; })
	@$(MODULES_INSTALL)
	$(if $(SIGN_KEY),@echo "  SIGN    $(DESTDIR)$(MODDIR)/fattree.ko ($(SIGN_HASH)$(,) $(SIGN_CERT))"; \
		"$(SIGN_FILE)" "$(SIGN_HASH)" "$(SIGN_KEY)" "$(SIGN_CERT)" "$(DESTDIR)$(MODDIR)/fattree.ko")
	@$(INSTALL_TOOLS)
	@$(RUN_DEPMOD)

# Everything but the module, which comes another way (DKMS: the Debian
# package fattree-tools beside fattree-dkms). No kernel is needed.
install-tools: tools man
	@$(INSTALL_TOOLS)

# The Python API alone (the Debian package python3-fattree): the package
# fattree, with the kernel's YNL library (make ynl) and the spec inside it,
# and fattree_mininet. Nothing to build.
install-python:
	@for f in __init__ nlspec ynl; do [ -f "$(BUILD)/ynl/tools/net/ynl/lib/$$f.py" ] || \
		{ echo "make install-python: no YNL library in $(BUILD)/ynl (make ynl first)" >&2; \
		  exit 1; }; done
	@$(call INSTALL_TOOLS,python)

uninstall-python:
	@$(call UNINSTALL_RM,,python)
	@$(call UNINSTALL_RMDIR,,python)

# Removes the files of INSTALL_FILES, runs depmod again (when staging and no
# module is left in DESTDIR's tree, removes depmod's files instead), then
# removes the directories left empty: only under DESTDIR, and DATADIR.
uninstall:
	@[ -n "$(INSTALL_KVER)" ] || \
		{ echo "make uninstall: no kernel version (set INSTALL_KVER)" >&2; exit 1; }
	@$(call UNINSTALL_RM)
	@mods="$(DESTDIR)/lib/modules/$(INSTALL_KVER)"; \
	if [ -n "$(DESTDIR)" ] && [ -d "$$mods" ] && \
	   [ -z "$$(find "$$mods" -name '*.ko*' -print -quit)" ]; then \
		echo "  RM      $$mods/modules.* (no module left)"; rm -f "$$mods"/modules.*; \
	elif [ -d "$$mods" ]; then \
		$(RUN_DEPMOD); \
	fi
	@$(call UNINSTALL_RMDIR)

# What install-tools installed, the same way; the module stays.
uninstall-tools:
	@$(call UNINSTALL_RM,module)
	@$(call UNINSTALL_RMDIR,module)

# $(call UNINSTALL_RM[,TAG[,python]]) removes the files of INSTALL_FILES but
# those tagged TAG (with "python", only the Python API's), and the byte
# code Python wrote beside them; $(call UNINSTALL_RMDIR[,TAG[,python]])
# then their directories left empty, only under DESTDIR, and DATADIR and
# the package's directories.
define UNINSTALL_RM
printf '%s\n' "$$INSTALL_FILES" | while read -r src dst mode tag; do \
	[ "$$tag" != "$(1)" ] || continue; \
	$(call PYTHON_ONLY,$(2)) \
	if [ -e "$(DESTDIR)$$dst" ] || [ -L "$(DESTDIR)$$dst" ]; then \
		echo "  RM      $(DESTDIR)$$dst"; rm -f "$(DESTDIR)$$dst"; \
	fi; \
	case "$$dst" in *.py) \
		c="$(DESTDIR)$${dst%/*}/__pycache__"; b=$${dst##*/}; \
		rm -f "$$c/$${b%.py}".*.pyc; rmdir "$$c" 2>/dev/null || true;; \
	esac; \
done
endef

define UNINSTALL_RMDIR
if [ -n "$(DESTDIR)" ]; then \
	printf '%s\n' "$$INSTALL_FILES" | while read -r src dst mode tag; do \
		$(call PYTHON_ONLY,$(2)) \
		[ "$$tag" = "$(1)" ] || echo "$$dst"; done | $(RM_EMPTY_DIRS); \
else \
	for d in "$(PYTHONDIR)/fattree/_ynl" "$(PYTHONDIR)/fattree" "$(DATADIR)"; do \
		rmdir "$$d" 2>/dev/null || true; done; \
fi
endef

# Reads installed paths (without DESTDIR) on stdin and removes their
# directories that are left empty, climbing no higher than DESTDIR.
define RM_EMPTY_DIRS
{ root=$$(cd "$(DESTDIR)" && pwd); \
  while read -r p; do \
	d=$$(dirname "$$root$$p"); \
	while [ "$$d" != "$$root" ] && [ "$${d#$$root/}" != "$$d" ] && \
	      rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
  done; }
endef

# The module's source for DKMS: /usr/src/fattree-VERSION, then `dkms add
# fattree/VERSION` and `dkms install fattree/VERSION` build and install it
# for the running kernel, and dkms rebuilds it for every new one (dkms.conf).
DKMS_SRC = /usr/src/fattree-$(VERSION)
install-dkms:
	@grep -q '^PACKAGE_VERSION="$(VERSION)"$$' dkms.conf || \
		{ echo "make install-dkms: dkms.conf's PACKAGE_VERSION is not $(VERSION)" >&2; exit 1; }
	@set -e; for f in dkms.conf Kbuild kmod/Kbuild \
			$(filter-out %.mod.c,$(wildcard kmod/*.[ch] kmod/core/*.[ch])) \
			uapi/linux/fattree.h uapi/linux/fattree_structs.h uapi/linux/if_fattree.h; do \
		install -D -m 0644 $$f "$(DESTDIR)$(DKMS_SRC)/$$f"; \
	done
	@echo "  INSTALL $(DESTDIR)$(DKMS_SRC)/ (then: dkms add fattree/$(VERSION);" \
		"dkms install fattree/$(VERSION))"

uninstall-dkms:
	rm -rf "$(DESTDIR)$(DKMS_SRC)"
	@[ -z "$(DESTDIR)" ] || echo "$(DKMS_SRC)" | $(RM_EMPTY_DIRS)
