/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fabric's reserved lanes checked against its circuits, for the
 * selftests that link the engine's topology code (circuit_test,
 * genl_fuzz).
 */
#ifndef FT_RESERVE_H
#define FT_RESERVE_H

struct ftnl;
struct ft_topo;

/*
 * Every directed link of fabric @name (of shape @t) must have as its
 * reserved lanes the lanes of the circuits whose path crosses it, and
 * never more than its lanes. Returns the links and circuits that
 * disagree, or a negative errno when the fabric cannot be read.
 */
int ft_check_reservations(struct ftnl *nl, const char *name, const struct ft_topo *t);

#endif /* FT_RESERVE_H */
