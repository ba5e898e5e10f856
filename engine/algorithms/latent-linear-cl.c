/* latent-linear-cl.c — the linear models' passes on an OpenCL device
 *
 * The device reads the rows in place (the dataset's memory is aligned for
 * it) and sums them per column (kernels/linear.cl). The Gram product
 * (latent-gemm's SYRK) is the covariance up to a rank-one correction by the
 * mean, δ δᵀ, applied on the host in double. When the mean is large beside
 * the spread, that correction would cancel most digits of a float Gram
 * matrix: then the kernel first writes the rows shifted by the mean of the
 * first rows, and δ is the small remaining offset. The covariance stays on the device for
 * the per-iteration products S · V, and the shifted rows for projections.
 *
 * Rows of 8-bit values (images: every value lo + q · step, q = 0 … 255)
 * take a faster Gram product where the device has one (latent-gemm's row
 * pairs): a pass writes them as small integers q − origin, origin near
 * each column's mean, and checks every value; one off the grid sends the
 * product back to floats. The integer products are exact, so nothing is
 * lost to the shift either. Where the processor has VNNI, row quads
 * (four bytes q − 128) go twice as fast again, summed exactly in int64,
 * and the covariance is taken from them in double on the host.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-linear"

#include "latent-linear-private.h"

#include <glib/gi18n-lib.h>

#include <float.h>
#include <math.h>
#include <string.h>

#include "latent-gemm.h"

/* Rows whose mean becomes the shift. */
#define SHIFT_ROWS 256
/* Shift when |mean|² exceeds this many times the total variance: beyond
 * it the correction would cost more than a digit of the float Gram matrix. */
#define SHIFT_RATIO 8.0

struct _LatentLinearCl
{
  LatentCl          *cl;
  LatentGemm        *gemm;
  cl_command_queue   queue;
  cl_kernel          shift;
  cl_kernel          pairs;   /* linear_pairs, where the Gram product takes them */
  cl_kernel          quads;   /* linear_quads, likewise */
  const char        *form;    /* of the last Gram product: "floats", "pairs" or "quads" */
  guint              n, d;
  const float       *x;
  cl_mem             xs;      /* n × d: the rows, shifted or in place */
  cl_mem             gram;    /* d × d, Xsᵀ Xs / n */
  cl_mem             v, out;  /* d × m for cov_times */
  guint              v_cols, out_cols;
  cl_mem             et, z;   /* for project */
  guint              et_cols, z_cols;
  double            *delta;       /* d: mean − shift, for projections */
  double            *gram_delta;  /* d: mean − the Gram matrix's origin */
};

void
latent_linear_cl_free (LatentLinearCl *lcl)
{
  if (lcl == NULL)
    return;
  if (lcl->queue)
    clFinish (lcl->queue);
  g_clear_pointer (&lcl->xs, clReleaseMemObject);
  g_clear_pointer (&lcl->gram, clReleaseMemObject);
  g_clear_pointer (&lcl->v, clReleaseMemObject);
  g_clear_pointer (&lcl->out, clReleaseMemObject);
  g_clear_pointer (&lcl->et, clReleaseMemObject);
  g_clear_pointer (&lcl->z, clReleaseMemObject);
  if (lcl->shift)
    clReleaseKernel (lcl->shift);
  if (lcl->pairs)
    clReleaseKernel (lcl->pairs);
  if (lcl->quads)
    clReleaseKernel (lcl->quads);
  if (lcl->queue)
    clReleaseCommandQueue (lcl->queue);
  g_clear_pointer (&lcl->gemm, latent_gemm_free);
  g_clear_object (&lcl->cl);
  g_free (lcl->delta);
  g_free (lcl->gram_delta);
  g_free (lcl);
}

