/* convolve.cl — image convolution of float planes: direct, tiled, separable, fft
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Computes out(x, y) = Σ_{j,i} w[j][i] · in(x + i − r, y + j − r) + offset
 * for a (2r + 1)² kernel, r ≤ MAX_RADIUS: a correlation, as OpenCV's
 * filter2D, with the divisor already folded into the weights by the host.
 *
 * Layout: planar float32. An image of C channels is C planes one after the
 * other, plane c at src + c·width·height, each row-major with no padding
 * (row y at + y·width). src and dst are different buffers. Weights are
 * row-major, (2r + 1)²; the separable factors (2r + 1) each.
 *
 * Borders (outside pixels, each axis on its own, as OpenCV does):
 *   BORDER_CLAMP  0  aaa|abcd|ddd   BORDER_REPLICATE
 *   BORDER_MIRROR 1  dcb|abcd|cba   BORDER_REFLECT_101 (the edge pixel is not repeated)
 *   BORDER_WRAP   2  bcd|abcd|abc   BORDER_WRAP
 *   BORDER_ZERO   3  000|abcd|000   BORDER_CONSTANT with 0
 * Mirroring and wrapping repeat for kernels wider than the image.
 *
 * Vectors are float16 (VEC = 16 pixels along a row): a CPU device (PoCL)
 * fills a 512-bit register from one work-item. Work that lies inside the
 * image reads it directly; work near an edge goes through border_index (),
 * so any width and height works, 1 × 1 included.
 *
 *   convolve_direct     global (⌈W / BW⌉, ⌈H / ROWS⌉, C), any group size: a
 *                       work-item computes BW = COLS·16 pixels of ROWS rows,
 *                       each input vector loaded serving ROWS kernel rows.
 *                       Also built with FIXED_RADIUS 1 and 2 (3 × 3, 5 × 5:
 *                       loops unrolled; on a CPU with ROWS = ROWS_SMALL,
 *                       8, a tunable of the host's).
 *   convolve_tiled      groups of (LX, LY) first load their (LY·ROWS + 2r) ×
 *                       (LX·BW + 2r) tile, borders resolved once, into local
 *                       memory; then the direct loop reads it from there.
 *   convolve_separable  global (bands): a row pass and a column pass fused
 *                       down a band of rows across the whole image, through
 *                       a ring of row-filtered rows (see there).
 *   convolve_fft_rows,  global (⌈H / 32⌉, segments), groups of one: rows to
 *   convolve_fft_apply  the frequency domain, kernel rows as products summed
 *                       down the kernel, and back (see there).
 *   convolve_magnitude  sqrt (gx² + gy²) + offset, element-wise.
 *   convolve_change     Σ (b − a)² of two images, per work-item (for fft).
 *
 * A pass's change, Σ (out − in)² (the run's RMS change per pass), comes
 * from the kernel that writes the output when PARTIAL is not NULL: one
 * float per work-item at its linear global id (per band for separable),
 * zero for work-items outside the image; the host adds them in double.
 * With PARTIAL NULL the kernels only filter.
 *
 * OpenCL 1.2, no extensions; latent-convolve-cl.c passes the tunables as -D.
 *
 * Subnormals are flushed to zero (every program is built with
 * -cl-denorms-are-zero): a pixel or kernel weight below 1.2e-38 (a wide
 * Gaussian's tails) adds nothing a float sum of pixel values can hold.
 */

#ifndef MAX_RADIUS
#define MAX_RADIUS 15
#endif
/* direct and tiled: output rows, and 16-pixel vectors across, per work-item. */
#ifndef ROWS
#define ROWS 4
#endif
#ifndef COLS
#define COLS 2
#endif
/* separable: 16-pixel vectors per row-pass step, and output rows and
 * vectors per column-pass step. */
#ifndef SEP_VECTORS
#define SEP_VECTORS 8
#endif
#ifndef SEP_ROWS
#define SEP_ROWS 4
#endif
#ifndef SEP_CHUNK
#define SEP_CHUNK 4
#endif

#define VEC 16
/* Pixels across one direct work-item's block. */
#define BW (COLS * VEC)
/* One direct input row segment: BW + 2r values, rounded up to whole vectors. */
#define SEG (LATENT_DIV_UP (BW + 2 * MAX_RADIUS, VEC) * VEC)
/* Pixels per separable row-pass step. */
#define SEP_W (SEP_VECTORS * VEC)
/* Row-filtered rows kept per band: a power of two > 2·MAX_RADIUS + SEP_ROWS. */
#define SEP_RING 64

#define BORDER_CLAMP 0
#define BORDER_MIRROR 1
#define BORDER_WRAP 2
#define BORDER_ZERO 3

