/* gemm.cl — the float32 matrix product C = alpha · op(A) · op(B) + beta · C
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: every matrix is row-major with its own leading dimension (elements
 * between rows). op(A) (m × k) is read through two strides, a_r between its
 * rows and a_k between its columns, so A and Aᵀ take the same path (Aᵀ of a
 * k × m matrix: a_r = 1, a_k = lda). a_off, b_off, c_off are element
 * offsets. Two shapes from this one source (LATENT_GPU, set by the runtime):
 *
 * CPU shape (gemm_tiles). B is k × n, already untransposed by the host
 * (gemm_transpose). One work-item owns a macro tile of mt × nt micro tiles,
 * each MR rows × 32 columns of C held in 2·MR float16 accumulators
 * (registers: a CPU device such as PoCL fills its SIMD lanes from one
 * work-item). The depth is walked in blocks of KC; inside a block each
 * KC × 32 strip of B is packed into the work-item's local memory (zero-
 * padded past n, so the inner loop never tests an edge) and the micro tiles
 * sweep down it, the strip staying in L1 while the MR-row strips of A come
 * from L2. Work-groups hold one work-item: the packed strip is private to
 * it. The host splits a deep product into several launches over slices of
 * the depth, each small enough to stay in the last-level cache; every
 * launch after the first passes beta = 1. Micro tiles that overhang the
 * edges of C read zeros past the edge (the packed strip, and a guarded load
 * of A's rows) and stop their stores at the edge, so any m, n, k works.
 * Built with LATENT_PAIRS or LATENT_QUADS, the same kernel multiplies 8-bit
 * integers packed two or four rows to an int (below); with LATENT_QUADS C
 * is int64.
 *
 * GPU shape (gemm_groups, gemm_sum): work-groups of RTSN × RTSM work-items
 * share TSM × TSN tiles of C through local memory; op(B) is read through
 * strides too (b_k, b_n), so Bᵀ needs no copy. Described below.
 *
 * Both: with upper != 0 only tiles that touch the upper triangle (i ≤ j)
 * are computed (their elements below it too): the Gram matrix AᵀA is
 * symmetric, and gemm_mirror copies the upper triangle down.
 *
 * Subnormals are flushed to zero (-cl-denorms-are-zero, as every
 * program): a product term below 1.2e-38 is below the rounding of any sum
 * of normal terms, and C is only ever read beside such sums.
 */

#ifndef LATENT_GPU

/* ---- The CPU shape ------------------------------------------------------ */

#ifndef MR
#define MR 6
#endif
#ifndef KC
#define KC 128
#endif

#define NR 32

/* With LATENT_PAIRS, gemm_tiles multiplies matrices of row pairs instead
 * of floats: element [p][j] of A or B holds rows 2p and 2p + 1 of an
 * integer matrix (|value| ≤ 255) as two int16, the even row in the low
 * half, and the depth k counts pairs. The products are exact integers
 * within a block of KC pairs (|sum| ≤ 2 · 255² · KC), the blocks are summed
 * in float. AVX-512BW's pmaddwd makes 32 products and adds them in pairs,
 * twice the work of a float16 FMA for the same issue slot: the Gram matrix
 * of 8-bit data (images) comes about 1.4 times as fast. Without it the
 * kernel is not built (the host then keeps to floats), unless
 * LATENT_PAIRS_GENERIC asks for the portable form, for tests and the
 * simulator.
 *
 * LATENT_PAIRS_VNNI (set by the host only for a CPU device on a processor
 * with AVX512-VNNI) does the same with vpdpwssd, which also adds into the
 * accumulator and broadcasts A's element from memory: one instruction
 * where pmaddwd needs three, and the Gram matrix comes twice as fast as
 * in floats. The compiler may target a processor older
 * than the one it runs on (LLVM 15 names AMD's Zen 4 skylake-avx512,
 * which lacks VNNI), so the instruction is written out. MADD_A multiplies
 * by an element of A read from memory, MADD by one in a register.
 *
 * With LATENT_QUADS, gemm_tiles multiplies matrices of row quads: element
 * [p][j] holds rows 4p … 4p + 3 of an integer matrix S (−128 ≤ s ≤ 127) as
 * four signed bytes, row 4p lowest. B's bytes are read as s + 128 (their
 * top bit flipped as the strip is packed), so C = Sᵀ (S + 128), the bias
 * for the host to take off with the column sums. AVX512-VNNI's vpdpbusd
 * multiplies 64 unsigned bytes by 64 signed ones and adds them in fours
 * into 16 ints: twice the products of vpdpwssd. C is int64: a block of KC
 * quads sums exactly in int (at most 4 · 128 · 255 · KC) and adds into C
 * exactly, so the Gram matrix of a whole image dataset comes without a
 * rounding. Only where the host sets LATENT_PAIRS_VNNI, or
 * LATENT_PAIRS_GENERIC for the portable form. */
