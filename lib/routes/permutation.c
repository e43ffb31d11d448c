/*
 * permutation.c - the permutations of traffic patterns (permutation.h):
 * bit reversal and transpose by their bits, a random one by Fisher-Yates.
 */
#include "routes/permutation.h"

int dqr_perm_log2(uint32_t n)
{
	int b = 0;

	if (!n || (n & (n - 1)))
		return -1;
	while (n >>= 1)
		b++;
	return b;
}

int dqr_perm_bit_reversal(uint32_t *pi, uint32_t n)
{
	int b = dqr_perm_log2(n), j;
	uint32_t i, r;

	if (b < 0)
		return -1;
	for (i = 0; i < n; i++) {
		r = 0;
		for (j = 0; j < b; j++)
			if (i & (1u << j))
				r |= 1u << (b - 1 - j);
		pi[i] = r;
	}
	return 0;
}

int dqr_perm_transpose(uint32_t *pi, uint32_t n)
{
	int b = dqr_perm_log2(n), lo_bits, hi_bits;
	uint32_t i;

	if (b < 0)
		return -1;
	lo_bits = b / 2;
	hi_bits = b - lo_bits;
	for (i = 0; i < n; i++)
		pi[i] = ((i & ((1u << lo_bits) - 1)) << hi_bits) |
			(i >> lo_bits);
	return 0;
}

void dqr_perm_random(uint32_t *pi, uint32_t n, dqr_perm_below_fn below,
		     void *arg)
{
	uint32_t i, j, x;

	for (i = 0; i < n; i++)
		pi[i] = i;
	for (i = n; i-- > 1;) {
		j = below(arg, i + 1);
		x = pi[i];
		pi[i] = pi[j];
		pi[j] = x;
	}
}
