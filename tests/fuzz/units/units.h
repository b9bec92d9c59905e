/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tools' files opened up for the argument harnesses.
 *
 * ftctl and ftsim parse one command line per process and keep what they
 * parsed in file-scope statics, their parsers static too. Each unit here
 * includes one of their .c files whole (nothing copied) and adds what a
 * harness that parses thousands of command lines in one process needs:
 * a reset of the parsed state, or a way to call the parser alone.
 * A tool that exported these itself (a reset per object, parse-only entry
 * points) would make the units unnecessary.
 */
#ifndef FZ_UNITS_H
#define FZ_UNITS_H

/* ftctl: main() renamed, and each object's parsed request forgotten. */
int ftctl_main(int argc, char **argv);
void fz_ftctl_fabric_reset(void);
void fz_ftctl_circuit_reset(void);
void fz_ftctl_demand_reset(void);
void fz_ftctl_leaf_reset(void);
void fz_ftctl_link_reset(void);
void fz_ftctl_switch_reset(void);
void fz_ftctl_monitor_reset(void);

/*
 * ftsim: a subcommand's argument parsing and the checks it makes before
 * running anything (argv[0] is the subcommand). 0 or -1 (refused).
 */
int fz_ftsim_cycles_args(int argc, char **argv);
int fz_ftsim_sched_args(int argc, char **argv);
int fz_ftsim_replay_args(int argc, char **argv);

#endif /* FZ_UNITS_H */
