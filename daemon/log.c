// SPDX-License-Identifier: GPL-2.0
/* fattreed's log: stderr (with a level tag) or syslog, filtered by level. */
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "fattreed.h"

static int ftd_log_level = LOG_INFO;
static bool ftd_log_syslog;

void ftd_log_init(const struct ftd_config *c)
{
	ftd_log_level = c->log_level;
	ftd_log_syslog = c->syslog;
	if (c->syslog)
		openlog("fattreed", LOG_PID, LOG_DAEMON);
}

void ftd_log(int level, const char *fmt, ...)
{
	static const char *const tag[] = {
		[LOG_ERR] = "error", [LOG_WARNING] = "warning",
		[LOG_NOTICE] = "notice", [LOG_INFO] = "info", [LOG_DEBUG] = "debug",
	};
	va_list ap;

	if (level > ftd_log_level)
		return;
	va_start(ap, fmt);
	if (ftd_log_syslog) {
		vsyslog(level, fmt, ap);
	} else {
		fprintf(stderr, "fattreed: %s: ", level <= LOG_DEBUG && tag[level] ?
			tag[level] : "log");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}