#ifdef LATENT_QUADS
#if (defined(__AVX512BW__) && defined(LATENT_PAIRS_VNNI)) || defined(LATENT_PAIRS_GENERIC)
#define LATENT_TILES
#endif
typedef int elem;
typedef int16 elem16;
typedef long cval;
#if defined(__AVX512BW__) && defined(LATENT_PAIRS_VNNI) && !defined(LATENT_PAIRS_GENERIC)
static inline int16
madd_quads (const int16 a, const int16 b, int16 acc)
{
  __asm__ ("vpdpbusd %2, %1, %0" : "+v" (acc) : "v" (b), "v" (a));
  return acc;
}

static inline int16
madd_quads_broadcast (__global const int *a, const int16 b, int16 acc)
{
  __asm__ ("vpdpbusd %2%{1to16%}, %1, %0" : "+v" (acc) : "v" (b), "m" (*a));
  return acc;
}
#define MADD(a, b, acc) madd_quads ((a), (b), (acc))
#define MADD_A(a, b, acc) madd_quads_broadcast (&(a), (b), (acc))
#else
/* Byte t of a as signed, of b as unsigned (shifted as unsigned: a
 * negative int shifted left is undefined). */
#define SBYTE(v, t) (as_int16 (as_uint16 (v) << (24 - 8 * (t))) >> 24)
#define UBYTE(v, t) ((as_int16 (as_uint16 (v) >> (8 * (t)))) & 0xff)
#define MADD(a, b, acc) \
  ((acc) + SBYTE (a, 0) * UBYTE (b, 0) + SBYTE (a, 1) * UBYTE (b, 1) + \
           SBYTE (a, 2) * UBYTE (b, 2) + SBYTE (a, 3) * UBYTE (b, 3))
#endif
/* B's bytes as s + 128. */
#define PACK_B(v) ((v) ^ (int16) 0x80808080)
#elif defined(LATENT_PAIRS)
#if defined(__AVX512BW__) || defined(LATENT_PAIRS_GENERIC)
#define LATENT_TILES
#endif
typedef int elem;
typedef int16 elem16;
typedef float cval;
#if defined(__AVX512BW__) && defined(LATENT_PAIRS_VNNI) && !defined(LATENT_PAIRS_GENERIC)
static inline int16
madd_vnni (const int16 a, const int16 b, int16 acc)
{
  __asm__ ("vpdpwssd %2, %1, %0" : "+v" (acc) : "v" (b), "v" (a));
  return acc;
}

static inline int16
madd_vnni_broadcast (__global const int *a, const int16 b, int16 acc)
{
  __asm__ ("vpdpwssd %2%{1to16%}, %1, %0" : "+v" (acc) : "v" (b), "m" (*a));
  return acc;
}
#define MADD(a, b, acc) madd_vnni ((a), (b), (acc))
#define MADD_A(a, b, acc) madd_vnni_broadcast (&(a), (b), (acc))
#elif defined(__AVX512BW__) && !defined(LATENT_PAIRS_GENERIC)
typedef short latent_short32 __attribute__ ((ext_vector_type (32)));
#define MADD(a, b, acc) \
  ((acc) + __builtin_ia32_pmaddwd512 (__builtin_astype ((a), latent_short32), \
                                      __builtin_astype ((b), latent_short32)))