LatentLinearCl *
latent_linear_cl_new (LatentCl     *cl,
                      const float  *x,
                      guint         n,
                      guint         d,
                      GError      **error)
{
  g_autoptr(LatentLinearCl) lcl = NULL;
  const LatentClDeviceInfo *info;
  guint64 bytes = (guint64) n * d * sizeof (float);

  g_return_val_if_fail (LATENT_IS_CL (cl), NULL);
  g_return_val_if_fail (x != NULL && n > 0 && d > 0, NULL);

  info = latent_cl_get_info (cl);
  if (bytes > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("%u rows × %u columns need a larger buffer than %s allows"), n, d, info->name);
      return NULL;
    }
  lcl = g_new0 (LatentLinearCl, 1);
  lcl->cl = g_object_ref (cl);
  lcl->n = n;
  lcl->d = d;
  lcl->x = x;
  lcl->delta = g_new0 (double, d);
  lcl->gram_delta = g_new0 (double, d);
  if (!(lcl->gemm = latent_gemm_new (cl, error)) ||
      !(lcl->shift = latent_cl_create_kernel (cl, "linear", NULL, "linear_shift", error)) ||
      (latent_gemm_has_quads (lcl->gemm) &&
       !(lcl->quads = latent_cl_create_kernel (cl, "linear", NULL, "linear_quads", error))) ||
      (!lcl->quads && latent_gemm_has_pairs (lcl->gemm) &&
       !(lcl->pairs = latent_cl_create_kernel (cl, "linear", NULL, "linear_pairs", error))) ||
      !(lcl->queue = latent_cl_create_queue (cl, error)) ||
      !latent_cl_create_buffer (cl, &lcl->gram, CL_MEM_READ_WRITE, (gsize) d * d * sizeof (float), NULL,
                                "covariance", error))
    return NULL;
  return g_steal_pointer (&lcl);
}

/* An 8-bit grid the COUNT values lie on (lo + q · step, q = 0 … 255, each
 * within tol of its point): their own range in 255 steps, else [0, 1] or
 * [0, 255] (8-bit images as loaded) when they do not reach both ends. */
static gboolean
find_grid (const float *x,
           gsize        count,
           cl_float4   *grid)
{
  float lo = x[0], hi = x[0];

  for (gsize i = 1; i < count; i++)
    {
      lo = MIN (lo, x[i]);
      hi = MAX (hi, x[i]);
    }
  {
    const float candidates[][2] = { { lo, (hi - lo) / 255.0f }, { 0.0f, 1.0f / 255.0f }, { 0.0f, 1.0f } };

    for (guint c = 0; c < G_N_ELEMENTS (candidates); c++)
      {
        const float low = candidates[c][0], step = candidates[c][1], inv = 1.0f / step;
        /* A few rounding errors of the largest value. */
        const float tol = 8 * FLT_EPSILON * (fabsf (low) + 255 * step);
        gsize i;

        if (!(step > 0) || !isfinite (inv))
          continue;
        for (i = 0; i < count; i++)
          {
            const float q = rintf ((x[i] - low) * inv);

            if (!(q >= 0 && q <= 255 && fabsf (x[i] - fmaf (q, step, low)) <= tol))
              break;
          }
        if (i == count)
          {
            grid->s[0] = low;
            grid->s[1] = step;
            grid->s[2] = inv;
            grid->s[3] = tol;
            return TRUE;
          }
      }
  }
  return FALSE;
}

/* Whether the row pairs or quads fit one buffer (and the quads' int64
 * Gram matrix), and a work-item's sums of up to n values of at most 255
 * fit an int. */
static gboolean
integers_fit (LatentLinearCl *lcl)
{
  const guint64 max = latent_cl_get_info (lcl->cl)->max_alloc;
  const guint per = lcl->quads ? 4 : 2;

  return lcl->n <= (1u << 24) && (guint64) (lcl->n + per - 1) / per * lcl->d * sizeof (cl_int) <= max &&
         (!lcl->quads || (guint64) lcl->d * lcl->d * sizeof (gint64) <= max);
}

/* The rows on GRID as 8-bit integers, PER to an int, into a new *PACKED
 * (kp × d ints), by KERNEL: linear_pairs with ORIGIN, or linear_quads
 * (ORIGIN NULL). SIGMA (d) gets each column's sum of them; *ON_GRID is
 * FALSE, and *PACKED NULL, when a value lies off the grid. */
