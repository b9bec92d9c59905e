/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a harness stops or goes on (fz_trap.c, linked with
 * -Wl,--wrap=exit,--wrap=fprintf): a broken invariant is reported and
 * aborts; exit() inside fz_call() comes back to the harness; the engine
 * core's userspace ft_warn_on() aborts (a WARN in the kernel is a bug,
 * so it is a crash here).
 */
#ifndef FZ_TRAP_H
#define FZ_TRAP_H

/* fz_call()'s value when the function called exit(status). */
#define FZ_EXITED	0x100

/*
 * @fn(@argc, @argv) as a fresh process would run it: getopt's state
 * reset (glibc keeps its place in the previous argv), opterr 1.
 * Returns @fn's value, or FZ_EXITED | status after exit(status).
 */
int fz_call(int (*fn)(int argc, char **argv), int argc, char **argv);

/*
 * Report a broken invariant where libFuzzer reports crashes (its copy of
 * stderr: the runner closes the targets' own output) and abort.
 */
void fz_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

#define FZ_CHECK(cond, ...) do {	\
	if (!(cond))			\
		fz_fail(__VA_ARGS__);	\
} while (0)

#endif /* FZ_TRAP_H */