/* The in-image coordinate that P stands for, −1 for "zero". */
static inline int
border_index (int       p,
              const int len,
              const int border)
{
  if ((uint) p < (uint) len)
    return p;
  switch (border)
    {
    case BORDER_CLAMP:
      return clamp (p, 0, len - 1);
    case BORDER_MIRROR:
      {
        const int period = 2 * len - 2;

        if (period == 0)
          return 0;
        p %= period;
        if (p < 0)
          p += period;
        return p < len ? p : period - p;
      }
    case BORDER_WRAP:
      p %= len;
      return p < 0 ? p + len : p;
    default:
      return -1;
    }
}

/* CPU shape: whole vectors may be stored past the caches (non-temporal),
 * for images larger than the caches, which a pass's output would only
 * evict the input from; the store then skips reading the line first. The
 * host asks for it (STREAM) only where every vector store is aligned to 64
 * bytes (widths a multiple of 16). */
#ifndef LATENT_GPU
#ifdef __has_builtin
#if __has_builtin(__builtin_nontemporal_store)
#define HAVE_STREAM 1
#endif
#endif
#endif

/* Row y of the output: ACC + offset, the first COUNT of VEC pixels. */
static inline void
store_vec (__global float *LATENT_RESTRICT out,
           const float16 acc,
           const int count,
           const int stream)
{
  if (count >= VEC)
    {
#ifdef HAVE_STREAM
      if (stream)
        __builtin_nontemporal_store (acc, (__global float16 *) out);
      else
#endif
        vstore16 (acc, 0, out);
    }
  else
    {
      float v[VEC];

      vstore16 (acc, 0, v);
      for (int i = 0; i < count; i++)
        out[i] = v[i];
    }
}

/* One input row IY (0 … k + ROWS − 2 from the block's top − r) meets the
 * kernel rows ky = IY − j of the block's output rows j. ROW points at the
 * input row's value under the block's first output column − r, in any
 * address space; COLS vectors are read at each of the k shifts, and each
 * serves every output row: one load per ROWS fused multiply-adds. Rows
 * mid-sweep meet all ROWS kernel rows: the branch-free loop. */
#define BLOCK_ROW(ROW, IY)                                                      \
  do {                                                                         \
    const int iy_ = (IY);                                                      \
    if (iy_ >= ROWS - 1 && iy_ < k)                                            \
      {                                                                        \
        __global const float *w_ = weights + iy_ * k;                          \
        for (int kx = 0; kx < k; kx++)                                         \
          {                                                                    \
            float16 v_[COLS];                                                  \
            _Pragma ("unroll")                                                 \
            for (int c = 0; c < COLS; c++)                                     \
              v_[c] = vload16 (c, (ROW) + kx);                                 \
            _Pragma ("unroll")                                                 \
            for (int j = 0; j < ROWS; j++)                                     \
              {                                                                \
                const float16 wj_ = (float16) w_[kx - j * k];                  \
                _Pragma ("unroll")                                             \
                for (int c = 0; c < COLS; c++)                                 \
                  acc[j][c] = fma (wj_, v_[c], acc[j][c]);                     \
              }                                                                \
          }                                                                    \
      }                                                                        \
    else                                                                       \
      for (int kx = 0; kx < k; kx++)                                           \
        {                                                                      \
          float16 v_[COLS];                                                    \
          _Pragma ("unroll")                                                   \
          for (int c = 0; c < COLS; c++)                                       \
            v_[c] = vload16 (c, (ROW) + kx);                                   \
          _Pragma ("unroll")                                                   \
          for (int j = 0; j < ROWS; j++)                                       \
            {                                                                  \
              const int ky_ = iy_ - j;                                         \
              if (ky_ >= 0 && ky_ < k)                                         \
                {                                                              \
                  const float16 wj_ = (float16) weights[ky_ * k + kx];         \
                  _Pragma ("unroll")                                           \
                  for (int c = 0; c < COLS; c++)                               \
                    acc[j][c] = fma (wj_, v_[c], acc[j][c]);                   \
                }                                                              \
            }                                                                  \
        }                                                                      \
  } while (0)

/* Output rows y0 … y0 + ROWS − 1, columns x0 … x0 + COLS·16 − 1: ACC +
 * offset, cut at the image's edges. */
static inline void
store_block (__global float *LATENT_RESTRICT dst,
             float16 acc[ROWS][COLS],
             const int x0,
             const int y0,
             const int width,
             const int height,
             const float offset,
             const int stream)
{
#pragma unroll
  for (int j = 0; j < ROWS; j++)
    if (y0 + j < height)
#pragma unroll
      for (int c = 0; c < COLS; c++)
        if (x0 + c * VEC < width)
          store_vec (dst + (y0 + j) * width + x0 + c * VEC, acc[j][c] + offset, width - x0 - c * VEC, stream);
}

/* The sum of a float16's lanes. */
static inline float
sum16 (const float16 v)
{
  const float8 a = v.lo + v.hi;
  const float4 b = a.lo + a.hi;
  const float2 c = b.lo + b.hi;

  return c.x + c.y;
}