static gboolean
pack_rows (LatentLinearCl  *lcl,
           cl_kernel        kernel,
           const char      *name,
           guint            per,
           cl_mem           x,
           cl_mem           origin,
           const cl_float4  grid,
           cl_mem          *packed,
           gint64          *sigma,
           gboolean        *on_grid,
           GError         **error)
{
  const guint n = lcl->n, d = lcl->d, kp = (n + per - 1) / per;
  const guint units = MAX (1, latent_cl_get_info (lcl->cl)->compute_units);
  const guint blocks = MIN (kp, 16 * units), per_item = (kp + blocks - 1) / blocks;
  /* 16 columns a work-item (the CPU shape's kernels); every column for
   * the quads, which stream their rows. */
  const gsize global[2] = { per == 4 ? 1 : (d + 15) / 16, (kp + per_item - 1) / per_item };
  /* A work-group a block: left to choose, PoCL put every block in one
   * work-group, which one thread runs. */
  const gsize local[2] = { 1, 1 };
  g_autofree cl_int *sums = g_new (cl_int, global[1] * d);
  g_autofree cl_int *off = g_new (cl_int, global[0] * global[1]);
  cl_mem sums_buf = NULL, off_buf = NULL;
  guint64 outside = 0;
  gboolean ok;

  ok = latent_cl_create_buffer (lcl->cl, packed, CL_MEM_READ_WRITE, (gsize) kp * d * sizeof (cl_int), NULL,
                                per == 2 ? "row pairs" : "row quads", error) &&
       /* Read too: the quads add to their block's sums as they go. */
       latent_cl_create_buffer (lcl->cl, &sums_buf, CL_MEM_READ_WRITE, global[1] * d * sizeof (cl_int), NULL,
                                "partial sums", error) &&
       latent_cl_create_buffer (lcl->cl, &off_buf, CL_MEM_WRITE_ONLY, global[0] * global[1] * sizeof (cl_int),
                                NULL, "values off the grid", error) &&
       (origin ? latent_cl_set_args (kernel, name, error, LATENT_CL_ARG (x), LATENT_CL_ARG (origin),
                                     LATENT_CL_ARG (*packed), LATENT_CL_ARG (sums_buf), LATENT_CL_ARG (off_buf),
                                     LATENT_CL_ARG (grid), LATENT_CL_ARG (n), LATENT_CL_ARG (d),
                                     LATENT_CL_ARG (per_item), LATENT_CL_ARG_END)
               : latent_cl_set_args (kernel, name, error, LATENT_CL_ARG (x),
                                     LATENT_CL_ARG (*packed), LATENT_CL_ARG (sums_buf), LATENT_CL_ARG (off_buf),
                                     LATENT_CL_ARG (grid), LATENT_CL_ARG (n), LATENT_CL_ARG (d),
                                     LATENT_CL_ARG (per_item), LATENT_CL_ARG_END)) &&
       latent_cl_check (clEnqueueNDRangeKernel (lcl->queue, kernel, 2, NULL, global, per == 4 ? local : NULL, 0,
                                                NULL, NULL),
                        "clEnqueueNDRangeKernel", name, error) &&
       latent_cl_check (clEnqueueReadBuffer (lcl->queue, sums_buf, CL_FALSE, 0, global[1] * d * sizeof (cl_int),
                                             sums, 0, NULL, NULL), "clEnqueueReadBuffer", name, error) &&
       latent_cl_check (clEnqueueReadBuffer (lcl->queue, off_buf, CL_TRUE, 0,
                                             global[0] * global[1] * sizeof (cl_int), off, 0, NULL, NULL),
                        "clEnqueueReadBuffer", name, error);
  for (gsize i = 0; ok && i < global[0] * global[1]; i++)
    outside += off[i];
  *on_grid = ok && outside == 0;
  if (ok && outside > 0)
    g_debug ("%" G_GUINT64_FORMAT " values off the 8-bit grid: the Gram product in floats", outside);
  for (guint a = 0; *on_grid && a < d; a++)
    {
      sigma[a] = 0;
      for (gsize b = 0; b < global[1]; b++)
        sigma[a] += sums[b * d + a];
    }
  if (!ok)
    clFinish (lcl->queue);
  if (!*on_grid)
    g_clear_pointer (packed, clReleaseMemObject);
  g_clear_pointer (&sums_buf, clReleaseMemObject);
  g_clear_pointer (&off_buf, clReleaseMemObject);
  return ok;
}