#else
/* The same sums from the sign-extended halves (shifted as unsigned: a
 * negative int shifted left is undefined). */
#define LOW_HALF(v) (as_int16 (as_uint16 (v) << 16) >> 16)
#define MADD(a, b, acc) \
  ((acc) + LOW_HALF (a) * LOW_HALF (b) + ((a) >> 16) * ((b) >> 16))
#endif
#else
#define LATENT_TILES
typedef float elem;
typedef float16 elem16;
typedef float cval;
#define MADD(a, b, acc) fma ((a), (b), (acc))
#endif
#ifndef PACK_B
#define PACK_B(v) (v)
#endif
#ifndef MADD_A
#define MADD_A(a, b, acc) MADD ((elem16) (a), (b), (acc))
#endif

#ifdef LATENT_TILES

/* 16 elements of row b from column j, zeros at and beyond column `end`. */
static inline elem16
load_guarded (__global const elem *b,
              const int j,
              const int end)
{
  if (j + 16 <= end)
    return vload16 (0, b + j);
  if (j >= end)
    return (elem16) 0;
  {
    elem v[16];
    for (int l = 0; l < 16; l++)
      v[l] = j + l < end ? b[j + l] : 0;
    return vload16 (0, v);
  }
}

static inline void
store_row (__global float *c,
           const float16 acc0,
           const float16 acc1,
           const uint cols,
           const float alpha,
           const float beta)
{
  if (cols == NR)
    {
      float16 c0 = alpha * acc0, c1 = alpha * acc1;
      /* beta = 0 must not read C: it may hold NaN. */
      if (beta != 0.0f)
        {
          c0 = fma ((float16) beta, vload16 (0, c), c0);
          c1 = fma ((float16) beta, vload16 (1, c), c1);
        }
      vstore16 (c0, 0, c);
      vstore16 (c1, 1, c);
      return;
    }
  {
    float v[NR];
    vstore16 (acc0, 0, v);
    vstore16 (acc1, 1, v);
    for (uint l = 0; l < cols; l++)
      c[l] = beta != 0.0f ? fma (beta, c[l], alpha * v[l]) : alpha * v[l];
  }
}

/* Row quads: C += or = (beta = 0) the block's exact sums. */
static inline void
store_row_quads (__global long *c,
                 const int16 acc0,
                 const int16 acc1,
                 const uint cols,
                 const float beta)
{
  long v[NR];

  vstore16 (convert_long16 (acc0), 0, v);
  vstore16 (convert_long16 (acc1), 1, v);
  for (uint l = 0; l < cols; l++)
    c[l] = beta != 0.0f ? c[l] + v[l] : v[l];
}

/* C[i0.., j0..] = alpha · op(A)[i0.., :kc] · B[:kc, j0..] + beta · C. A points
 * at op(A)[i0, 0], b at the packed strip of B (kc × NR, zeros past the edge),
 * c at C[i0, j0]. */
static inline void
micro_tile (__global const elem *LATENT_RESTRICT a,
            const ulong a_r,
            const ulong a_k,
            __local const elem *LATENT_RESTRICT b,
            __global cval *c,
            const ulong ldc,
            const uint rows,
            const uint cols,
            const uint kc,
            const float alpha,
            const float beta)
{
  elem16 acc0[MR], acc1[MR];

#pragma unroll
  for (int r = 0; r < MR; r++)
    acc0[r] = acc1[r] = 0;

  if (rows == MR)
    {
      for (uint p = 0; p < kc; p++)
        {
          const elem16 b0 = vload16 (0, b);
          const elem16 b1 = vload16 (1, b);

#pragma unroll
          for (int r = 0; r < MR; r++)
            {
              acc0[r] = MADD_A (a[r * a_r], b0, acc0[r]);
              acc1[r] = MADD_A (a[r * a_r], b1, acc1[r]);
            }
          a += a_k;
          b += NR;
        }
    }
  else
    {
      for (uint p = 0; p < kc; p++)
        {
          const elem16 b0 = vload16 (0, b);
          const elem16 b1 = vload16 (1, b);

#pragma unroll
          for (int r = 0; r < MR; r++)
            {
              const elem16 ar = (elem16) ((uint) r < rows ? a[r * a_r] : 0);
              acc0[r] = MADD (ar, b0, acc0[r]);
              acc1[r] = MADD (ar, b1, acc1[r]);
            }
          a += a_k;
          b += NR;
        }
    }

#pragma unroll
  for (int r = 0; r < MR; r++)
    if ((uint) r < rows)
#ifdef LATENT_QUADS
      store_row_quads (c + r * ldc, acc0[r], acc1[r], cols, beta);
#else
      store_row (c + r * ldc, convert_float16 (acc0[r]), convert_float16 (acc1[r]), cols, alpha, beta);
#endif
}

