/* gemm.cl — the float32 matrix product C = alpha · op(A) · B + beta · C
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layout: every matrix is row-major with its own leading dimension (elements
 * between rows). op(A) (m × k) is read through two strides, a_r between its
 * rows and a_k between its columns, so A and Aᵀ take the same path (Aᵀ of a
 * k × m matrix: a_r = 1, a_k = lda). B is k × n, already untransposed by the
 * host (gemm_transpose). a_off, b_off, c_off are element offsets.
 *
 * One work-item owns a macro tile of mt × nt micro tiles, each MR rows ×
 * 32 columns of C held in 2·MR float16 accumulators (registers: a CPU
 * device such as PoCL fills its SIMD lanes from one work-item). The depth
 * is walked in blocks of KC; inside a block each KC × 32 strip of B is
 * packed into the work-item's local memory (zero-padded past n, so the
 * inner loop never tests an edge) and the micro tiles sweep down it, the
 * strip staying in L1 while the MR-row strips of A come from L2. Work-
 * groups hold one work-item: the packed strip is private to it. The host
 * splits a deep product into several launches over slices of the depth,
 * each small enough to stay in the last-level cache; every launch after
 * the first passes beta = 1.
 *
 * Micro tiles that overhang the edges of C read zeros past the edge (the
 * packed strip, and a guarded load of A's rows) and stop their stores at
 * the edge, so any m, n, k works. With upper != 0 only micro tiles that touch the upper triangle (i ≤ j) are
 * computed: the Gram matrix AᵀA is symmetric, and gemm_mirror copies it down.
 */

#ifndef MR
#define MR 6
#endif
#ifndef KC
#define KC 128
#endif

#define NR 32

/* 16 floats of row b from column j, zeros at and beyond column `end`. */
static inline float16
load_guarded (__global const float *b,
              const int j,
              const int end)
{
  if (j + 16 <= end)
    return vload16 (0, b + j);
  if (j >= end)
    return (float16) 0.0f;
  {
    float v[16];
    for (int l = 0; l < 16; l++)
      v[l] = j + l < end ? b[j + l] : 0.0f;
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

/* C[i0.., j0..] = alpha · op(A)[i0.., :kc] · B[:kc, j0..] + beta · C. A points
 * at op(A)[i0, 0], b at the packed strip of B (kc × NR, zeros past the edge),
 * c at C[i0, j0]. */
static inline void
micro_tile (__global const float *LATENT_RESTRICT a,
            const ulong a_r,
            const ulong a_k,
            __local const float *LATENT_RESTRICT b,
            __global float *c,
            const ulong ldc,
            const uint rows,
            const uint cols,
            const uint kc,
            const float alpha,
            const float beta)
{
  float16 acc0[MR], acc1[MR];

#pragma unroll
  for (int r = 0; r < MR; r++)
    acc0[r] = acc1[r] = 0.0f;

  if (rows == MR)
    {
      for (uint p = 0; p < kc; p++)
        {
          const float16 b0 = vload16 (0, b);
          const float16 b1 = vload16 (1, b);

#pragma unroll
          for (int r = 0; r < MR; r++)
            {
              const float16 ar = (float16) a[r * a_r];
              acc0[r] = fma (ar, b0, acc0[r]);
              acc1[r] = fma (ar, b1, acc1[r]);
            }
          a += a_k;
          b += NR;
        }
    }
  else
    {
      for (uint p = 0; p < kc; p++)
        {
          const float16 b0 = vload16 (0, b);
          const float16 b1 = vload16 (1, b);

#pragma unroll
          for (int r = 0; r < MR; r++)
            {
              const float16 ar = (float16) ((uint) r < rows ? a[r * a_r] : 0.0f);
              acc0[r] = fma (ar, b0, acc0[r]);
              acc1[r] = fma (ar, b1, acc1[r]);
            }
          a += a_k;
          b += NR;
        }
    }

#pragma unroll
  for (int r = 0; r < MR; r++)
    if ((uint) r < rows)
      store_row (c + r * ldc, acc0[r], acc1[r], cols, alpha, beta);
}

/* strip (kc × NR) = B[:kc, j0 : j0 + cols], zeros past column cols. */
static inline void
pack_strip (__global const float *LATENT_RESTRICT b,
            const ulong ldb,
            const uint cols,
            const uint kc,
            __local float *LATENT_RESTRICT strip)
{
  if (cols == NR)
    for (uint p = 0; p < kc; p++, b += ldb, strip += NR)
      {
        vstore16 (vload16 (0, b), 0, strip);
        vstore16 (vload16 (1, b), 1, strip);
      }
  else
    for (uint p = 0; p < kc; p++, b += ldb, strip += NR)
      {
        vstore16 (load_guarded (b, 0, cols), 0, strip);
        vstore16 (load_guarded (b, 16, cols), 1, strip);
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
            __global const float *LATENT_RESTRICT a,
            const ulong a_off,
            const ulong a_r,
            const ulong a_k,
            __global const float *LATENT_RESTRICT b,
            const ulong b_off,
            const ulong ldb,
            __global float *c,
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
  __local float strip[KC * NR];
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
