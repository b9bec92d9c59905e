/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftsim: shared pieces of the subcommands (argument words, shapes and
 * profiles, statistics, a small JSON writer, progress on a terminal).
 */
#ifndef FTSIM_H
#define FTSIM_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "ft_topo.h"
#include "ft_profile.h"
#include "ftpattern.h"
#include "ftshape.h"
#include "ftnames.h"

struct ft_rand;

/* Exit codes: 0 done, 1 failed (a check, memory), 2 usage. */
#define FTSIM_EXIT_FAIL		1
#define FTSIM_EXIT_USAGE	2

int ftsim_replay(int argc, char **argv);
int ftsim_sched(int argc, char **argv);
int ftsim_cycles(int argc, char **argv);
int ftsim_saf(int argc, char **argv);
void ftsim_sched_usage(FILE *f);
void ftsim_cycles_usage(FILE *f);
void ftsim_saf_usage(FILE *f);

/*
 * A usage error of subcommand @cmd ("sched"): prints "ftsim CMD: ..."
 * and a pointer to the help on stderr; returns -1.
 */
int ftsim_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long() ended on '?' or ':' (optstring starting with ':', opterr
 * 0): name the bad word.  Returns -1.
 */
int ftsim_getopt_err(const char *cmd, int c, char **argv);

/*
 * ftsim's long options, every subcommand's, each spelled and numbered
 * once (util.c), so that a word takes its value the same way in every
 * subcommand that takes it; a subcommand lists the ones it takes. Values
 * are above any char, so that errors name them.
 */
enum ftsim_opt {
	/* the fabric */
	FTSIM_O_SHAPE = 256, FTSIM_O_LEVELS, FTSIM_O_DOWN, FTSIM_O_UP,
	FTSIM_O_SIZES, FTSIM_O_PROFILE, FTSIM_O_LANES, FTSIM_O_PATH,
	FTSIM_O_INJECTION, FTSIM_O_ARBITRATION,
	/* the work */
	FTSIM_O_PATTERN, FTSIM_O_SEEDS, FTSIM_O_SEED, FTSIM_O_TIMING,
	/* cycles */
	FTSIM_O_LAMBDA, FTSIM_O_MESSAGES, FTSIM_O_MAX_CYCLES, FTSIM_O_R,
	FTSIM_O_K1, FTSIM_O_K2, FTSIM_O_COUNT,
	/* cycles' scheduler (fattreed's round) */
	FTSIM_O_ALGORITHM, FTSIM_O_ROUND_PERIOD, FTSIM_O_ROUND_DELAY, FTSIM_O_LEASE,
	FTSIM_O_IDLE, FTSIM_O_THRESHOLD, FTSIM_O_COLLIDING, FTSIM_O_MAX_LANES,
	/* saf */
	FTSIM_O_Q, FTSIM_O_GHOSTS, FTSIM_O_DISCIPLINE, FTSIM_O_RANKS,
	FTSIM_O_PICKS, FTSIM_O_RANK_RANGE, FTSIM_O_LOAD, FTSIM_O_MAX_STEPS,
	FTSIM_O_CHECK,
	/* sched */
	FTSIM_O_TRIALS, FTSIM_O_ALGORITHMS, FTSIM_O_HOT_PERCENT,
	FTSIM_O_ORDER, FTSIM_O_RELEASE, FTSIM_O_RANDOM_FIT, FTSIM_O_NO_CHECK,
	FTSIM_O_FAIL_LINKS,
	/* replay */
	FTSIM_O_ROWS, FTSIM_O_STEPS, FTSIM_O_CIRCUITS,
	/* added by ftsim_getopt() */
	FTSIM_O_JSON, FTSIM_O_JOBS, FTSIM_O_HELP,
	FTSIM_O_END
};

/*
 * getopt_long()'s table of the options @take lists (ending with 0) into
 * @out, at most FTSIM_OPTS_MAX - 1 of them and a terminator.
 */
#define FTSIM_OPTS_MAX	48
void ftsim_options(const enum ftsim_opt *take, struct option *out);

/*
 * A subcommand's options: @cmd's @opts (ending with 0), "--help", and
 * "--json" and "--jobs N" when @json and @jobs point where they go (false
 * and 1 unless given); "--seed S", when @opts has it, goes into *@seed (1
 * unless given). Its first call prints @usage and exits 0 when "--help"
 * or "-h" stands before any "--" (help beats bad words); then, called in
 * a loop as getopt_long() (":h", optarg set), it returns the next of
 * @opts, 0 after the last, or -1 after printing a usage error: an unknown
 * option, one without its value, one given twice, a bad --jobs or --seed,
 * or a word left over after the options.
 */