/* Σ (out − in)² over a block's outputs inside the image, the input under
 * output (y0 + j, x0 + x) at CENTER[j · PITCH + x]: a pass's change, summed
 * where the outputs are made (in cache) rather than by reading both images
 * again. One definition per address space. */
#define DEFINE_BLOCK_CHANGE(NAME, SPACE)                                         \
  static inline float                                                         \
  NAME (SPACE const float *center,                                             \
        const int pitch,                                                       \
        float16 acc[ROWS][COLS],                                               \
        const int x0,                                                          \
        const int y0,                                                          \
        const int width,                                                       \
        const int height,                                                      \
        const float offset)                                                    \
  {                                                                            \
    float16 s = 0.0f;                                                          \
                                                                               \
    _Pragma ("unroll")                                                         \
    for (int j = 0; j < ROWS; j++)                                             \
      if (y0 + j < height)                                                     \
        _Pragma ("unroll")                                                     \
        for (int c = 0; c < COLS; c++)                                         \
          {                                                                    \
            const int count = width - x0 - c * VEC;                            \
            SPACE const float *in = center + j * pitch + c * VEC;              \
                                                                               \
            if (count >= VEC)                                                  \
              {                                                                \
                const float16 d = acc[j][c] + offset - vload16 (0, in);        \
                s = fma (d, d, s);                                             \
              }                                                                \
            else if (count > 0)                                                \
              {                                                                \
                float v[VEC];                                                  \
                                                                               \
                vstore16 (acc[j][c] + offset, 0, v);                           \
                for (int i = 0; i < count; i++)                                \
                  s.s0 += (v[i] - in[i]) * (v[i] - in[i]);                     \
              }                                                                \
          }                                                                    \
    return sum16 (s);                                                          \
  }

DEFINE_BLOCK_CHANGE (block_change_global, __global)
DEFINE_BLOCK_CHANGE (block_change_local, __local)

/* A work-item's place among all of them, for its partial sum. */
static inline size_t
linear_id (void)
{
  return (get_global_id (2) * get_global_size (1) + get_global_id (1)) * get_global_size (0) + get_global_id (0);
}

/* Also built with FIXED_RADIUS 1 and 2 (3 × 3, 5 × 5: the most common),
 * every loop over the kernel unrolled. STREAM: see store_vec (). */
__kernel void
convolve_direct (__global const float *LATENT_RESTRICT src,
                 __global float *LATENT_RESTRICT dst,
                 const int width,
                 const int height,
#ifdef FIXED_RADIUS
                 const int radius_arg,
#else
                 const int radius,
#endif
                 const int border,
                 __global const float *LATENT_RESTRICT weights,
                 const float offset,
                 const int stream,
                 __global float *LATENT_RESTRICT partial)
{
#ifdef FIXED_RADIUS
  const int radius = FIXED_RADIUS;
#endif
  const int x0 = get_global_id (0) * BW;
  const int y0 = get_global_id (1) * ROWS;
  const ulong plane = (ulong) get_global_id (2) * width * height;
  const int k = 2 * radius + 1;
  /* Values one input row contributes, and the whole vectors read for them. */
  const int n = BW + 2 * radius;
  const int span = (COLS - 1) * VEC + LATENT_DIV_UP (VEC + 2 * radius, VEC) * VEC;
  float16 acc[ROWS][COLS];

  if (x0 >= width || y0 >= height)
    {
      if (partial)
        partial[linear_id ()] = 0.0f;
      return;
    }
  src += plane;
  dst += plane;

#pragma unroll
  for (int j = 0; j < ROWS; j++)
#pragma unroll
    for (int c = 0; c < COLS; c++)
      acc[j][c] = 0.0f;

  if (x0 - radius >= 0 && x0 - radius + span <= width &&
      y0 - radius >= 0 && y0 + ROWS - 1 + radius < height)
    {
      __global const float *base = src + (y0 - radius) * width + x0 - radius;

      /* With the radius compiled in, every row's kernel rows are known. */
#ifdef FIXED_RADIUS
#pragma unroll
#endif
      for (int iy = 0; iy < k + ROWS - 1; iy++)
        BLOCK_ROW (base + iy * width, iy);
    }
  else
    {
      /* Near an edge: the row's values through the border rule, the
       * column indices worked out once. */
      float seg[SEG];
      int xs[SEG];

      for (int i = 0; i < n; i++)
        xs[i] = border_index (x0 - radius + i, width, border);
      for (int i = n; i < SEG; i++)
        seg[i] = 0.0f;
      for (int iy = 0; iy < k + ROWS - 1; iy++)
        {
          const int yy = border_index (y0 - radius + iy, height, border);
          __global const float *row;

          if (yy < 0)
            continue;
          row = src + yy * width;
          for (int i = 0; i < n; i++)
            seg[i] = xs[i] < 0 ? 0.0f : row[xs[i]];
          BLOCK_ROW (seg, iy);
        }
    }

  store_block (dst, acc, x0, y0, width, height, offset, stream);
  if (partial)
    partial[linear_id ()] = block_change_global (src + y0 * width + x0, width, acc, x0, y0, width, height, offset);
}

