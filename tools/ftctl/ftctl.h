/* SPDX-License-Identifier: GPL-2.0 */
/* ftctl: shared declarations of the subcommands. */
#ifndef FTCTL_H
#define FTCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ftnames.h"
#include "ftnl.h"

struct json_object;
struct ftctl_object;

/* Exit codes: what went wrong, for scripts. */
enum {
	FTCTL_EXIT_OK = 0,
	FTCTL_EXIT_FAIL = 1,	/* the kernel refused or the request failed */
	FTCTL_EXIT_USAGE = 2,	/* bad command line */
	FTCTL_EXIT_NOMOD = 3,	/* the fattree module is not loaded */
};

#define FTCTL_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A parse step that printed help: exit 0 without opening netlink. */
#define FTCTL_PARSE_HELP	(-1)

/*
 * Local bound on levels, only to size arrays; the kernel enforces its own
 * (smaller) limit and says so.
 */
#define FTCTL_MAX_LEVELS	64

struct ftctl {
	struct ftnl nl;
	bool json;
	void *req;		/* the parsed request, owned by the command */
};

/*
 * A top-level command ("info", "fabric", ...). parse() sees argv[0] = the
 * command's name and must validate the whole command line without
 * touching netlink: it returns 0 (then run() is called once netlink is
 * open), FTCTL_PARSE_HELP (help printed, exit 0) or FTCTL_EXIT_USAGE.
 * run() returns an exit code.
 */
struct ftctl_cmd {
	const char *name;
	const char *args;
	const char *help;
	int (*parse)(struct ftctl *ctl, int argc, char **argv);
	int (*run)(struct ftctl *ctl);
	/* An object with subcommands, parsed and run by them; else NULL. */
	const struct ftctl_object *obj;
};

/* A subcommand of an object ("fabric add", ...). */
struct ftctl_subcmd {
	const char *name;
	const char *usage;	/* one line: the syntax after "ftctl OBJ NAME" */
	const char *help;	/* one line: what it does */
	void (*long_help)(FILE *f);	/* details, or NULL */
	int (*parse)(struct ftctl *ctl, int argc, char **argv);
	int (*run)(struct ftctl *ctl);
};

/* Object dispatch: picks the subcommand, handles help. */
struct ftctl_object {
	const char *name;
	const char *help;
	const char *dflt;	/* subcommand when none is given */
	const struct ftctl_subcmd *subs;
	unsigned int n_subs;
};

/*
 * Object @name ("fabric", ...) with subcommand table @subs: defines the
 * object and its command ftctl_cmd_@name. @args and @help are its line in
 * "ftctl --help" and the command list, @obj_help the first line of
 * "ftctl @name help", and @dflt the subcommand run when none is given.
 */
#define FTCTL_OBJECT(name_, args_, help_, obj_help_, dflt_, subs_)	\
	static const struct ftctl_object name_##_obj = {		\
		.name = #name_,						\
		.help = obj_help_,					\
		.dflt = dflt_,						\
		.subs = subs_,						\
		.n_subs = FTCTL_ARRAY_SIZE(subs_),			\
	};								\
	const struct ftctl_cmd ftctl_cmd_##name_ = {			\
		.name = #name_,						\
		.args = args_,						\
		.help = help_,						\
		.obj = &name_##_obj,					\
	}

extern const struct ftctl_cmd ftctl_cmd_info;
extern const struct ftctl_cmd ftctl_cmd_fabric;
extern const struct ftctl_cmd ftctl_cmd_link;
extern const struct ftctl_cmd ftctl_cmd_leaf;
extern const struct ftctl_cmd ftctl_cmd_circuit;
extern const struct ftctl_cmd ftctl_cmd_demand;
extern const struct ftctl_cmd ftctl_cmd_switch;
extern const struct ftctl_cmd ftctl_cmd_monitor;

/* fabric show's output of @name (NULL: every fabric); @what names the errors. */
int ftctl_fabric_show(struct ftctl *ctl, const char *name, const char *what);
/*
 * Fabric counter @attr (FATTREE_A_STATS_*) as ftctl names it, in text and
 * JSON: the spec's name with '_' for '-' ("synth_queued"), into @buf.
 */
const char *ftctl_stat_name(unsigned int attr, char *buf, size_t len);
/*
 * FABRIC_GET of one fabric: its levels, leaves and cycle (any may be
 * NULL). Prints the refusal and returns an exit code.
 */
int ftctl_fabric_lookup(struct ftctl *ctl, const char *name, const char *what,
			uint32_t *levels, uint32_t *leaves, uint64_t *cycle);

int ftctl_object_parse(const struct ftctl_object *obj, struct ftctl *ctl,
		       int argc, char **argv);
int ftctl_object_run(struct ftctl *ctl);

/* --- parse.c: command-line parsing, all errors name the bad word --- */

/* Print "ftctl CMD: MESSAGE" and a pointer to help; FTCTL_EXIT_USAGE. */
int ftctl_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

