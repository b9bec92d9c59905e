// SPDX-License-Identifier: GPL-2.0
/*
 * Capacity profiles in exact integer arithmetic.
 */
#include "ft_profile.h"
#include "ft_math.h"

/* ceil(b * S^(2/3)) and friends need b^3 * S^2 to fit in 64 bits. */
static int ft_profile_pow_cap(u64 b, u64 s, bool cube, u64 *cap)
{
	u64 x, y;

	if (!cube) {
		/* smallest q with q^2 >= b^2 * S */
		if (ft_mul_ovf_u64(b, b, &x) || ft_mul_ovf_u64(x, s, &y))
			return -FT_ERANGE;
		*cap = ft_isqrt_ceil(y);
		return 0;
	}
	/* smallest q with q^3 >= b^3 * S^2 */
	if (ft_mul_ovf_u64(b, b, &x) || ft_mul_ovf_u64(x, b, &x) ||
	    ft_mul_ovf_u64(s, s, &y) || ft_mul_ovf_u64(x, y, &y))
		return -FT_ERANGE;
	*cap = ft_icbrt_ceil(y);
	return 0;
}

static int ft_profile_universal(u64 root, u64 n, u64 s, u64 *cap)
{
	u64 r = ft_div64(n, s), w3, r2;

	/*
	 * ceil(w / 2^(2k/3)) with 2^k = n / S = r is the smallest q with
	 * q^3 * r^2 >= w^3, i.e. q^3 >= ceil(w^3 / r^2).
	 */
	if (!root || root > n)
		return -FT_EINVAL;
	w3 = root * root * root;	/* root <= 2^20 */
	r2 = r * r;
	*cap = ft_min_u64(s, ft_icbrt_ceil(ft_div_ceil64(w3, r2)));
	return 0;
}

/**
 * ft_profile_channel_cap() - channel capacity over a subtree of S leaves.
 * @p: profile (not constant or explicit, which are per link).
 * @n: leaves of the whole fabric.
 * @s: leaves under the channel, 1..n.
 * @cap: out, the capacity Leiserson's formula gives that channel.
 *
 * Return: 0, -FT_EINVAL for a bad profile, -FT_ERANGE on overflow.
 */
int ft_profile_channel_cap(const struct ft_profile *p, u32 n, u64 s,
			   u64 *cap)
{
	u64 b = p->base ? p->base : 1;

	if (!s || s > n)
		return -FT_EINVAL;
	switch (p->kind) {
	case FT_PROFILE_DOUBLING:
		*cap = b * s;
		return 0;
	case FT_PROFILE_STANDARD:
		*cap = b << (ft_ilog2_floor(s) / 2);
		return 0;
	case FT_PROFILE_AREA:
		return ft_profile_pow_cap(b, s, false, cap);
	case FT_PROFILE_VOLUME:
		return ft_profile_pow_cap(b, s, true, cap);
	case FT_PROFILE_UNIVERSAL:
		return ft_profile_universal(p->root, n, s, cap);
	default:
		return -FT_EINVAL;
	}
}

/**
 * ft_profile_lanes() - lanes per level for a shape and a profile.
 * @p: profile.
 * @h: switch levels, 1..FT_MAX_LEVELS.
 * @m: m_1..m_h.
 * @w: w_1..w_h.
 * @lanes: out, c_1..c_h, each 1..FT_MAX_LANES.
 *
 * Only the shape's products are used here; ft_topo_init() validates the
 * shape itself.
 *
 * Return: 0, -FT_EINVAL for a bad profile or shape, -FT_ERANGE when a
 * level would need more than FT_MAX_LANES lanes per link.
 */
int ft_profile_lanes(const struct ft_profile *p, u32 h, const u32 *m,
		     const u32 *w, u32 *lanes)
{
	u64 n = 1, s = 1, wp = 1, cap, c;
	u32 i;
	int err;

	if (h < 1 || h > FT_MAX_LEVELS)
		return -FT_EINVAL;
	for (i = 0; i < h; i++) {
		if (!m[i] || !w[i] || m[i] > FT_MAX_M || w[i] > FT_MAX_W)
			return -FT_EINVAL;
		n *= m[i];
		if (n > FT_MAX_LEAVES)
			return -FT_EINVAL;
	}
	for (i = 0; i < h; i++) {
		/* Channel level i feeds link level i + 1 (lanes[i]). */
		switch (p->kind) {
		case FT_PROFILE_CONSTANT:
			c = p->base;
			break;
		case FT_PROFILE_EXPLICIT:
			c = p->table[i];
			break;
		default:
			err = ft_profile_channel_cap(p, (u32)n, s, &cap);
			if (err)
				return err;
			/* W_i <= FT_MAX_DLINKS, w <= FT_MAX_W: fits */
			c = ft_div_ceil64(cap, wp * w[i]);
			break;
		}
		if (!c && p->kind != FT_PROFILE_CONSTANT &&
		    p->kind != FT_PROFILE_EXPLICIT)
			c = 1;
		if (!c)
			return -FT_EINVAL;
		if (c > FT_MAX_LANES)
			return -FT_ERANGE;
		lanes[i] = (u32)c;
		s *= m[i];
		wp *= w[i];
		if (wp > FT_MAX_DLINKS)
			return -FT_EINVAL;
	}
	return 0;
}