/* TILE (ROWS × PITCH) = the input under a group's outputs plus the apron,
 * from (X, Y) = (x0 − r, y0 − r). Inside the image whole rows are copied
 * as vectors, shared out among the group; near an edge each value goes
 * through the border rule. */
static inline void
load_tile (__global const float *LATENT_RESTRICT src,
           __local float *LATENT_RESTRICT tile,
           const int x,
           const int y,
           const int rows,
           const int pitch,
           const int width,
           const int height,
           const int border)
{
  const int id = get_local_id (1) * get_local_size (0) + get_local_id (0);
  const int items = get_local_size (0) * get_local_size (1);

  if (x >= 0 && x + pitch <= width && y >= 0 && y + rows <= height)
    {
      const int vectors = pitch / VEC;

      for (int t = id; t < rows * vectors; t += items)
        {
          const int ty = t / vectors, tv = t - ty * vectors;
          vstore16 (vload16 (tv, src + (y + ty) * width + x), tv, tile + ty * pitch);
        }
    }
  else
    for (int ty = id; ty < rows; ty += items)
      {
        const int yy = border_index (y + ty, height, border);

        for (int tx = 0; tx < pitch; tx++)
          {
            const int xx = border_index (x + tx, width, border);
            tile[ty * pitch + tx] = yy < 0 || xx < 0 ? 0.0f : src[yy * width + xx];
          }
      }
}

/* Groups of (LX, LY) work-items; TILE holds (LY·ROWS + 2r) × pitch floats
 * with pitch = LX·BW + 2r rounded up to a multiple of 16 (the host sizes it). */
__kernel void
convolve_tiled (__global const float *LATENT_RESTRICT src,
                __global float *LATENT_RESTRICT dst,
                const int width,
                const int height,
                const int radius,
                const int border,
                __global const float *LATENT_RESTRICT weights,
                const float offset,
                __local float *LATENT_RESTRICT tile,
                __global float *LATENT_RESTRICT partial)
{
  const int lx = get_local_id (0), ly = get_local_id (1);
  const int tw = get_local_size (0) * BW, th = get_local_size (1) * ROWS;
  const int tx0 = get_group_id (0) * tw, ty0 = get_group_id (1) * th;
  const int pitch = LATENT_DIV_UP (tw + 2 * radius, VEC) * VEC;
  const ulong plane = (ulong) get_global_id (2) * width * height;
  const int x0 = tx0 + lx * BW, y0 = ty0 + ly * ROWS;
  const int k = 2 * radius + 1;
  float16 acc[ROWS][COLS];

  src += plane;
  dst += plane;
  load_tile (src, tile, tx0 - radius, ty0 - radius, th + 2 * radius, pitch, width, height, border);
  barrier (CLK_LOCAL_MEM_FENCE);

  if (x0 >= width || y0 >= height)
    {
      if (partial)
        partial[linear_id ()] = 0.0f;
      return;
    }

#pragma unroll
  for (int j = 0; j < ROWS; j++)
#pragma unroll
    for (int c = 0; c < COLS; c++)
      acc[j][c] = 0.0f;
  {
    __local const float *base = tile + ly * ROWS * pitch + lx * BW;

    for (int iy = 0; iy < k + ROWS - 1; iy++)
      BLOCK_ROW (base + iy * pitch, iy);
  }
  store_block (dst, acc, x0, y0, width, height, offset, 0);
  if (partial)
    partial[linear_id ()] = block_change_local (tile + (ly * ROWS + radius) * pitch + lx * BW + radius, pitch,
                                                acc, x0, y0, width, height, offset);
}

/* Each work-item owns a band of ROWS output rows across the whole image
 * and walks down it row by row, so every read and write runs along rows
 * (which a CPU's prefetcher follows). Each input row the band needs is
 * filtered along the row, SEP_W pixels at a time, into a ring of the last
 * SEP_RING row results; as soon as the ring holds rows y − r … y + r + 3,
 * output rows y … y + 3 are the column filter over them, read as 16-wide
 * row vectors. Both passes read along rows, so no transpose is needed, and
 * only 2r rows per band are row-filtered twice. SCRATCH holds, every
 * STRIDE floats, a band's ring (SEP_RING × pitch) and a line for pieces at
 * the image's edges (SEP_W + 2r values); pitch is the width rounded up to
 * SEP_W. The divisor is in COLUMN_W. Groups of one work-item on a CPU.
 * STREAM: see store_vec (). */