/* strip (kc × NR) = B[:kc, j0 : j0 + cols], zeros past column cols. */
static inline void
pack_strip (__global const elem *LATENT_RESTRICT b,
            const ulong ldb,
            const uint cols,
            const uint kc,
            __local elem *LATENT_RESTRICT strip)
{
  if (cols == NR)
    for (uint p = 0; p < kc; p++, b += ldb, strip += NR)
      {
        vstore16 (PACK_B (vload16 (0, b)), 0, strip);
        vstore16 (PACK_B (vload16 (1, b)), 1, strip);
      }
  else
    for (uint p = 0; p < kc; p++, b += ldb, strip += NR)
      {
        vstore16 (PACK_B (load_guarded (b, 0, cols)), 0, strip);
        vstore16 (PACK_B (load_guarded (b, 16, cols)), 1, strip);
      }
}

/* One work-item per macro tile of mt × nt micro tiles, in work-groups of
 * one (the strip of B is the work-item's own); tiles_n macro tiles across
 * C. k may be 0: C is then only scaled by beta. */
__kernel void
gemm_tiles (const uint m,
            const uint n,
            const uint k,
            const float alpha,
            const float beta,
            __global const elem *LATENT_RESTRICT a,
            const ulong a_off,
            const ulong a_r,
            const ulong a_k,
            __global const elem *LATENT_RESTRICT b,
            const ulong b_off,
            const ulong ldb,
            __global cval *c,
            const ulong c_off,
            const ulong ldc,
            const uint mt,
            const uint nt,
            const uint tiles_n,
            const uint upper)
{
  /* Tiles are taken from both ends alternately: with upper, the work per
   * tile falls along the order, and a driver that hands each thread one
   * contiguous range of groups would otherwise give one thread most of it. */
  const uint id = get_global_id (0), last = get_global_size (0) - 1;
  const uint g = id % 2 == 0 ? id / 2 : last - id / 2;
  const uint i_base = g / tiles_n * (MR * mt);
  const uint j_base = g % tiles_n * (NR * nt);
  /* The strip of B the micro tiles of a column share, packed: rows of B
   * lie ldb apart, and a power-of-two stride would map them all to the
   * same few cache sets. */
  __local elem strip[KC * NR];
  uint kb = 0;

  if (i_base >= m || j_base >= n)
    return;

  /* do … while: k = 0 still makes one pass that applies beta. */
  do
    {
      const uint kc = min ((uint) KC, k - kb);
      const float beta_block = kb == 0 ? beta : 1.0f;

      for (uint jt = 0; jt < nt; jt++)
        {
          const uint j0 = j_base + jt * NR;
          uint cols;

          if (j0 >= n)
            break;
          cols = min ((uint) NR, n - j0);
          /* Nothing of this column is on or above the diagonal. */
          if (upper && i_base > j0 + cols - 1)
            continue;
          pack_strip (b + b_off + kb * ldb + j0, ldb, cols, kc, strip);
          for (uint it = 0; it < mt; it++)
            {
              const uint i0 = i_base + it * MR;

              /* Below the diagonal, and so is every later micro tile. */
              if (i0 >= m || (upper && i0 > j0 + cols - 1))
                break;
              micro_tile (a + a_off + i0 * a_r + kb * a_k, a_r, a_k, strip,
                          c + c_off + i0 * ldc + j0, ldc,
                          min ((uint) MR, m - i0), cols, kc, alpha, beta_block);
            }
        }
      kb += kc;
    }
  while (kb < k);
}

