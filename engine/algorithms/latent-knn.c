/* latent-knn.c — the k nearest neighbours of every row: the reference in
 * double, and the OpenCL path (latent-gemm's product in blocks of rows,
 * kernels/knn.cl's selection, the candidates measured again here)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-knn"

#include "latent-knn.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-algorithm.h"
#include "latent-gemm.h"

/* Extra candidates the device keeps beyond k, so that float rounding at
 * the k-th place rarely leaves out a row the exact distances keep. */
#define SPARE 4
/* The products are taken a block of rows by a tile of columns at a time,
 * 8 MiB of distances that the selection reads while they are in the cache:
 * a block of rows against all 70,000 columns at once went through memory
 * twice, and the neighbours of 70,000 × 50 took 10.7 s, against 5.4 s so
 * (256 × 2048: 6.2 s; 1024 × 4096: 5.3 s; Xeon model 207, 2 cores). */
#define BLOCK_ROWS 1024
#define TILE_COLUMNS 2048

/* Inserts (@dd, @j) into the ascending lists of @k, if nearer than the
 * last; an equal distance stays behind those kept (lower rows came first). */
static inline void
keep (double *best_d,
      gint32 *best_j,
      guint   k,
      double  dd,
      gint32  j)
{
  guint q = k - 1;

  if (!(dd < best_d[q]))
    return;
  while (q > 0 && best_d[q - 1] > dd)
    {
      best_d[q] = best_d[q - 1];
      best_j[q] = best_j[q - 1];
      q--;
    }
  best_d[q] = dd;
  best_j[q] = j;
}

static double
distance2 (const float *a,
           const float *b,
           guint        d)
{
  double s = 0;

  for (guint f = 0; f < d; f++)
    {
      double u = (double) a[f] - b[f];
      s += u * u;
    }
  return s;
}

static gboolean
check_k (guint     n,
         guint     k,
         GError  **error)
{
  if (k >= 1 && k < n)
    return TRUE;
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
               _("%u nearest neighbours need more than %u rows"), k, n);
  return FALSE;
}

