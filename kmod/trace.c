// SPDX-License-Identifier: GPL-2.0
/* fattree: the tracepoints' definitions (trace.h). */
#define CREATE_TRACE_POINTS
#include "trace.h"
