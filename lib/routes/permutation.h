/*
 * permutation.h - the permutations of traffic patterns: bit reversal,
 * transpose and a uniformly random one, over n end ports numbered 0 ..
 * n-1 (route_load.h: dqr_end_ports orders them by base LID).
 *
 * A permutation is an array pi of n entries, pi[i] the destination of
 * source i, as dqr_perm_load takes it.  Bit reversal and transpose are
 * defined on the b = log2(n) bits of i, so n must be a power of two; on a
 * generated hypercube:D (one CA per switch) end port i is the CA of the
 * switch labelled i, and they are the hypercube's classic patterns.  The
 * random one takes the caller's random numbers: lib keeps no generator,
 * and the caller decides what a seed reproduces.
 */
#ifndef DQR_PERMUTATION_H
#define DQR_PERMUTATION_H

#include <stdint.h>

/* log2(n) when n is a power of two (1, 2, 4, ...), else -1. */
int dqr_perm_log2(uint32_t n);

/*
 * pi[i] = i with its b = log2(n) bits in reverse order (bit j goes to
 * bit b-1-j).  0, or -1 when n is not a power of two (pi untouched).
 */
int dqr_perm_bit_reversal(uint32_t *pi, uint32_t n);

/*
 * With b = log2(n), L = floor(b/2) and H = ceil(b/2): i = hi 2^L + lo
 * (lo its low L bits, hi its high H bits) sends to pi[i] = lo 2^H + hi.
 * The two halves swap places: for even b the transpose of a 2^(b/2) x
 * 2^(b/2) matrix stored row by row; for odd b the low half is the
 * shorter one, and pi rotates the b bits right by L.  0, or -1 when n is
 * not a power of two (pi untouched).
 */
int dqr_perm_transpose(uint32_t *pi, uint32_t n);

/* A number in 0 .. m-1 (m >= 1), uniform: the caller's random stream. */
typedef uint32_t (*dqr_perm_below_fn)(void *arg, uint32_t m);

/*
 * A uniformly random permutation of 0 .. n-1 (Fisher-Yates from the
 * identity, drawing below(arg, i + 1) for i = n-1 down to 1): the same
 * stream gives the same permutation.
 */
void dqr_perm_random(uint32_t *pi, uint32_t n, dqr_perm_below_fn below,
		     void *arg);

#endif