__kernel void
convolve_separable (__global const float *LATENT_RESTRICT src,
                    __global float *LATENT_RESTRICT dst,
                    const int width,
                    const int height,
                    const int radius,
                    const int border,
                    __global const float *LATENT_RESTRICT row_w,
                    __global const float *LATENT_RESTRICT column_w,
                    const float offset,
                    const int rows,
                    const int planes,
                    const int pitch,
                    __global float *LATENT_RESTRICT scratch,
                    const ulong stride,
                    const int stream,
                    __global float *LATENT_RESTRICT partial)
{
  const int band = get_global_id (0);
  const int y0 = band * rows, y1 = min (y0 + rows, height);
  const int k = 2 * radius + 1;
  __global float *ring = scratch + band * stride;
  __global float *line = ring + SEP_RING * pitch;

  /* The band's change, compensated (Kahan): it adds up a million terms. */
  float change = 0.0f, lost = 0.0f;

  if (y0 >= height)
    {
      if (partial)
        partial[band] = 0.0f;
      return;
    }

  for (int p = 0; p < planes; p++)
    {
      __global const float *in = src + (ulong) p * width * height;
      __global float *out = dst + (ulong) p * width * height;

      int next = y0;

      for (int t = y0 - radius; t < y1 + radius; t++)
        {
          const int yy = border_index (t, height, border);
          __global float *rr = ring + (t & (SEP_RING - 1)) * pitch;

          if (yy < 0)
            for (int x = 0; x < pitch; x += VEC)
              vstore16 ((float16) 0.0f, 0, rr + x);
          else
            {
              __global const float *row = in + yy * width;

              for (int x = 0; x < pitch; x += SEP_W)
                {
                  __global const float *from = row + x - radius;
                  float16 sum[SEP_VECTORS];

                  /* A piece reaching past either edge is first copied,
                   * through the border rule, into the band's line. */
                  if (x < radius || x + SEP_W + radius > width)
                    {
                      const int n = SEP_W + 2 * radius;
                      const int a = clamp (radius - x, 0, n), b = clamp (width - x + radius, a, n);

                      for (int i = 0; i < a; i++)
                        {
                          const int xx = border_index (x - radius + i, width, border);
                          line[i] = xx < 0 ? 0.0f : row[xx];
                        }
                      for (int i = a; i < b; i++)
                        line[i] = from[i];
                      for (int i = b; i < n; i++)
                        {
                          const int xx = border_index (x - radius + i, width, border);
                          line[i] = xx < 0 ? 0.0f : row[xx];
                        }
                      from = line;
                    }

#pragma unroll
                  for (int c = 0; c < SEP_VECTORS; c++)
                    sum[c] = 0.0f;
                  for (int kx = 0; kx < k; kx++)
                    {
                      const float16 w = (float16) row_w[kx];
#pragma unroll
                      for (int c = 0; c < SEP_VECTORS; c++)
                        sum[c] = fma (w, vload16 (c, from + kx), sum[c]);
                    }
#pragma unroll
                  for (int c = 0; c < SEP_VECTORS; c++)
                    vstore16 (sum[c], c, rr + x);
                }
            }

          /* Output rows next … next + SEP_ROWS − 1 once the ring holds
           * their inputs (the last group may stop short of SEP_ROWS). */
          if (next + SEP_ROWS - 1 + radius <= t || (t == y1 + radius - 1 && next < y1))
            {
              float16 moved = 0.0f;

              for (int x = 0; x < width; x += SEP_CHUNK * VEC)
                {
                  float16 acc[SEP_ROWS][SEP_CHUNK];

#pragma unroll
                  for (int j = 0; j < SEP_ROWS; j++)
#pragma unroll
                    for (int c = 0; c < SEP_CHUNK; c++)
                      acc[j][c] = 0.0f;
                  for (int iy = 0; iy < k + SEP_ROWS - 1; iy++)
                    {
                      __global const float *ry = ring + ((next - radius + iy) & (SEP_RING - 1)) * pitch + x;
                      float16 v[SEP_CHUNK];

#pragma unroll
                      for (int c = 0; c < SEP_CHUNK; c++)
                        v[c] = vload16 (c, ry);
#pragma unroll
                      for (int j = 0; j < SEP_ROWS; j++)
                        {
                          const int ky = iy - j;
                          if (ky >= 0 && ky < k)
                            {
                              const float16 w = (float16) column_w[ky];
#pragma unroll
                              for (int c = 0; c < SEP_CHUNK; c++)
                                acc[j][c] = fma (w, v[c], acc[j][c]);
                            }
                        }
                    }
#pragma unroll
                  for (int j = 0; j < SEP_ROWS; j++)
                    if (next + j < y1)
#pragma unroll
                      for (int c = 0; c < SEP_CHUNK; c++)
                        if (x + c * VEC < width)
                          store_vec (out + (next + j) * width + x + c * VEC, acc[j][c] + offset,
                                     width - x - c * VEC, stream);
                  if (partial)
#pragma unroll
                    for (int j = 0; j < SEP_ROWS; j++)
                      if (next + j < y1)
#pragma unroll
                        for (int c = 0; c < SEP_CHUNK; c++)
                          {
                            const int count = width - x - c * VEC;
                            __global const float *at = in + (next + j) * width + x + c * VEC;

                            if (count >= VEC)
                              {
                                const float16 d = acc[j][c] + offset - vload16 (0, at);
                                moved = fma (d, d, moved);
                              }
                            else if (count > 0)
                              {
                                float v[VEC];

                                vstore16 (acc[j][c] + offset, 0, v);
                                for (int i = 0; i < count; i++)
                                  moved.s0 += (v[i] - at[i]) * (v[i] - at[i]);
                              }
                          }
                }
              if (partial)
                {
                  const float y = sum16 (moved) - lost, t2 = change + y;

                  lost = (t2 - change) - y;
                  change = t2;
                }
              next += SEP_ROWS;
            }
        }
    }
  if (partial)
    partial[band] = change;
}