/* The Gram matrix of the rows on GRID into lcl->gram by the products of
 * row pairs, and MEAN; *DONE is FALSE (and nothing else changed) when a
 * value lies off the grid. GUESS is near each column's mean. */
static gboolean
gram_from_pairs (LatentLinearCl  *lcl,
                 cl_mem           x,
                 const cl_float4  grid,
                 const double    *guess,
                 double          *mean,
                 gboolean        *done,
                 GCancellable    *cancellable,
                 GError         **error)
{
  const guint n = lcl->n, d = lcl->d;
  const float step = grid.s[1];
  g_autofree cl_int *origin = g_new (cl_int, d);
  g_autofree gint64 *sigma = g_new (gint64, d);
  cl_mem origin_buf = NULL, pairs = NULL;
  gboolean ok, on_grid = FALSE;

  *done = FALSE;
  for (guint a = 0; a < d; a++)
    origin[a] = (cl_int) CLAMP (rint ((guess[a] - grid.s[0]) / step), 0, 255);
  ok = latent_cl_create_buffer (lcl->cl, &origin_buf, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                d * sizeof (cl_int), origin, "grid origin", error) &&
       pack_rows (lcl, lcl->pairs, "linear_pairs", 2, x, origin_buf, grid, &pairs, sigma, &on_grid, error);
  if (ok && on_grid)
    {
      ok = latent_gemm_syrk_pairs (lcl->gemm, lcl->queue, d, (n + 1) / 2, (float) ((double) step * step / n),
                                   pairs, d, 0.0f, lcl->gram, d, cancellable, error);
      for (guint a = 0; ok && a < d; a++)
        {
          lcl->gram_delta[a] = step * ((double) sigma[a] / n);
          mean[a] = grid.s[0] + step * (origin[a] + (double) sigma[a] / n);
        }
      *done = ok;
      if (!ok)
        clFinish (lcl->queue);
    }
  /* Released once the queued kernels are done with them. */
  g_clear_pointer (&origin_buf, clReleaseMemObject);
  g_clear_pointer (&pairs, clReleaseMemObject);
  return ok;
}

/* MEAN and COV of the rows on GRID from the products of row quads, and
 * the covariance into lcl->gram (its origin the mean); *DONE as for
 * gram_from_pairs. */
static gboolean
gram_from_quads (LatentLinearCl  *lcl,
                 cl_mem           x,
                 const cl_float4  grid,
                 double          *mean,
                 double          *cov,
                 gboolean        *done,
                 GCancellable    *cancellable,
                 GError         **error)
{
  const guint n = lcl->n, d = lcl->d;
  const double step = grid.s[1];
  g_autofree gint64 *sigma = g_new (gint64, d);
  g_autofree gint64 *gram = NULL;
  g_autofree float *cov_f = NULL;
  cl_mem quads = NULL, gram_buf = NULL;
  gboolean ok, on_grid = FALSE;

  *done = FALSE;
  ok = pack_rows (lcl, lcl->quads, "linear_quads", 4, x, NULL, grid, &quads, sigma, &on_grid, error);
  if (ok && on_grid)
    {
      gram = g_new (gint64, (gsize) d * d);
      ok = latent_cl_create_buffer (lcl->cl, &gram_buf, CL_MEM_READ_WRITE, (gsize) d * d * sizeof (gint64), NULL,
                                    "Gram matrix", error) &&
           latent_gemm_syrk_quads (lcl->gemm, lcl->queue, d, (n + 3) / 4, quads, d, gram_buf, d, cancellable,
                                   error) &&
           latent_cl_check (clEnqueueReadBuffer (lcl->queue, gram_buf, CL_TRUE, 0, (gsize) d * d * sizeof (gint64),
                                                 gram, 0, NULL, NULL), "clEnqueueReadBuffer", "gemm_syrk", error);
    }
  if (ok && on_grid)
    {
      /* gram[a][b] = Σ s_a (s_b + 128) for a ≤ b, s = q − 128: exact. */
      cov_f = g_new (float, (gsize) d * d);
      for (guint a = 0; a < d; a++)
        {
          mean[a] = grid.s[0] + step * (128 + (double) sigma[a] / n);
          lcl->gram_delta[a] = 0;
          for (guint b = a; b < d; b++)
            {
              const gint64 ss = gram[(gsize) a * d + b] - 128 * sigma[a];
              const double c = ((double) ss - (double) sigma[a] * sigma[b] / n) * (step * step / n);

              cov[(gsize) a * d + b] = cov[(gsize) b * d + a] = c;
              cov_f[(gsize) a * d + b] = cov_f[(gsize) b * d + a] = c;
            }
        }
      /* The per-iteration products take the covariance from the device. */
      ok = latent_cl_check (clEnqueueWriteBuffer (lcl->queue, lcl->gram, CL_TRUE, 0, (gsize) d * d * sizeof (float),
                                                  cov_f, 0, NULL, NULL), "clEnqueueWriteBuffer", "covariance", error);
      *done = ok;
    }
  if (!ok)
    clFinish (lcl->queue);
  g_clear_pointer (&quads, clReleaseMemObject);
  g_clear_pointer (&gram_buf, clReleaseMemObject);
  return ok;
}