gboolean
latent_knn_reference (const float   *x,
                      guint          n,
                      guint          d,
                      guint          k,
                      gint32        *index,
                      float         *dist2,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autofree double *best_d = g_new (double, k);

  if (!check_k (n, k, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const float *xi = x + (gsize) i * d;

      if (i % 256 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      for (guint q = 0; q < k; q++)
        best_d[q] = INFINITY;
      for (guint j = 0; j < n; j++)
        if (j != i)
          keep (best_d, index + (gsize) i * k, k, distance2 (xi, x + (gsize) j * d, d), j);
      for (guint q = 0; q < k; q++)
        dist2[(gsize) i * k + q] = best_d[q];
    }
  return TRUE;
}

/* The device's @kc candidates of row @i measured again, the nearest @k kept. */
static void
rerank (const float  *x,
        guint         d,
        guint         i,
        const gint32 *candidates,
        guint         kc,
        guint         k,
        double       *best_d,
        gint32       *index,
        float        *dist2)
{
  g_autofree gint32 *sorted = g_memdup2 (candidates, kc * sizeof (gint32));

  /* In row order, so that equal distances keep the lower row first, as
   * the reference's scan does. */
  for (guint a = 1; a < kc; a++)
    for (guint b = a; b > 0 && sorted[b - 1] > sorted[b]; b--)
      {
        gint32 t = sorted[b];
        sorted[b] = sorted[b - 1];
        sorted[b - 1] = t;
      }
  for (guint q = 0; q < k; q++)
    best_d[q] = INFINITY;
  for (guint c = 0; c < kc; c++)
    if (sorted[c] >= 0)
      keep (best_d, index, k, distance2 (x + (gsize) i * d, x + (gsize) sorted[c] * d, d), sorted[c]);
  for (guint q = 0; q < k; q++)
    dist2[q] = best_d[q];
}

gboolean
latent_knn_cl (LatentCl      *cl,
               const float   *x,
               guint          n,
               guint          d,
               guint          k,
               gint32        *index,
               float         *dist2,
               GCancellable  *cancellable,
               GError       **error)
{
  const guint kc = MIN (k + SPARE, n - 1);
  const guint block = MIN (n, BLOCK_ROWS), tile = MIN (n, TILE_COLUMNS);
  const guint n_tiles = (n + tile - 1) / tile;
  g_autoptr(LatentGemm) gemm = NULL;
  g_autofree char *options = NULL;
  g_autofree float *norms = NULL;
  g_autofree float *columns = NULL;
  g_autofree gint32 *candidates = NULL;
  g_autofree double *best_d = NULL;
  g_autofree cl_mem *tiles = g_new0 (cl_mem, n_tiles);
  cl_kernel select = NULL;
  cl_command_queue queue = NULL;
  cl_mem block_mem = NULL, norms_mem = NULL, g_mem = NULL, kept_d = NULL, kept_j = NULL;
  gboolean ok = FALSE;

  if (!check_k (n, k, error))
    return FALSE;
  norms = g_new (float, n);
  for (guint i = 0; i < n; i++)
    {
      double s = 0;

      for (guint f = 0; f < d; f++)
        s += (double) x[(gsize) i * d + f] * x[(gsize) i * d + f];
      norms[i] = s;
    }
  candidates = g_new (gint32, (gsize) block * kc);
  best_d = g_new (double, k);
  columns = g_new0 (float, (gsize) d * tile);
  options = g_strdup_printf ("-DK=%u", kc);
  if (!(gemm = latent_gemm_new (cl, error)) ||
      !(select = latent_cl_create_kernel (cl, "knn", options, "knn_select", error)) ||
      !(queue = latent_cl_create_queue (cl, error)) ||
      !latent_cl_create_buffer (cl, &block_mem, CL_MEM_READ_ONLY, (gsize) block * d * sizeof (float), NULL,
                                "block of rows", error) ||
      !latent_cl_create_buffer (cl, &norms_mem, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                (gsize) n * sizeof (float), norms, "row norms", error) ||
      !latent_cl_create_buffer (cl, &g_mem, CL_MEM_READ_WRITE, (gsize) block * tile * sizeof (float), NULL,
                                "products", error) ||
      !latent_cl_create_buffer (cl, &kept_d, CL_MEM_READ_WRITE, (gsize) block * kc * sizeof (float), NULL,
                                "nearest distances", error) ||
      !latent_cl_create_buffer (cl, &kept_j, CL_MEM_READ_WRITE, (gsize) block * kc * sizeof (gint32), NULL,
                                "neighbours", error))
    goto out;
  /* Each tile of columns transposed (d × tile, the last one zero-padded),
   * so the products need no transposing. */
  for (guint t = 0; t < n_tiles; t++)
    {
      const guint c0 = t * tile, cols = MIN (tile, n - c0);

      for (guint f = 0; f < d; f++)
        for (guint c = 0; c < tile; c++)
          columns[(gsize) f * tile + c] = c < cols ? x[(gsize) (c0 + c) * d + f] : 0;
      if (!latent_cl_create_buffer (cl, &tiles[t], CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                    (gsize) d * tile * sizeof (float), columns, "rows", error))
        goto out;
    }

  for (guint first = 0; first < n; first += block)
    {
      const cl_uint rows = MIN (block, n - first), first_row = first;
      const gsize global = rows;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !latent_cl_check (clEnqueueWriteBuffer (queue, block_mem, CL_TRUE, 0, (gsize) rows * d * sizeof (float),
                                                  x + (gsize) first * d, 0, NULL, NULL),
                            "clEnqueueWriteBuffer", "rows", error))
        goto out;
      /* Tile after tile, the products of one at a time, small enough to
       * stay in the cache while they are read: the nearest so far are
       * kept on the device between tiles. */
      for (guint t = 0; t < n_tiles; t++)
        {
          const cl_uint c0 = t * tile, cols = MIN (tile, n - c0), width = tile;

          if (!latent_gemm_run (gemm, queue, FALSE, FALSE, rows, tile, d, 1.0f, block_mem, d, tiles[t], tile, 0.0f,
                                g_mem, tile, cancellable, error) ||
              !latent_cl_set_args (select, "knn_select", error, LATENT_CL_ARG (g_mem), LATENT_CL_ARG (width),
                                   LATENT_CL_ARG (norms_mem), LATENT_CL_ARG (c0), LATENT_CL_ARG (cols),
                                   LATENT_CL_ARG (first_row), LATENT_CL_ARG (rows), LATENT_CL_ARG (kept_d),
                                   LATENT_CL_ARG (kept_j), LATENT_CL_ARG_END) ||
              !latent_cl_check (clEnqueueNDRangeKernel (queue, select, 1, NULL, &global, NULL, 0, NULL, NULL),
                                "clEnqueueNDRangeKernel", "knn_select", error))
            goto out;
        }
      if (!latent_cl_check (clEnqueueReadBuffer (queue, kept_j, CL_TRUE, 0, (gsize) rows * kc * sizeof (gint32),
                                                 candidates, 0, NULL, NULL),
                            "clEnqueueReadBuffer", "neighbours", error))
        goto out;
      for (guint r = 0; r < rows; r++)
        rerank (x, d, first + r, candidates + (gsize) r * kc, kc, k, best_d,
                index + (gsize) (first + r) * k, dist2 + (gsize) (first + r) * k);
    }
  ok = TRUE;

out:
  if (queue)
    {
      clFinish (queue);
      clReleaseCommandQueue (queue);
    }
  g_clear_pointer (&select, clReleaseKernel);
  for (guint t = 0; t < n_tiles; t++)
    g_clear_pointer (&tiles[t], clReleaseMemObject);
  g_clear_pointer (&block_mem, clReleaseMemObject);
  g_clear_pointer (&norms_mem, clReleaseMemObject);
  g_clear_pointer (&g_mem, clReleaseMemObject);
  g_clear_pointer (&kept_d, clReleaseMemObject);
  g_clear_pointer (&kept_j, clReleaseMemObject);
  return ok;
}