#endif /* LATENT_TILES */

/* out (rows × cols, leading dimension cols) = inᵀ, in being cols × rows
 * with leading dimension ld_in. Work-item (j, i) moves one element; the
 * writes are contiguous. */
__kernel void
gemm_transpose (__global const float *LATENT_RESTRICT in,
                const ulong in_off,
                const ulong ld_in,
                __global float *LATENT_RESTRICT out,
                const uint rows,
                const uint cols)
{
  const uint j = get_global_id (0), i = get_global_id (1);

  if (i >= rows || j >= cols)
    return;
  out[(ulong) i * cols + j] = in[in_off + (ulong) j * ld_in + i];
}

/* C[i, j] = C[j, i] for j < i: the lower triangle from the upper. */
__kernel void
gemm_mirror (__global float *c,
             const ulong c_off,
             const ulong ldc,
             const uint n)
{
  const uint j = get_global_id (0), i = get_global_id (1);

  if (i >= n || j >= i)
    return;
  c[c_off + (ulong) i * ldc + j] = c[c_off + (ulong) j * ldc + i];
}

#else /* LATENT_GPU */

/* ---- The GPU shape -------------------------------------------------------
 *
 * A work-group of RTSN × RTSM work-items owns a TSM × TSN tile of C; the
 * depth is walked in blocks of TSK. For each block the group copies the
 * TSM × TSK tile of op(A) and the TSK × TSN tile of op(B) into local memory
 * (as As[p][i] and Bs[p][j], both depth-major), consecutive work-items
 * reading consecutive addresses: along the depth when A's rows are
 * contiguous (a_k = 1), along the rows when Aᵀ is read (a_r = 1), and the
 * same for B. Elements past m, n or the depth are stored as zeros, so the
 * inner loop tests no edge. Each work-item then accumulates a WPTM × WPTN
 * block of C in registers: rows (w·RTSM + ty)·VW + v, columns
 * (w·RTSN + tx)·VW + v for w < WPT/VW, v < VW, so a warp reads VW-wide
 * vectors at consecutive addresses of one local row (no bank conflict)
 * and its stores to C are contiguous. Local rows are padded by VW floats:
 * a group loading along the depth writes down a column of As or Bs, and an
 * unpadded power-of-two row would put every write in one bank. With
 * PREFETCH = 1 the next block's loads from global memory are issued before
 * this block's products and kept in registers until the tiles are free
 * ((TSM + TSN) · TSK / work-items more registers a work-item).
 *
 * Work-group z of the third dimension takes the depth slice
 * [z · kslice, (z + 1) · kslice) and writes its product to
 * c + z · c_split: the host splits a deep product with few tiles of C over
 * several groups per tile (into a scratch buffer, alpha = 1, beta = 0) and
 * gemm_sum adds the slices up; unsplit, c_split = 0 and kslice ≥ k. */

#ifndef TSM
#define TSM 128
#endif
#ifndef TSN
#define TSN 128
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 8
#endif
#ifndef WPTN
#define WPTN 8
#endif
#ifndef VW
#define VW 4
#endif
#ifndef PREFETCH
#define PREFETCH 0
#endif

#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define WGS (RTSM * RTSN)
#define LDAS (TSM + VW)
#define LDBS (TSN + VW)

#if TSM % WPTM != 0 || TSN % WPTN != 0 || WPTM % VW != 0 || WPTN % VW != 0
#error "gemm: WPTM must divide TSM, WPTN TSN, and VW both WPTM and WPTN"
#endif
#if (TSM * TSK) % WGS != 0 || (TSN * TSK) % WGS != 0
#error "gemm: the work-group must divide the TSM × TSK and TSK × TSN tiles"
#endif