bool ftctl_is_help(const char *word);
/* The index of @word among @names[0..@n-1], exactly (no prefix); -1 none. */
int ftctl_find(const char *word, const char *const *names, unsigned int n);
/* Exact match, else a unique prefix; -1 none, -2 ambiguous. */
int ftctl_match(const char *word, const char *const *names, unsigned int n);

int ftctl_parse_u32(const char *cmd, const char *what, const char *word,
		    uint32_t min, uint32_t max, uint32_t *out);
int ftctl_parse_u64(const char *cmd, const char *what, const char *word,
		    uint64_t min, uint64_t max, uint64_t *out);
/* The same, the message prefixed with @where (e.g. "rows:12: "). */
int ftctl_parse_u64_at(const char *cmd, const char *where, const char *what,
		       const char *word, uint64_t min, uint64_t max,
		       uint64_t *out);
/* "a,b,c": exactly @want values when @want, else 1..@max_n. */
int ftctl_parse_u32_list(const char *cmd, const char *what, const char *word,
			 uint32_t min, uint32_t max, uint32_t *out,
			 unsigned int want, unsigned int max_n, unsigned int *n);
/* The same, the message prefixed with @where. */
int ftctl_parse_u32_list_at(const char *cmd, const char *where,
			    const char *what, const char *word, uint32_t min,
			    uint32_t max, uint32_t *out, unsigned int want,
			    unsigned int max_n, unsigned int *n);
/* "1ms", "500us", "250000ns", "2s", "manual" or "0" (manual). */
int ftctl_parse_period(const char *cmd, const char *word, uint64_t *ns);
int ftctl_parse_enum(const char *cmd, const char *what, const char *word,
		     const char *const *names, unsigned int n, uint32_t *out);
/* A fabric name: 1..FATTREE_NAME_LEN-1 bytes. */
int ftctl_parse_name(const char *cmd, const char *word, char *out);
/* The fabric NAME of "OBJ CMD NAME ...", argv[1]; @alone: nothing after it. */
int ftctl_parse_fabric_arg(const char *cmd, int argc, char **argv, char *out,
			   bool alone);
/* The word after keyword argv[*i], or an error naming the keyword. */
const char *ftctl_arg_value(const char *cmd, int argc, char **argv, int *i,
			    const char *what);
/*
 * Keyword option @word, which may be given once: a usage error when
 * *@seen already, else *@seen set and 0.
 */
int ftctl_opt_once(const char *cmd, const char *word, bool *seen);
/* The same for keyword argv[*i] and its value: the value, or NULL (printed). */
const char *ftctl_opt_value(const char *cmd, int argc, char **argv, int *i,
			    bool *seen, const char *what);
/*
 * The same, its value a number from @min to @max (@what names it in the
 * error, as ftctl_parse_u32()): 0, or FTCTL_EXIT_USAGE (printed).
 */
int ftctl_opt_u32(const char *cmd, int argc, char **argv, int *i, bool *seen,
		  const char *needs, const char *what, uint32_t min, uint32_t max,
		  uint32_t *out);

/* The spec's enum names (ftn_*_names, FTN_*_NR) come from ftnames.h. */
extern const char *const ftctl_onoff_names[];	/* "off", "on": 0, 1 */
extern const unsigned int ftctl_n_onoff;
/* @n numbers, comma-separated, into @buf (cut at @len). Returns @buf. */
const char *ftctl_fmt_u32_list(const uint32_t *v, unsigned int n, char *buf, size_t len);
/* Name of an enum value, "unknown(N)" when out of range. */
const char *ftctl_enum_name(const char *const *names, unsigned int n,
			    uint32_t v);
/* "manual", "1ms", "500us", "1234ns". */
const char *ftctl_fmt_period(uint64_t ns, char *buf, size_t len);

/* --- req.c: requests that remember their attributes --- */

#define FTCTL_REQ_MAX_ATTRS	64

struct ftctl_attr_rec {
	uint32_t off;		/* from the start of the netlink header */
	uint32_t len;		/* whole attribute, header included */
	const char *aname;	/* FATTREE_A_... */
	char what[96];		/* what the user typed for it */
};

struct ftctl_req {
	struct nl_msg *msg;
	unsigned int n;
	struct ftctl_attr_rec rec[FTCTL_REQ_MAX_ATTRS];
	/*
	 * Optional: tell the user what byte @off of the request was (an entry
	 * inside a binary array, say); true when it printed something, else
	 * the records above are searched.
	 */
	bool (*explain)(const struct ftctl_req *r, const char *what, int off,
			void *arg);
	void *explain_arg;
};

/* A new request of @size bytes (0: default); false when out of memory. */
bool ftctl_req_init(struct ftctl *ctl, struct ftctl_req *r, uint8_t cmd,
		    int flags, size_t size);
/*
 * Put an attribute and remember where it went, its name (@aname) and what
 * the user typed for it (@fmt); use the FTCTL_PUT* macros.
 */