/* ---- fft: rows through the Fourier transform, kernel rows as products ----
 *
 * For large full-rank kernels. Each input row is cut into segments of L =
 * n − 2r outputs; segment s of row y, with r border pixels on each side
 * and zeros after, is an n-point sequence p (n a power of two) whose FFT
 * turns the correlation with any kernel row into a product:
 *   out(s·L + x, y) = Σ_ky IFFT (K_ky · P_{y + ky − r})[x],  0 ≤ x < L,
 * K_ky = the conjugate spectrum of kernel row ky, 1/n and the divisor
 * folded in (the host computes it in double). Rows are vectorised across
 * the 16 lanes of a float16, and two rows share each complex transform
 * (one in the real part, one in the imaginary part), so a work-item
 * handles 32 rows of one segment; its two n-point complex buffers (ping and
 * pong, 4 · n float16) are in local memory, in groups of one work-item.
 * Spectra are stored bin-major, re and im apart: SPEC_RE[(s·(n/2 + 1) + f)
 * · hp + y], so that the 16 rows of a lane vector are contiguous. */

/* Stockham radix-4 (then radix-2 when log₂ n is odd) forward FFT of the n
 * complex float16 in (XR, XI), with YR, YI as the other buffer. TW[m] =
 * exp (−2πi m / n). Returns TRUE when the result ended up in (YR, YI). */
static bool
fft_lanes (__local float16 *xr,
           __local float16 *xi,
           __local float16 *yr,
           __local float16 *yi,
           const int n,
           __global const float2 *LATENT_RESTRICT tw)
{
  bool swapped = false;
  int len = n, s = 1;

  for (; len >= 4; len /= 4, s *= 4)
    {
      const int m = len / 4;

      for (int p = 0; p < m; p++)
        {
          const float2 w1 = tw[p * s], w2 = tw[2 * p * s], w3 = tw[3 * p * s];

          for (int q = 0; q < s; q++)
            {
              const int i = q + s * p, o = q + s * 4 * p;
              const float16 ar = xr[i], ai = xi[i];
              const float16 br = xr[i + s * m], bi = xi[i + s * m];
              const float16 cr = xr[i + 2 * s * m], ci = xi[i + 2 * s * m];
              const float16 dr = xr[i + 3 * s * m], di = xi[i + 3 * s * m];
              const float16 apcr = ar + cr, apci = ai + ci, amcr = ar - cr, amci = ai - ci;
              const float16 bpdr = br + dr, bpdi = bi + di;
              /* j · (b − d) */
              const float16 jr = di - bi, ji = br - dr;
              const float16 t1r = amcr - jr, t1i = amci - ji;
              const float16 t2r = apcr - bpdr, t2i = apci - bpdi;
              const float16 t3r = amcr + jr, t3i = amci + ji;

              yr[o] = apcr + bpdr;
              yi[o] = apci + bpdi;
              yr[o + s] = fma (t1r, w1.x, -t1i * w1.y);
              yi[o + s] = fma (t1r, w1.y, t1i * w1.x);
              yr[o + 2 * s] = fma (t2r, w2.x, -t2i * w2.y);
              yi[o + 2 * s] = fma (t2r, w2.y, t2i * w2.x);
              yr[o + 3 * s] = fma (t3r, w3.x, -t3i * w3.y);
              yi[o + 3 * s] = fma (t3r, w3.y, t3i * w3.x);
            }
        }
      {
        __local float16 *t = xr; xr = yr; yr = t;
        t = xi; xi = yi; yi = t;
        swapped = !swapped;
      }
    }
  if (len == 2)
    {
      for (int q = 0; q < s; q++)
        {
          const float16 ar = xr[q], ai = xi[q], br = xr[q + s], bi = xi[q + s];

          yr[q] = ar + br;
          yi[q] = ai + bi;
          yr[q + s] = ar - br;
          yi[q + s] = ai - bi;
        }
      swapped = !swapped;
    }
  return swapped;
}