#if VW == 1
typedef float floatv;
#define UNPACK(v, d) ((d)[0] = (v))
#elif VW == 2
typedef float2 floatv;
#define UNPACK(v, d) ((d)[0] = (v).s0, (d)[1] = (v).s1)
#elif VW == 4
typedef float4 floatv;
#define UNPACK(v, d) ((d)[0] = (v).s0, (d)[1] = (v).s1, (d)[2] = (v).s2, (d)[3] = (v).s3)
#else
#error "gemm: VW must be 1, 2 or 4"
#endif

/* How the work-group spreads over a TS × TSK tile: LX work-items along x
 * (the rows of op(A), the columns of op(B)) by LP along the depth, x
 * fastest when x is the contiguous direction in memory (X_*), the depth
 * fastest otherwise (P_*). */
#define X_LX(ts) ((ts) < WGS ? (ts) : WGS)
#define X_LP(ts) (WGS / X_LX (ts))
#define P_LP (TSK < WGS ? TSK : WGS)
#define P_LX (WGS / P_LP)

/* r[·] = src[x · xs + p · ps] for x < ts, p < TSK in steps of lx and lp,
 * zero where x ≥ xn or p ≥ pn; src points at this work-item's first
 * element and xn, pn count from it. STASH then stores r[·] at
 * dst[p · ld + x]. Macros, so that the loops' bounds are constants to every
 * compiler and they unroll (r is then registers). */
#define FETCH(r, src, xs, ps, xn, pn, ts, lx, lp)                              \
  do {                                                                         \
    _Pragma ("unroll")                                                         \
    for (int p_ = 0; p_ < TSK; p_ += (lp))                                     \
      _Pragma ("unroll")                                                       \
      for (int x_ = 0; x_ < (ts); x_ += (lx))                                  \
        (r)[p_ / (lp) * ((ts) / (lx)) + x_ / (lx)] =                           \
          x_ < (xn) && p_ < (pn) ? (src)[x_ * (xs) + p_ * (ps)] : 0.0f;        \
  } while (0)

#define STASH(r, dst, ld, ts, lx, lp)                                          \
  do {                                                                         \
    _Pragma ("unroll")                                                         \
    for (int p_ = 0; p_ < TSK; p_ += (lp))                                     \
      _Pragma ("unroll")                                                       \
      for (int x_ = 0; x_ < (ts); x_ += (lx))                                  \
        (dst)[p_ * (ld) + x_] = (r)[p_ / (lp) * ((ts) / (lx)) + x_ / (lx)];    \
  } while (0)

/* C[i0.., j0..] = alpha · op(A) · op(B) + beta · C over one TSM × TSN tile
 * and one depth slice: op(A)[i, p] = a[a_off + i · a_r + p · a_k],
 * op(B)[p, j] = b[b_off + p · b_k + j · b_n]. With upper, groups whose
 * tile lies wholly below the diagonal (every i > j) do nothing. k may be
 * 0: C is then only scaled by beta. */