/* cov = the Gram matrix − δδᵀ, δ being the mean less the Gram matrix's
 * origin. */
static gboolean
read_cov (LatentLinearCl  *lcl,
          double          *cov,
          GError         **error)
{
  const guint d = lcl->d;
  g_autofree float *gram = g_new (float, (gsize) d * d);
  cl_int err = clEnqueueReadBuffer (lcl->queue, lcl->gram, CL_TRUE, 0, (gsize) d * d * sizeof (float), gram,
                                    0, NULL, NULL);

  if (!latent_cl_check (err, "clEnqueueReadBuffer", "gemm_syrk", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  for (guint a = 0; a < d; a++)
    for (guint b = 0; b < d; b++)
      cov[(gsize) a * d + b] = gram[(gsize) a * d + b] - lcl->gram_delta[a] * lcl->gram_delta[b];
  return TRUE;
}

gboolean
latent_linear_cl_moments (LatentLinearCl  *lcl,
                          double          *mean,
                          double          *cov,
                          GCancellable    *cancellable,
                          GError         **error)
{
  const guint n = lcl->n, d = lcl->d, head = MIN (n, SHIFT_ROWS);
  const guint units = MAX (1, latent_cl_get_info (lcl->cl)->compute_units);
  /* Enough row blocks to keep every unit busy, few enough partials. */
  const guint blocks = MIN (n, 16 * units), rows_per_item = (n + blocks - 1) / blocks;
  /* 16 columns a work-item in the CPU shape, one in the GPU shape. */
  const guint per_item = latent_cl_get_shape (lcl->cl) == LATENT_KERNEL_SHAPE_GPU ? 1 : 16;
  const gsize global[2] = { (d + per_item - 1) / per_item, (n + rows_per_item - 1) / rows_per_item };
  g_autofree float *shift = g_new0 (float, d);
  g_autofree double *head_mean = g_new0 (double, d);
  g_autofree float *partial = g_new (float, global[1] * d);
  cl_mem x = NULL, source, shift_buf = NULL, partial_buf = NULL;
  double offset = 0, spread = 0;
  cl_float4 grid;
  gboolean pairs = FALSE, on_grid;
  guint write;
  gboolean ok;
  cl_int err;

  for (guint i = 0; i < head; i++)
    for (guint a = 0; a < d; a++)
      head_mean[a] += lcl->x[(gsize) i * d + a] / (double) head;
  for (guint i = 0; i < head; i++)
    for (guint a = 0; a < d; a++)
      spread += (lcl->x[(gsize) i * d + a] - head_mean[a]) * (lcl->x[(gsize) i * d + a] - head_mean[a]) / head;
  for (guint a = 0; a < d; a++)
    offset += head_mean[a] * head_mean[a];
  write = offset > SHIFT_RATIO * spread;
  if (write)
    for (guint a = 0; a < d; a++)
      shift[a] = head_mean[a];

  on_grid = (lcl->quads || lcl->pairs) && integers_fit (lcl) && find_grid (lcl->x, (gsize) head * d, &grid);
  ok = latent_cl_create_buffer (lcl->cl, &x, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                                (gsize) n * d * sizeof (float), (gpointer) lcl->x, "rows", error) &&
       (!on_grid ||
        (lcl->quads ? gram_from_quads (lcl, x, grid, mean, cov, &pairs, cancellable, error)
                    : gram_from_pairs (lcl, x, grid, head_mean, mean, &pairs, cancellable, error)));
  /* In place, the rows themselves are what the products read; with the
   * Gram matrix from the row pairs, they need no pass of their own. */
  if (ok && !write)
    lcl->xs = g_steal_pointer (&x);
  lcl->form = !pairs ? "floats" : lcl->quads ? "quads" : "pairs";
  if (ok && pairs && !write)
    {
      memcpy (lcl->delta, mean, d * sizeof (double));
      return lcl->quads ? TRUE : read_cov (lcl, cov, error);
    }
  ok = ok &&
       (!write || latent_cl_create_buffer (lcl->cl, &lcl->xs, CL_MEM_READ_WRITE, (gsize) n * d * sizeof (float),
                                           NULL, "shifted rows", error)) &&
       latent_cl_create_buffer (lcl->cl, &shift_buf, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                d * sizeof (float), shift, "shift", error) &&
       latent_cl_create_buffer (lcl->cl, &partial_buf, CL_MEM_WRITE_ONLY, global[1] * d * sizeof (float),
                                NULL, "partial sums", error);
  source = write ? x : lcl->xs;
  ok = ok &&
       latent_cl_set_args (lcl->shift, "linear_shift", error,
                           LATENT_CL_ARG (source), LATENT_CL_ARG (shift_buf), LATENT_CL_ARG (lcl->xs),
                           LATENT_CL_ARG (partial_buf), LATENT_CL_ARG (n), LATENT_CL_ARG (d),
                           LATENT_CL_ARG (rows_per_item), LATENT_CL_ARG (write), LATENT_CL_ARG_END) &&
       latent_cl_check (clEnqueueNDRangeKernel (lcl->queue, lcl->shift, 2, NULL, global, NULL, 0, NULL, NULL),
                        "clEnqueueNDRangeKernel", "linear_shift", error) &&
       (pairs ||
        latent_gemm_syrk (lcl->gemm, lcl->queue, d, n, 1.0f / n, lcl->xs, d, 0.0f, lcl->gram, d,
                          cancellable, error));
  if (ok)
    {
      err = clEnqueueReadBuffer (lcl->queue, partial_buf, CL_TRUE, 0, global[1] * d * sizeof (float),
                                 partial, 0, NULL, NULL);
      ok = latent_cl_check (err, "clEnqueueReadBuffer", "linear_shift", error);
    }
  if (!ok)
    clFinish (lcl->queue);
  g_clear_pointer (&x, clReleaseMemObject);
  g_clear_pointer (&shift_buf, clReleaseMemObject);
  g_clear_pointer (&partial_buf, clReleaseMemObject);
  if (!ok)
    return FALSE;

  for (guint a = 0; a < d; a++)
    {
      double sum = 0;

      for (gsize b = 0; b < global[1]; b++)
        sum += partial[b * d + a];
      lcl->delta[a] = sum / n;
      if (!pairs)
        {
          mean[a] = shift[a] + lcl->delta[a];
          lcl->gram_delta[a] = lcl->delta[a];
        }
    }
  /* The quads' covariance is already in COV, in double. */
  return pairs && lcl->quads ? TRUE : read_cov (lcl, cov, error);
}

const char *
latent_linear_cl_gram_form (LatentLinearCl *lcl)
{
  return lcl->form;
}

/* A d × cols device buffer, grown when needed. */
static gboolean
ensure (LatentLinearCl  *lcl,
        cl_mem          *buffer,
        guint           *have,
        guint            rows,
        guint            cols,
        const char      *what,
        GError         **error)
{
  if (*buffer && *have >= cols)
    return TRUE;
  g_clear_pointer (buffer, clReleaseMemObject);
  *have = 0;
  if (!latent_cl_create_buffer (lcl->cl, buffer, CL_MEM_READ_WRITE, (gsize) rows * cols * sizeof (float),
                                NULL, what, error))
    return FALSE;
  *have = cols;
  return TRUE;
}

/* S · v = (Gram − δδᵀ) · v: the device multiplies by the Gram matrix, the
 * host subtracts δ (δᵀ v). */
gboolean
latent_linear_cl_cov_times (LatentLinearCl  *lcl,
                            const double    *v,
                            guint            m,
                            double          *out,
                            GCancellable    *cancellable,
                            GError         **error)
{
  const guint d = lcl->d;
  g_autofree float *buf = g_new (float, (gsize) d * m);
  g_autofree double *dv = g_new0 (double, m);
  cl_int err;

  for (gsize i = 0; i < (gsize) d * m; i++)
    buf[i] = v[i];
  if (!ensure (lcl, &lcl->v, &lcl->v_cols, d, m, "V", error) ||
      !ensure (lcl, &lcl->out, &lcl->out_cols, d, m, "S·V", error))
    return FALSE;
  err = clEnqueueWriteBuffer (lcl->queue, lcl->v, CL_FALSE, 0, (gsize) d * m * sizeof (float), buf,
                              0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "linear", error) ||
      !latent_gemm_run (lcl->gemm, lcl->queue, FALSE, FALSE, d, m, d, 1.0f, lcl->gram, d, lcl->v, m,
                        0.0f, lcl->out, m, cancellable, error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  err = clEnqueueReadBuffer (lcl->queue, lcl->out, CL_TRUE, 0, (gsize) d * m * sizeof (float), buf,
                             0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "linear", error))
    {
      /* The upload from buf may still be pending. */
      clFinish (lcl->queue);
      return FALSE;
    }

  for (guint a = 0; a < d; a++)
    for (guint j = 0; j < m; j++)
      dv[j] += lcl->gram_delta[a] * v[(gsize) a * m + j];
  for (guint a = 0; a < d; a++)
    for (guint j = 0; j < m; j++)
      out[(gsize) a * m + j] = buf[(gsize) a * m + j] - lcl->gram_delta[a] * dv[j];
  return TRUE;
}

/* (x − mean) · et = (x − shift) · et − δᵀ et, the last term on the host. */
gboolean
latent_linear_cl_project (LatentLinearCl  *lcl,
                          const double    *et,
                          guint            m,
                          guint            dims,
                          float           *z,
                          GCancellable    *cancellable,
                          GError         **error)
{
  const guint n = lcl->n, d = lcl->d;
  g_autofree float *buf = g_new (float, (gsize) d * dims);
  g_autofree double *offset = g_new0 (double, dims);
  cl_int err;

  for (guint a = 0; a < d; a++)
    for (guint j = 0; j < dims; j++)
      {
        buf[(gsize) a * dims + j] = et[(gsize) a * m + j];
        offset[j] += lcl->delta[a] * et[(gsize) a * m + j];
      }
  if (!ensure (lcl, &lcl->et, &lcl->et_cols, d, dims, "Eᵀ", error) ||
      !ensure (lcl, &lcl->z, &lcl->z_cols, n, dims, "projection", error))
    return FALSE;
  err = clEnqueueWriteBuffer (lcl->queue, lcl->et, CL_FALSE, 0, (gsize) d * dims * sizeof (float), buf,
                              0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "linear", error) ||
      !latent_gemm_run (lcl->gemm, lcl->queue, FALSE, FALSE, n, dims, d, 1.0f, lcl->xs, d, lcl->et, dims,
                        0.0f, lcl->z, dims, cancellable, error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  err = clEnqueueReadBuffer (lcl->queue, lcl->z, CL_TRUE, 0, (gsize) n * dims * sizeof (float), z,
                             0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "linear", error))
    {
      clFinish (lcl->queue);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < dims; j++)
      z[(gsize) i * dims + j] -= offset[j];
  return TRUE;
}