/* Forward: rows y0 … y0 + 31 (32 per work-item, dimension 0), segment s
 * (dimension 1) of the plane at SRC into their half spectra. */
__kernel void
convolve_fft_rows (__global const float *LATENT_RESTRICT src,
                   const ulong plane,
                   const int width,
                   const int height,
                   const int radius,
                   const int border,
                   const int n,
                   __global const float2 *LATENT_RESTRICT tw,
                   __global float *LATENT_RESTRICT spec_re,
                   __global float *LATENT_RESTRICT spec_im,
                   const int hp,
                   __local float16 *LATENT_RESTRICT buf)
{
  const int y0 = get_global_id (0) * 32, s = get_global_id (1);
  const int seg = n - 2 * radius, bins = n / 2 + 1;
  __local float16 *xr = buf, *xi = buf + n, *yr = buf + 2 * n, *yi = buf + 3 * n;
  __local float16 *zr, *zi;

  src += plane;
  for (int i = 0; i < n; i++)
    {
      const int xx = i < seg + 2 * radius ? border_index (s * seg + i - radius, width, border) : -1;
      __global const float *column = src + y0 * width + max (xx, 0);
      float a[VEC], b[VEC];

      if (xx >= 0 && y0 + 2 * VEC <= height)
        for (int l = 0; l < VEC; l++)
          {
            a[l] = column[l * width];
            b[l] = column[(VEC + l) * width];
          }
      else
        for (int l = 0; l < VEC; l++)
          {
            a[l] = xx >= 0 && y0 + l < height ? column[l * width] : 0.0f;
            b[l] = xx >= 0 && y0 + VEC + l < height ? column[(VEC + l) * width] : 0.0f;
          }
      xr[i] = vload16 (0, a);
      xi[i] = vload16 (0, b);
    }

  if (fft_lanes (xr, xi, yr, yi, n, tw))
    zr = yr, zi = yi;
  else
    zr = xr, zi = xi;

  /* Z = A + iB: A = (Z[f] + conj Z[n − f]) / 2, B = (Z[f] − conj Z[n − f]) / 2i. */
  for (int f = 0; f < bins; f++)
    {
      const int g = (n - f) & (n - 1);
      const float16 ar = 0.5f * (zr[f] + zr[g]), ai = 0.5f * (zi[f] - zi[g]);
      const float16 br = 0.5f * (zi[f] + zi[g]), bi = 0.5f * (zr[g] - zr[f]);
      const ulong at = (ulong) (s * bins + f) * hp + y0;

      vstore16 (ar, 0, spec_re + at);
      vstore16 (ai, 0, spec_im + at);
      vstore16 (br, 0, spec_re + at + VEC);
      vstore16 (bi, 0, spec_im + at + VEC);
    }
}

/* Σ_ky K_ky · P_{y + ky − r} for the 32 rows of a work-item, then the
 * inverse FFT, into DST. KSPEC[f · k + ky] = K_ky[f]. */