__kernel __attribute__((reqd_work_group_size (RTSN, RTSM, 1))) void
gemm_groups (const uint m,
             const uint n,
             const uint k,
             const float alpha,
             const float beta,
             __global const float *LATENT_RESTRICT a,
             const ulong a_off,
             const ulong a_r,
             const ulong a_k,
             __global const float *LATENT_RESTRICT b,
             const ulong b_off,
             const ulong b_k,
             const ulong b_n,
             __global float *c,
             const ulong c_off,
             const ulong ldc,
             const ulong c_split,
             const uint kslice,
             const uint upper)
{
  __local floatv as[TSK * LDAS / VW], bs[TSK * LDBS / VW];
  const int tx = get_local_id (0), ty = get_local_id (1), lid = ty * RTSN + tx;
  const uint i0 = get_group_id (1) * TSM, j0 = get_group_id (0) * TSN, z = get_group_id (2);
  const uint k0 = min (k, z * kslice), k1 = min (k, k0 + kslice);
  /* Which way this group's loads run, and where each work-item starts. */
  const int a_x = a_r == 1, b_x = b_n == 1;
  const int alx = a_x ? lid % X_LX (TSM) : lid / P_LP, alp = a_x ? lid / X_LX (TSM) : lid % P_LP;
  const int blx = b_x ? lid % X_LX (TSN) : lid / P_LP, blp = b_x ? lid / X_LX (TSN) : lid % P_LP;
  const int an = (int) min ((uint) TSM, m - i0) - alx, bn = (int) min ((uint) TSN, n - j0) - blx;
  __global const float *pa = a + a_off + (i0 + alx) * a_r + (ulong) (k0 + alp) * a_k;
  __global const float *pb = b + b_off + (j0 + blx) * b_n + (ulong) (k0 + blp) * b_k;
  __local float *la = (__local float *) as + alp * LDAS + alx;
  __local float *lb = (__local float *) bs + blp * LDBS + blx;
  float ra[TSM * TSK / WGS], rb[TSN * TSK / WGS];
  float acc[WPTM][WPTN];

  /* The whole group leaves together: no barrier is left waiting. */
  if (upper && i0 > j0 + (TSN - 1))
    return;

#pragma unroll
  for (int i = 0; i < WPTM; i++)
#pragma unroll
    for (int j = 0; j < WPTN; j++)
      acc[i][j] = 0.0f;

/* The block of depth kb into ra, rb (a_r = 1 or b_n = 1 written as 1: the
 * offsets become constants), then on to the next block. */
#define FETCH_BLOCK(kb)                                                        \
  do {                                                                         \
    const int pn_ = (kb) < k1 ? (int) min ((uint) TSK, k1 - (kb)) : 0;         \
                                                                               \
    if (a_x)                                                                   \
      FETCH (ra, pa, 1ul, a_k, an, pn_ - alp, TSM, X_LX (TSM), X_LP (TSM));    \
    else                                                                       \
      FETCH (ra, pa, a_r, a_k, an, pn_ - alp, TSM, P_LX, P_LP);                \
    if (b_x)                                                                   \
      FETCH (rb, pb, 1ul, b_k, bn, pn_ - blp, TSN, X_LX (TSN), X_LP (TSN));    \
    else                                                                       \
      FETCH (rb, pb, b_n, b_k, bn, pn_ - blp, TSN, P_LX, P_LP);                \
    pa += TSK * a_k;                                                           \
    pb += TSK * b_k;                                                           \
  } while (0)
/* ra, rb into the local tiles. */
#define STASH_BLOCK()                                                          \
  do {                                                                         \
    if (a_x)                                                                   \
      STASH (ra, la, LDAS, TSM, X_LX (TSM), X_LP (TSM));                       \
    else                                                                       \
      STASH (ra, la, LDAS, TSM, P_LX, P_LP);                                   \
    if (b_x)                                                                   \
      STASH (rb, lb, LDBS, TSN, X_LX (TSN), X_LP (TSN));                       \
    else                                                                       \
      STASH (rb, lb, LDBS, TSN, P_LX, P_LP);                                   \
  } while (0)

#if PREFETCH
  /* The first block into registers; then each step stores the block it
   * holds, fetches the next from global memory (its latency hidden behind
   * this block's products) and multiplies. */
  FETCH_BLOCK (k0);
#endif
  for (uint kb = k0; kb < k1; kb += TSK)
    {
#if !PREFETCH
      FETCH_BLOCK (kb);
#endif
      STASH_BLOCK ();
      barrier (CLK_LOCAL_MEM_FENCE);
#if PREFETCH
      /* Past the end: zeros, never stored. */
      FETCH_BLOCK (kb + TSK);
#endif

#pragma unroll
      for (int p = 0; p < TSK; p++)
        {
          float ar[WPTM], br[WPTN];

#pragma unroll
          for (int w = 0; w < WPTM / VW; w++)
            {
              const floatv v = as[p * (LDAS / VW) + w * RTSM + ty];

              UNPACK (v, ar + w * VW);
            }
#pragma unroll
          for (int w = 0; w < WPTN / VW; w++)
            {
              const floatv v = bs[p * (LDBS / VW) + w * RTSN + tx];

              UNPACK (v, br + w * VW);
            }
#pragma unroll
          for (int i = 0; i < WPTM; i++)
#pragma unroll
            for (int j = 0; j < WPTN; j++)
              acc[i][j] = fma (ar[i], br[j], acc[i][j]);
        }
      /* The next block overwrites the tiles. */
      barrier (CLK_LOCAL_MEM_FENCE);
    }
#undef FETCH_BLOCK
#undef STASH_BLOCK

  c += c_off + z * c_split;
#pragma unroll
  for (int i = 0; i < WPTM; i++)
    {
      const uint row = i0 + (i / VW * RTSM + ty) * VW + i % VW;

      if (row >= m)
        continue;
#pragma unroll
      for (int j = 0; j < WPTN; j++)
        {
          const uint col = j0 + (j / VW * RTSN + tx) * VW + j % VW;
          __global float *cp = c + (ulong) row * ldc + col;

          /* beta = 0 must not read C: it may hold NaN. */
          if (col < n)
            *cp = beta != 0.0f ? fma (beta, *cp, alpha * acc[i][j]) : alpha * acc[i][j];
        }
    }
}