int ftctl_put(struct ftctl_req *r, int type, const char *aname,
	      const void *data, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
#define FTCTL_PUT(r, type, data, len, ...) \
	ftctl_put(r, type, #type, data, len, __VA_ARGS__)
#define FTCTL_PUT_U32(r, type, v, ...) ({ \
	uint32_t __ftv = (v); \
	ftctl_put(r, type, #type, &__ftv, sizeof(__ftv), __VA_ARGS__); })
#define FTCTL_PUT_U64(r, type, v, ...) ({ \
	uint64_t __ftv = (v); \
	ftctl_put(r, type, #type, &__ftv, sizeof(__ftv), __VA_ARGS__); })
#define FTCTL_PUT_STR(r, type, s, ...) ({ \
	const char *__fts = (s); \
	ftctl_put(r, type, #type, __fts, strlen(__fts) + 1, __VA_ARGS__); })
/*
 * Send command @cmd (@flags: NLM_F_DUMP for a dump) about fabric @name,
 * put in attribute @attr (none when @name is NULL), and collect the
 * replies as ftctl_req_run() does; returns an exit code.
 */
int ftctl_fabric_req(struct ftctl *ctl, uint8_t cmd, int flags, int attr,
		     const char *aname, const char *name, const char *what,
		     int (*reply)(struct nl_msg *msg, void *arg), void *arg);
#define FTCTL_FABRIC_REQ(ctl, cmd, flags, attr, name, what, reply, arg) \
	ftctl_fabric_req(ctl, cmd, flags, attr, #attr, name, what, reply, arg)
/* Bytes still free in the request. */
size_t ftctl_req_room(const struct ftctl_req *r);
/*
 * Send and collect replies. On failure print "ftctl WHAT: error: extack"
 * and the attribute the kernel pointed at; returns an exit code.
 */
int ftctl_req_run(struct ftctl *ctl, struct ftctl_req *r, const char *what,
		  int (*reply)(struct nl_msg *msg, void *arg), void *arg);
void ftctl_req_free(struct ftctl_req *r);
/*
 * Fail (@fail) or restore the links of fabric @name that @put names in a
 * LINK_SET request (false: the request is full), and print what changed:
 * link and switch fail|restore. Returns an exit code.
 */
int ftctl_link_set(struct ftctl *ctl, const char *name, const char *what, bool fail,
		   bool (*put)(struct ftctl_req *r));

/*
 * A column of an object's table (link show, leaf show): the attribute that
 * marks it present in the decoded struct's ->has, its JSON key, its table
 * heading, and where its u32 or u64 value lies in that struct.
 */
struct ftctl_col {
	int attr;
	const char *key, *head;
	size_t off;
	bool u64;
};

#define FTCTL_COL(set, a, key, head, type, f, wide) \
	{ FATTREE_A_##set##_##a, key, head, offsetof(type, f), wide }

/* The @n columns' values of @obj, as u64, and whether each is present. */
void ftctl_cols_read(const struct ftctl_col *c, size_t n, const void *obj, uint64_t has,
		     uint64_t *v, bool *present);
/* Columns @from to @to - 1 that are present, into JSON object @o by key. */
void ftctl_cols_json(struct json_object *o, const struct ftctl_col *c, size_t from,
		     size_t to, const uint64_t *v, const bool *present);
/* The @n columns as table cells: the number, or "-" when absent. */
void ftctl_cols_cells(size_t n, const uint64_t *v, const bool *present, char (*cell)[24]);

/*
 * A dump printed as its replies come: a table (its heading printed before
 * the first row: @started false) or, with --json, an array streamed one
 * object per line.
 */
struct ftctl_dump {
	struct ftctl *ctl;
	bool started;
};

/* JSON object @o as the dump's next element (the array opened first); @o put. */
void ftctl_dump_item(struct ftctl_dump *d, struct json_object *o);
/*
 * A dump of @cmd about fabric @name (in attribute @attr), each reply
 * passed to @reply with @d; with --json the array closed as
 * ftctl_json_dump_end() does. Returns an exit code.
 */
int ftctl_dump_run(struct ftctl_dump *d, uint8_t cmd, int attr, const char *aname,
		   const char *name, const char *what,
		   int (*reply)(struct nl_msg *msg, void *arg));
#define FTCTL_DUMP_RUN(d, cmd, attr, name, what, reply) \
	ftctl_dump_run(d, cmd, attr, #attr, name, what, reply)


/* Make the socket fit big dumps and big requests (best effort). */
void ftctl_tune_socket(struct ftctl *ctl);
/* Largest request the socket can send, at most @want bytes. */
size_t ftctl_max_request(struct ftctl *ctl, size_t want);

/* Print "ftctl: <what>: <strerror: extack>" and return FTCTL_EXIT_FAIL. */
int ftctl_fail(const struct ftctl *ctl, const char *what, int err);

/* JSON output helpers. */
void ftctl_json_print(struct json_object *o);
/* Streamed arrays: one element per line, valid JSON as a whole. */
void ftctl_json_array_begin(void);
void ftctl_json_array_item(struct json_object *o, bool *first);
void ftctl_json_array_end(void);
/*
 * The end of a dump streamed as an array (@started: its "[" printed): the
 * whole of an empty array when the dump succeeded without an item,
 * nothing after a failure before the first.
 */
void ftctl_json_dump_end(bool started, int rc);

#endif /* FTCTL_H */
