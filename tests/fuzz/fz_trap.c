// SPDX-License-Identifier: GPL-2.0
/*
 * Linker wraps shared by the harnesses (see fz_trap.h). Nothing here is
 * armed outside fz_call(), so libFuzzer's own exit() is untouched.
 */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/common_interface_defs.h>

#include "fz_trap.h"

void __real_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status) __attribute__((noreturn));
int __wrap_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static jmp_buf *fz_exit_to;
static int fz_exit_status;

void __wrap_exit(int status)
{
	if (fz_exit_to) {
		fz_exit_status = status;
		longjmp(*fz_exit_to, 1);
	}
	__real_exit(status);
}

int fz_call(int (*fn)(int argc, char **argv), int argc, char **argv)
{
	static char *none[] = { "fz", NULL };
	jmp_buf env;
	int rc;

	/*
	 * optind = 0 makes glibc forget the previous argv; one call on an
	 * empty one drops the rest of its state. optind = 0 again lets a
	 * function that does not set optind start as in a new process.
	 */
	optind = 0;
	getopt(1, none, "");
	optind = 0;
	opterr = 1;
	if (setjmp(env)) {
		fz_exit_to = NULL;
		return FZ_EXITED | (fz_exit_status & 0xff);
	}
	fz_exit_to = &env;
	rc = fn(argc, argv);
	fz_exit_to = NULL;
	return rc;
}

static void fz_vfail(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0), noreturn));

static void fz_vfail(const char *fmt, va_list ap)
{
	char msg[1024] = "fuzz check failed: ";
	size_t n = strlen(msg);

	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	__sanitizer_report_error_summary(msg);
	abort();
}

void fz_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fz_vfail(fmt, ap);
}

/* ft_compat_user.h's ft_warn_on() prints "FILE:LINE: ft_warn_on(COND)". */
int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (strstr(fmt, "ft_warn_on("))
		fz_vfail(fmt, ap);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}