/* C = alpha · Σ_z part[z · split + i · n + j] + beta · C: the slices of a
 * depth split by gemm_groups, added up. With upper only j ≥ i is written
 * (gemm_mirror fills the rest). Work-item (j, i), coalesced along j. */
__kernel void
gemm_sum (const uint m,
          const uint n,
          const float alpha,
          const float beta,
          __global const float *LATENT_RESTRICT part,
          const ulong split,
          const uint slices,
          __global float *LATENT_RESTRICT c,
          const ulong c_off,
          const ulong ldc,
          const uint upper)
{
  const uint j = get_global_id (0), i = get_global_id (1);
  float s = 0.0f;

  if (i >= m || j >= n || (upper && j < i))
    return;
  part += (ulong) i * n + j;
  for (uint z = 0; z < slices; z++)
    s += part[z * split];
  c += c_off + (ulong) i * ldc + j;
  *c = beta != 0.0f ? fma (beta, *c, alpha * s) : alpha * s;
}

/* The host passes 8 where a device takes fewer than 256 work-items a group. */
#ifndef MIRROR_TILE
#define MIRROR_TILE 16
#endif

/* C[i, j] = C[j, i] for j < i, through a local tile: group (J, I) copies
 * block (J, I) of the upper triangle to block (I, J) of the lower one,
 * reading rows and writing rows, both coalesced. Groups of
 * MIRROR_TILE × MIRROR_TILE; blocks wholly above the diagonal do nothing. */
__kernel __attribute__((reqd_work_group_size (MIRROR_TILE, MIRROR_TILE, 1))) void
gemm_mirror (__global float *c,
             const ulong c_off,
             const ulong ldc,
             const uint n)
{
  /* One column of padding: the transposed reads hit distinct banks. */
  __local float t[MIRROR_TILE][MIRROR_TILE + 1];
  const uint tx = get_local_id (0), ty = get_local_id (1);
  const uint bi = get_group_id (1) * MIRROR_TILE, bj = get_group_id (0) * MIRROR_TILE;

  if (bj > bi)
    return;
  c += c_off;
  /* Source: row bj + ty, column bi + tx, in the upper triangle. */
  if (bi + tx < n && bj + ty < bi + tx)
    t[ty][tx] = c[(ulong) (bj + ty) * ldc + bi + tx];
  barrier (CLK_LOCAL_MEM_FENCE);
  /* Destination: row bi + ty, column bj + tx, below the diagonal. */
  if (bi + ty < n && bj + tx < bi + ty)
    c[(ulong) (bi + ty) * ldc + bj + tx] = t[tx][ty];
}

#endif /* LATENT_GPU */