struct ftsim_getopt {
	const char *cmd;
	const enum ftsim_opt *opts;
	void (*usage)(FILE *f);
	bool *json;
	unsigned int *jobs;
	u64 *seed;
	u64 seen;		/* bit c - 256: option c given */
	bool started;
	struct option all[FTSIM_OPTS_MAX];	/* @opts, then the common ones */
};

int ftsim_getopt(struct ftsim_getopt *g, int argc, char **argv);

/* "--opt VALUE" words: on error print it, naming @opt and @s; -1. */
int ftsim_parse_u32(const char *cmd, const char *opt, const char *s, u32 min,
		    u32 max, u32 *v);
/* Any base strtoull() reads (0x.. too), @min to @max ("expected MIN to MAX"). */
int ftsim_parse_u64(const char *cmd, const char *opt, const char *s, u64 min,
		    u64 max, u64 *v);
/* A decimal with at most 3 places ("2", "0.5", "1.25") in thousandths. */
int ftsim_parse_milli(const char *cmd, const char *opt, const char *s,
		      u64 min, u64 max, u64 *v);
/* One of @names[0..n-1]: its index in *@v, or -1 (printed). */
int ftsim_parse_name(const char *cmd, const char *opt, const char *s,
		     const char *const *names, u32 n, u32 *v);

/*
 * A comma-separated list of @names[0..n-1], none twice, into @out: item
 * k as @val[k] (k when @val is NULL), at most @max (<= FTSIM_NAMES_MAX)
 * of them, their count in *@nout.  0, or -1 (printed).
 */
#define FTSIM_NAMES_MAX	32
int ftsim_parse_names(const char *cmd, const char *opt, const char *s,
		      const char *const *names, int n, const int *val,
		      int *out, int max, u32 *nout);

/*
 * --pattern @s, a name or an old spelling of one (ftpattern.h), among the
 * subcommand's own patterns @have[0..@n-1]: its index in *@v. An old
 * spelling is taken with a warning on stderr; any other word is a usage
 * error (printed, -1) that names the patterns @cmd runs.
 */
int ftsim_parse_pattern(const char *cmd, const char *s, const enum ft_pattern *have,
			unsigned int n, int *v);

/*
 * Split a comma-separated list into at most @max items (in place in a
 * copy that the caller frees with free(*buf)).  Empty items and too
 * many items are usage errors.  Returns the count or -1.
 */
int ftsim_split(const char *cmd, const char *opt, const char *s, char **buf,
		char **item, int max);

/*
 * ftsim_split() @s into at most @max (<= FTSIM_LIST_MAX) items and hand
 * each to @item(@ctx, k, word) in order, stopping at the first that fails
 * (it prints why).  0 with the count in *@n, or -1.
 */
#define FTSIM_LIST_MAX	64
int ftsim_parse_list(const char *cmd, const char *opt, const char *s, int max,
		     int (*item)(void *ctx, int k, char *word), void *ctx,
		     u32 *n);

/*
 * A shape: binary:N, kary:L:K (seed 002's FT(L,K)) or xgft:H:m:w, read
 * by the tools' one shape parser (ftshape.h), within the engine core's
 * limits.
 */
struct ftsim_shape {
	u32 h;
	u32 m[FT_MAX_LEVELS];
	u32 w[FT_MAX_LEVELS];
	u32 n;
	bool w1;		/* every w_i = 1 */
	char kind[8];		/* "binary", "kary", "xgft" */
	char desc[96];		/* "binary 256", "FT(3,4)", "XGFT(2; 8,4; 1,2)" */
};

int ftsim_parse_shape(const char *cmd, const char *opt, const char *s,
		      struct ftsim_shape *sh);
/* The same, refusals naming @word (what the user typed) instead of @s. */
int ftsim_parse_shape_as(const char *cmd, const char *opt, const char *word,
			 const char *s, struct ftsim_shape *sh);
/* seed 002's FT(@l, @k): m = (k..k), w = (1, k..k). */
int ftsim_kary(const char *cmd, const char *opt, const char *word,
	       struct ftsim_shape *sh, u32 l, u32 k);

/*
 * The engine's policies by name, as ftctl names them: ft_path_choice
 * (circuit, dmodk, ...), ft_arbitration, ft_inject_rule.
 */