__kernel void
convolve_fft_apply (__global float *LATENT_RESTRICT dst,
                    const ulong plane,
                    const int width,
                    const int height,
                    const int radius,
                    const int border,
                    const int n,
                    __global const float2 *LATENT_RESTRICT tw,
                    __global const float *LATENT_RESTRICT spec_re,
                    __global const float *LATENT_RESTRICT spec_im,
                    const int hp,
                    __global const float2 *LATENT_RESTRICT kspec,
                    const float offset,
                    __local float16 *LATENT_RESTRICT buf)
{
  const int y0 = get_global_id (0) * 32, s = get_global_id (1);
  const int k = 2 * radius + 1, seg = n - 2 * radius, bins = n / 2 + 1;
  const bool inside = y0 - radius >= 0 && y0 + 2 * VEC + radius <= height;
  __local float16 *xr = buf, *xi = buf + n, *yr = buf + 2 * n, *yi = buf + 3 * n;
  __local float16 *zr, *zi;
  int rows[2 * VEC + 2 * MAX_RADIUS];

  dst += plane;
  if (!inside)
    for (int t = 0; t < 2 * VEC + 2 * radius; t++)
      rows[t] = border_index (y0 - radius + t, height, border);

  for (int f = 0; f < bins; f++)
    {
      __global const float *cre = spec_re + (ulong) (s * bins + f) * hp;
      __global const float *cim = spec_im + (ulong) (s * bins + f) * hp;
      __global const float2 *kf = kspec + f * k;
      float16 ar = 0.0f, ai = 0.0f, br = 0.0f, bi = 0.0f;

      for (int ky = 0; ky < k; ky++)
        {
          const float2 w = kf[ky];
          float16 par, pai, pbr, pbi;

          if (inside)
            {
              const int y = y0 - radius + ky;
              par = vload16 (0, cre + y);
              pai = vload16 (0, cim + y);
              pbr = vload16 (0, cre + y + VEC);
              pbi = vload16 (0, cim + y + VEC);
            }
          else
            {
              float g[4][VEC];

              for (int l = 0; l < VEC; l++)
                {
                  const int ya = rows[ky + l], yb = rows[ky + VEC + l];
                  g[0][l] = ya < 0 ? 0.0f : cre[ya];
                  g[1][l] = ya < 0 ? 0.0f : cim[ya];
                  g[2][l] = yb < 0 ? 0.0f : cre[yb];
                  g[3][l] = yb < 0 ? 0.0f : cim[yb];
                }
              par = vload16 (0, g[0]);
              pai = vload16 (0, g[1]);
              pbr = vload16 (0, g[2]);
              pbi = vload16 (0, g[3]);
            }
          ar = fma (par, w.x, fma (-pai, w.y, ar));
          ai = fma (pai, w.x, fma (par, w.y, ai));
          br = fma (pbr, w.x, fma (-pbi, w.y, br));
          bi = fma (pbi, w.x, fma (pbr, w.y, bi));
        }

      /* Z = A + iB over the full spectrum, conjugated for the inverse. */
      xr[f] = ar - bi;
      xi[f] = -(ai + br);
      if (f > 0 && f < n / 2)
        {
          xr[n - f] = ar + bi;
          xi[n - f] = ai - br;
        }
    }

  if (fft_lanes (xr, xi, yr, yi, n, tw))
    zr = yr, zi = yi;
  else
    zr = xr, zi = xi;

  /* conj of the result: row y0 + l in the real part, y0 + 16 + l in −imag. */
  for (int x = 0; x < seg && s * seg + x < width; x++)
    {
      __global float *column = dst + y0 * width + s * seg + x;
      float a[VEC], b[VEC];

      vstore16 (zr[x] + offset, 0, a);
      vstore16 (offset - zi[x], 0, b);
      if (y0 + 2 * VEC <= height)
        for (int l = 0; l < VEC; l++)
          {
            column[l * width] = a[l];
            column[(VEC + l) * width] = b[l];
          }
      else
        for (int l = 0; l < VEC; l++)
          {
            if (y0 + l < height)
              column[l * width] = a[l];
            if (y0 + VEC + l < height)
              column[(VEC + l) * width] = b[l];
          }
    }
}

/* dst = sqrt (gx² + gy²) + offset over N values; with PARTIAL, each
 * work-item's Σ (dst − src)² there. */
__kernel void
convolve_magnitude (__global const float *LATENT_RESTRICT gx,
                    __global const float *LATENT_RESTRICT gy,
                    __global float *LATENT_RESTRICT dst,
                    const ulong n,
                    const float offset,
                    __global const float *LATENT_RESTRICT src,
                    __global float *LATENT_RESTRICT partial)
{
  const ulong i = (ulong) get_global_id (0) * VEC;
  float moved = 0.0f;

  if (i + VEC <= n)
    {
      const float16 a = vload16 (0, gx + i), b = vload16 (0, gy + i);
      const float16 out = sqrt (fma (a, a, b * b)) + offset;

      vstore16 (out, 0, dst + i);
      if (partial)
        {
          const float16 d = out - vload16 (0, src + i);
          moved = sum16 (d * d);
        }
    }
  else
    for (ulong l = i; l < n; l++)
      {
        const float out = sqrt (fma (gx[l], gx[l], gy[l] * gy[l])) + offset;

        dst[l] = out;
        if (partial)
          moved += (out - src[l]) * (out - src[l]);
      }
  if (partial)
    partial[get_global_id (0)] = moved;
}

/* A pass's change where its kernels do not sum it (fft): each work-item's
 * Σ (b − a)² over CHANGE_VECTORS vectors of the N values. */
#define CHANGE_VECTORS 16

__kernel void
convolve_change (__global const float *LATENT_RESTRICT a,
                 __global const float *LATENT_RESTRICT b,
                 const ulong n,
                 __global float *LATENT_RESTRICT partial)
{
  const ulong i0 = (ulong) get_global_id (0) * CHANGE_VECTORS * VEC;
  float16 s = 0.0f;
  float tail = 0.0f;

  for (int v = 0; v < CHANGE_VECTORS; v++)
    {
      const ulong i = i0 + v * VEC;

      if (i + VEC <= n)
        {
          const float16 d = vload16 (0, b + i) - vload16 (0, a + i);
          s = fma (d, d, s);
        }
      else
        for (ulong l = i; l < n; l++)
          tail += (b[l] - a[l]) * (b[l] - a[l]);
    }
  partial[get_global_id (0)] = sum16 (s) + tail;
}