/* A capacity profile as named on the command line. */
struct ftsim_profile {
	struct ft_profile p;
	char name[16];		/* "doubling", "explicit", ... */
	char desc[96];		/* "doubling (leaf capacity 1)" */
};

/* NAME or NAME:PARAM; constant:B, doubling:B, ..., universal:R. */
int ftsim_parse_profile(const char *cmd, const char *opt, const char *s,
			struct ftsim_profile *pr);
/* Lanes c_1..c_h of @pr on @sh into a topology; usage error if not. */
int ftsim_topo(const char *cmd, const struct ftsim_shape *sh,
	       const struct ftsim_profile *pr, struct ft_topo *t);

/* Running statistics (Welford). */
struct ftsim_stat {
	u64 n;
	double mean;
	double m2;
	double min;
	double max;
};

void ftsim_stat_init(struct ftsim_stat *s);
void ftsim_stat_add(struct ftsim_stat *s, double x);
/* Sample standard deviation (n - 1), 0 for fewer than two values. */
double ftsim_stat_stddev(const struct ftsim_stat *s);
double ftsim_sqrt(double x);
double ftsim_median(double *v, u64 n);	/* sorts @v */
void ftsim_sort(double *v, u64 n);
/* Nearest-rank percentile @pct of @n sorted values; 0 when n is 0. */
double ftsim_percentile(const double *v, u64 n, u32 pct);

/*
 * The one-destination-per-leaf patterns of ftsim sched and cycles,
 * generated by ft_pattern_dsts() (ftpattern.h) on @sh's digits, shift
 * being i + n/2 and hot-spot's share @hot_pct %: dst[i] for every leaf i
 * of @sh. 0, or -1 when @sh lacks what @p needs (ft_pattern_fits() on
 * ftsim_pattern_shape()).
 */
void ftsim_pattern_shape(const struct ftsim_shape *sh, struct ft_pattern_shape *ps);
int ftsim_pattern_dsts(enum ft_pattern p, const struct ftsim_shape *sh, u32 hot_pct,
		       struct ft_rand *r, u32 *dst);

/* A set of messages, message i from leaf src[i] to leaf dst[i], i < @n. */
struct ftsim_msgs {
	u32 n;
	u32 cap;	/* room in @src and @dst */
	u32 *src;
	u32 *dst;
};

/* Room for @cap messages (those held kept); 0, or -1 out of memory. */
int ftsim_msgs_reserve(struct ftsim_msgs *m, u32 cap);
/* One more message, the room doubled when full; 0, or -1 out of memory. */
int ftsim_msgs_push(struct ftsim_msgs *m, u32 src, u32 dst);
void ftsim_msgs_free(struct ftsim_msgs *m);

/*
 * lambda of the messages of @m on @t, by the engine core's ft_lambda():
 * its result, or -1 when out of memory.
 */
struct ft_lambda;
int ftsim_lambda(const struct ft_topo *t, const struct ftsim_msgs *m, struct ft_lambda *lam);

/* Seeds: a value derived from @a and @b (splitmix64). */
u64 ftsim_derive(u64 a, u64 b);

/* Monotonic seconds. */
double ftsim_now(void);

/*
 * Progress on stderr, only when it is a terminal, and only from rank 0's
 * first thread (ftsim_progress_allowed()).
 */
void ftsim_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ftsim_progress_done(void);
bool ftsim_progress_allowed(void);

/* --- parallel runs: threads (par.c) and MPI ranks (mpi.c) --- */

#define FTSIM_MAX_JOBS	1024
#define FTSIM_MSG_MAX	1024	/* a failed unit's message, bytes */

/*
 * A command's work as units 0..@units-1, each independent of the others:
 * its randomness derived from --seed and the unit's index only, so that
 * any thread of any rank computes the same result for it.
 */
struct ftsim_work {
	const char *cmd;	/* "sched": names it in messages */
	u64 units;
	size_t size;		/* bytes of one unit's result (a multiple of 8) */
	unsigned int jobs;	/* threads of this process (--jobs) */
	void *ctx;		/* the command's, read-only while the work runs */
	/*
	 * Unit @u: its result into @res (zeroed); *@ws is the calling
	 * thread's own state (buffers kept from unit to unit), NULL at first.
	 * 0, or -1 after a message through ftsim_err().
	 */
	int (*run)(void *ctx, void **ws, u64 u, void *res);
	/* Frees a thread's *@ws at the end (may be NULL). */
	void (*worker_free)(void *ctx, void *ws);
};

/*
 * Run every unit: this process's share on w->jobs threads, rank r of an
 * MPI run of p ranks taking units r, r + p, r + 2p, ... Rank 0 ends with
 * every unit's result in @res (w->units x w->size bytes), in unit order;
 * the other ranks' @res is left alone. 0, or FTSIM_EXIT_FAIL on every
 * rank when a unit failed: no unit above it is started after that, and
 * the first failed unit's message (in unit order, among those that ran)
 * is printed on stderr, once, by rank 0.
 */
int ftsim_work_run(const struct ftsim_work *w, void *res);

/*
 * A failure's message: on stderr, or, from inside a unit, into that
 * unit's message, which ftsim_work_run() prints if it is the first.
 */
void ftsim_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The units of rank @r of @p, out of @n: r, r + p, ... (how many). */
u64 ftsim_shard_count(u64 n, u32 p, u32 r);

/* --jobs N: 1 to FTSIM_MAX_JOBS; a usage error (printed, -1) otherwise. */
int ftsim_parse_jobs(const char *cmd, const char *s, unsigned int *jobs);

/*
 * Started by an MPI launcher? What the environment says (@get: getenv):
 * the variable that says so (OMPI_COMM_WORLD_SIZE: Open MPI's mpirun;
 * PMIX_RANK: a PMIx launcher, srun --mpi=pmix; PMI_RANK with PMI_SIZE:
 * srun --mpi=pmi2, MPICH; SLURM_PROCID with SLURM_STEP_NUM_TASKS > 1:
 * srun without a PMI plugin), this process's rank and the processes
 * (-1 when unknown).
 */
struct ftsim_launch {
	const char *by;
	long rank;
	long size;
};

bool ftsim_launch_detect(char *(*get)(const char *), struct ftsim_launch *l);

/*
 * MPI (mpi.c): MPI_Init when an MPI launcher started this process (and
 * ftsim was built with MPI), else nothing; 0 or an exit status. Rank > 0
 * prints nothing on stdout.
 */
int ftsim_mpi_init(int *argc, char ***argv);
/* MPI_Finalize; @rc. */
int ftsim_mpi_end(int rc);
/*
 * Once per rank: at the start of the work, or on the way out of a run
 * that did not reach it (@failed: this rank fails). True when a rank
 * failed before the work: the work does not start.
 */
bool ftsim_mpi_agree(bool failed);
int ftsim_mpi_rank(void);	/* 0 without MPI */
int ftsim_mpi_size(void);	/* 1 without MPI */
void ftsim_mpi_abort(int rc) __attribute__((noreturn));
/* par.c's side of a run on several ranks (main thread only). */
void ftsim_mpi_stop_start(void);
void ftsim_mpi_stop_tell(u64 unit);
u64 ftsim_mpi_stop_heard(void);
u64 ftsim_mpi_stop_end(u64 mine, bool told, char *msg, size_t len);
void ftsim_mpi_gather(void *res, const void *local, u64 units, size_t size);

/*
 * A streaming JSON writer: objects and arrays nest, members are keyed
 * inside objects (key NULL inside arrays), commas and indentation are
 * the writer's business.
 */
#define FTSIM_JSON_DEPTH	16

struct ftsim_json {
	FILE *f;
	int depth;
	bool any[FTSIM_JSON_DEPTH];
};

/*
 * A command's report on @f is one object, its first member "command":
 * @cmd. ftsim_json_start() opens it; ftsim_json_finish() closes it, once
 * everything opened inside it is closed, and ends the line.
 */
void ftsim_json_start(struct ftsim_json *j, FILE *f, const char *cmd);
void ftsim_json_obj(struct ftsim_json *j, const char *key);
void ftsim_json_arr(struct ftsim_json *j, const char *key);
void ftsim_json_end(struct ftsim_json *j, char close);	/* '}' or ']' */
void ftsim_json_str(struct ftsim_json *j, const char *key, const char *v);
void ftsim_json_u64(struct ftsim_json *j, const char *key, u64 v);
/* A number with @prec decimals; NaN and infinities are written null. */
void ftsim_json_num(struct ftsim_json *j, const char *key, double v, int prec);
void ftsim_json_bool(struct ftsim_json *j, const char *key, bool v);
void ftsim_json_null(struct ftsim_json *j, const char *key);
void ftsim_json_u32s(struct ftsim_json *j, const char *key, const u32 *v,
		     u32 n);
void ftsim_json_finish(struct ftsim_json *j);

#endif /* FTSIM_H */
