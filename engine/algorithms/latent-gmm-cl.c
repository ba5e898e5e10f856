/* latent-gmm-cl.c — the two passes of GMM-EM on an OpenCL device
 *
 * The rows go to the device once, in blocks of LANES rows stored feature by
 * feature (see kernels/gmm.cl). Each expect pass uploads the parameters as
 * floats, runs gmm_expect and reads back the responsibilities and the
 * per-work-item sums, which the host adds up in double. The
 * responsibilities stay on the device for the scatter pass that follows.
 * One program per (d, covariance type): with d known when building, the
 * loops over features unroll.
 *
 * The GPU shape (latent_cl_get_shape) keeps x feature by feature, runs a
 * row per work-item, and adds up the sums in tiles per work-group and then
 * across work-groups on the device (kernels/gmm.cl): the host reads back
 * only the responsibilities and the final k × (d + 1) sums, or the final
 * scatter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-gmm"

#include "latent-gmm-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* Up to this many features, d is compiled into the program. */
#define MAX_DIMS 64
/* Partial sums beyond this size make fewer, longer work-items. */
#define PARTIAL_BUDGET (G_GUINT64_CONSTANT (256) << 20)

struct _LatentGmmCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         expect;
  cl_kernel         scatter;
  guint             lanes, nb, items, bpi, pairs;
  gsize             local;
  gboolean          resp_on_device;   /* an expect pass ran: scatter may follow */

  cl_mem            x, means, factor, offset, resp, scratch;
  cl_mem            part_nk, part_sx, part_ll, part_scatter;

  float            *host_means;       /* k × d */
  float            *host_factor;      /* k × d × d (full) or k × d */
  float            *host_offset;      /* k: log w − ½ (d log 2π + log |Σ|) */
  float            *host_nk;          /* items × k */
  float            *host_sx;          /* items × k × d */
  float            *host_ll;          /* items × 2 × lanes */
  float            *host_scatter;     /* items × k × pairs */

  /* The GPU shape: x is d × stride; resp stride × k; the sum kernels'
   * partials chunks × outs, reduced to final (hi, lo pairs). */
  gboolean          gpu;
  cl_kernel         rows, sums, scatter_gpu, reduce, reduce_tree;
  cl_mem            lp, part, final, part_ll_gpu, final_ll;
  guint             stride, expect_wg, chunks, rows_per_chunk, reduce_wg;
  guint             sum_lp, sum_lq, tile_p, tile_q;
  gsize             max_outs;
  float            *host_final;       /* 2 × max_outs */
};

void
latent_gmm_cl_free (LatentGmmCl *gcl)
{
  if (gcl == NULL)
    return;

  cl_mem *buffers[] = { &gcl->x, &gcl->means, &gcl->factor, &gcl->offset, &gcl->resp, &gcl->scratch,
                        &gcl->part_nk, &gcl->part_sx, &gcl->part_ll, &gcl->part_scatter,
                        &gcl->lp, &gcl->part, &gcl->final, &gcl->part_ll_gpu, &gcl->final_ll };
  cl_kernel *kernels[] = { &gcl->expect, &gcl->scatter, &gcl->rows, &gcl->sums, &gcl->scatter_gpu,
                           &gcl->reduce, &gcl->reduce_tree };

  /* A step that failed half-way may leave copies queued from host arrays:
   * they must land before the arrays go. */
  if (gcl->queue)
    clFinish (gcl->queue);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    if (*buffers[i])
      clReleaseMemObject (*buffers[i]);
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    if (*kernels[i])
      clReleaseKernel (*kernels[i]);
  if (gcl->queue)
    clReleaseCommandQueue (gcl->queue);
  g_clear_object (&gcl->cl);
  g_free (gcl->host_means);
  g_free (gcl->host_factor);
  g_free (gcl->host_offset);
  g_free (gcl->host_nk);
  g_free (gcl->host_sx);
  g_free (gcl->host_ll);
  g_free (gcl->host_scatter);
  g_free (gcl->host_final);
  g_free (gcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentGmmCl, latent_gmm_cl_free)

/* Rows per vector: a CPU device fills its SIMD lanes with 16 rows from one
 * work-item; a GPU runs a row per work-item. LATENT_GMM_LANES=1|4|8|16
 * overrides, so tests reach every variant on any device. */
static guint
choose_lanes (const LatentClDeviceInfo *info)
{
  const char *value = g_getenv ("LATENT_GMM_LANES");

  if (value != NULL)
    {
      guint64 lanes = g_ascii_strtoull (value, NULL, 10);

      if (lanes == 1 || lanes == 4 || lanes == 8 || lanes == 16)
        return lanes;
      g_warning ("LATENT_GMM_LANES=%s: expected 1, 4, 8 or 16; ignored", value);
    }
  return info->type & CL_DEVICE_TYPE_CPU ? 16 : 1;
}

/* Fails when KERNEL cannot run work-groups of WANTED work-items here. */
static gboolean
check_group (LatentCl    *cl,
             cl_kernel    kernel,
             const char  *name,
             gsize        wanted,
             GError     **error)
{
  const gsize most = latent_cl_kernel_group_limit (cl, kernel);

  if (most < wanted)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("Gaussian mixture: %s runs work-groups of at most %zu work-items here, not %zu"),
                   name, most, wanted);
      return FALSE;
    }
  return TRUE;
}

/* Options both shapes' programs take: the covariance type, sums in float
 * on request (LATENT_GMM_FP64=0, as on a device without doubles), and the
 * dimension compiled in when small. */
static char *
shared_options (const LatentGmm *self)
{
  g_autofree char *dims = self->d <= MAX_DIMS ? g_strdup_printf (" -DDIMS=%u", self->d) : g_strdup ("");

  return g_strdup_printf ("-DCOVARIANCE=%d%s%s", (int) self->covariance,
                          g_strcmp0 (g_getenv ("LATENT_GMM_FP64"), "0") == 0 ? " -DNO_FP64" : "", dims);
}

/* The parameters' host copies and device buffers, the same in both shapes. */
static gboolean
create_parameters (LatentGmmCl  *gcl,
                   LatentGmm    *self,
                   GError      **error)
{
  const guint d = self->d, k = self->k;
  const gsize factor = self->covariance == LATENT_COVARIANCE_FULL ? (gsize) k * d * d : (gsize) k * d;

  gcl->host_means = g_new0 (float, (gsize) k * d);
  gcl->host_factor = g_new0 (float, factor);
  gcl->host_offset = g_new0 (float, k);
  return latent_cl_create_buffer (gcl->cl, &gcl->means, CL_MEM_READ_ONLY, (gsize) k * d * sizeof (float), NULL,
                                  "means", error) &&
         latent_cl_create_buffer (gcl->cl, &gcl->factor, CL_MEM_READ_ONLY, factor * sizeof (float), NULL,
                                  "factor", error) &&
         latent_cl_create_buffer (gcl->cl, &gcl->offset, CL_MEM_READ_ONLY, k * sizeof (float), NULL,
                                  "offset", error);
}

static void
set_too_large (GError                   **error,
               const LatentGmm           *self,
               const LatentClDeviceInfo  *info)
{
  g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
               _("Gaussian mixture: %u rows × %u columns with k = %u need a larger buffer than %s allows"),
               self->n, self->d, self->k, info->name);
}

/* What `latent-cli tune` tries for gmm.cl (engine/latent-tune.c): six
 * EM steps with full covariances over 60,000 blobs of 16 columns (4,000
 * quick), the GPU shape's work-groups; the CPU shape's vector width
 * follows the device and is not tuned. */
const LatentTuneJob latent_gmm_cl_tune_job = {
  .program = "gmm",
  .algorithm = "gmm",
  .params = "k=10 max-iterations=6 tol=0 covariance=full",
  .rows = 60000,
  .cols = 16,
  .quick_rows = 4000,
  .gpu = { { "EXPECT_WG", 3, { 64, 128, 256 } }, { "SUM_ROWS", 3, { 16, 32, 64 } } },
};

/* The GPU shape's programs, sizes and buffers (see kernels/gmm.cl). */
static gboolean
gpu_new (LatentGmmCl  *gcl,
         LatentGmm    *self,
         LatentCl     *cl,
         GError      **error)
{
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  const guint n = self->n, d = self->d, k = self->k;
  const gboolean full = self->covariance == LATENT_COVARIANCE_FULL;
  const guint max_wg = MAX (1, MIN (info->max_work_group_size, 1024));
  const guint expect_wg = latent_cl_floor_pow2 (CLAMP (latent_cl_tunable (cl, "gmm", "EXPECT_WG", 128), 1, (int) max_wg));
  const guint resp_stage = CLAMP (latent_cl_tunable (cl, "gmm", "RESP_STAGE", 16), 1, 256);
  const guint sum_rows = latent_cl_floor_pow2 (CLAMP (latent_cl_tunable (cl, "gmm", "SUM_ROWS", 32), 1, 1024));
  guint tile_p = CLAMP (latent_cl_tunable (cl, "gmm", "SUM_TILE_P", 16), 1, 256);
  guint tile_q = CLAMP (latent_cl_tunable (cl, "gmm", "SUM_TILE_Q", 16), 1, 256);
  guint block_p = CLAMP (latent_cl_tunable (cl, "gmm", "SUM_BLOCK_P", 2), 1, 16);
  guint block_q = CLAMP (latent_cl_tunable (cl, "gmm", "SUM_BLOCK_Q", 2), 1, 16);
  const guint chunk_rows = CLAMP (latent_cl_tunable (cl, "gmm", "CHUNK_ROWS", 256), 1, 1 << 24);
  const guint reduce_wg = latent_cl_floor_pow2 (CLAMP (latent_cl_tunable (cl, "gmm", "REDUCE_WG", 256), 1, (int) max_wg));
  const guint unroll_max = CLAMP (latent_cl_tunable (cl, "gmm", "UNROLL_MAX", 31), 0, MAX_DIMS);
  const gsize f = sizeof (float);
  guint64 budget, expect_local, sum_local, partial_bytes;
  g_autofree char *shared = NULL;
  g_autofree char *options = NULL;
  g_autofree float *columns = NULL;
  guint groups;

  /* A block that does not divide its tile is one row or column wide. */
  if (tile_p % block_p != 0)
    block_p = 1;
  if (tile_q % block_q != 0)
    block_q = 1;
  gcl->gpu = TRUE;
  gcl->expect_wg = expect_wg;
  gcl->reduce_wg = reduce_wg;
  gcl->tile_p = tile_p;
  gcl->tile_q = tile_q;
  gcl->sum_lp = tile_p / block_p;
  gcl->sum_lq = tile_q / block_q;
  /* Rows padded to whole row groups and tiles (both powers of two). */
  gcl->stride = (n + MAX (expect_wg, sum_rows) - 1) / MAX (expect_wg, sum_rows) * MAX (expect_wg, sum_rows);
  gcl->max_outs = MAX ((gsize) k * (d + 1), full ? (gsize) k * d * d : (gsize) k * d);

  /* Chunks of rows for the sums: as many as CHUNK_ROWS gives, fewer when
   * their partial sums would outgrow the budget. */
  budget = MIN (info->max_alloc, PARTIAL_BUDGET);
  gcl->rows_per_chunk = (MIN (chunk_rows, gcl->stride) + sum_rows - 1) / sum_rows * sum_rows;
  gcl->chunks = (gcl->stride + gcl->rows_per_chunk - 1) / gcl->rows_per_chunk;
  if ((guint64) gcl->chunks * gcl->max_outs * f > budget)
    {
      const guint64 most = MAX (1, budget / (gcl->max_outs * f));

      gcl->rows_per_chunk = ((gcl->stride + most - 1) / most + sum_rows - 1) / sum_rows * sum_rows;
      gcl->chunks = (gcl->stride + gcl->rows_per_chunk - 1) / gcl->rows_per_chunk;
    }
  groups = gcl->stride / expect_wg;

  partial_bytes = (guint64) gcl->chunks * gcl->max_outs * f;
  expect_local = ((guint64) expect_wg * (resp_stage + 2) + (d <= MAX_DIMS ? (guint64) d + (full ? (guint64) d * d : d) : 0)) * f;
  sum_local = (guint64) sum_rows * (tile_p + tile_q + 3) * f;
  if (partial_bytes > info->max_alloc || (guint64) d * gcl->stride * f > info->max_alloc ||
      (guint64) k * gcl->stride * f > info->max_alloc || n > G_MAXINT32 - 2048)
    {
      set_too_large (error, self, info);
      return FALSE;
    }
  if (expect_local > info->local_mem_size || sum_local > info->local_mem_size)
    {
      g_autofree char *need = g_format_size (MAX (expect_local, sum_local));
      g_autofree char *have = g_format_size (info->local_mem_size);

      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("Gaussian mixture: the kernels need %s of local memory, %s has %s"),
                   need, info->name, have);
      return FALSE;
    }

  shared = shared_options (self);
  options = g_strdup_printf ("%s -DEXPECT_WG=%u -DRESP_STAGE=%u -DSUM_ROWS=%u -DSUM_TILE_P=%u "
                             "-DSUM_TILE_Q=%u -DSUM_BLOCK_P=%u -DSUM_BLOCK_Q=%u -DREDUCE_WG=%u -DUNROLL_MAX=%u",
                             shared, expect_wg, resp_stage, sum_rows, tile_p, tile_q, block_p, block_q, reduce_wg,
                             unroll_max);
  if (!(gcl->rows = latent_cl_create_kernel (cl, "gmm", options, "gmm_expect_rows", error)) ||
      !(gcl->sums = latent_cl_create_kernel (cl, "gmm", options, "gmm_sums", error)) ||
      !(gcl->scatter_gpu = latent_cl_create_kernel (cl, "gmm", options, full ? "gmm_scatter_full" : "gmm_scatter_diag",
                                                    error)) ||
      !(gcl->reduce = latent_cl_create_kernel (cl, "gmm", options, "gmm_reduce", error)) ||
      !(gcl->reduce_tree = latent_cl_create_kernel (cl, "gmm", options, "gmm_reduce_tree", error)) ||
      !check_group (cl, gcl->rows, "gmm_expect_rows", expect_wg, error) ||
      !check_group (cl, gcl->sums, "gmm_sums", gcl->sum_lp * gcl->sum_lq, error) ||
      !check_group (cl, gcl->scatter_gpu, "gmm_scatter", gcl->sum_lp * gcl->sum_lq, error) ||
      !check_group (cl, gcl->reduce_tree, "gmm_reduce_tree", reduce_wg, error) ||
      !(gcl->queue = latent_cl_create_queue (cl, error)))
    return FALSE;

  /* Rows to columns: feature f of row i at f · stride + i; padding 0. */
  columns = g_new0 (float, (gsize) d * gcl->stride);
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < d; c++)
      columns[(gsize) c * gcl->stride + i] = self->x[(gsize) i * d + c];

  gcl->host_final = g_new (float, 2 * gcl->max_outs);
  if (!create_parameters (gcl, self, error) ||
      !latent_cl_create_buffer (cl, &gcl->x, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (gsize) d * gcl->stride * f,
                                columns, "x", error) ||
      !latent_cl_create_buffer (cl, &gcl->lp, CL_MEM_READ_WRITE, (gsize) k * gcl->stride * f, NULL, "lp", error) ||
      !latent_cl_create_buffer (cl, &gcl->resp, CL_MEM_READ_WRITE, (gsize) gcl->stride * k * f, NULL, "resp",
                                error) ||
      !latent_cl_create_buffer (cl, &gcl->scratch, CL_MEM_READ_WRITE,
                                full && d > MAX_DIMS ? (gsize) d * gcl->stride * f : f, NULL, "scratch", error) ||
      !latent_cl_create_buffer (cl, &gcl->part, CL_MEM_READ_WRITE, partial_bytes, NULL, "part", error) ||
      !latent_cl_create_buffer (cl, &gcl->final, CL_MEM_READ_WRITE, 2 * gcl->max_outs * f, NULL, "final", error) ||
      !latent_cl_create_buffer (cl, &gcl->part_ll_gpu, CL_MEM_READ_WRITE, groups * f, NULL, "part_ll", error) ||
      !latent_cl_create_buffer (cl, &gcl->final_ll, CL_MEM_READ_WRITE, 2 * f, NULL, "final_ll", error))
    return FALSE;

  g_debug ("GPU shape: %u rows padded to %u, %u row groups of %u, %u chunks of %u rows, options “%s”",
           n, gcl->stride, groups, expect_wg, gcl->chunks, gcl->rows_per_chunk, options);
  return TRUE;
}

LatentGmmCl *
latent_gmm_cl_new (LatentGmm  *self,
                   LatentCl   *cl,
                   GError    **error)
{
  g_autoptr(LatentGmmCl) gcl = NULL;
  const LatentClDeviceInfo *info;
  const guint n = self ? self->n : 0, d = self ? self->d : 0, k = self ? self->k : 0;
  const gboolean full = self && self->covariance == LATENT_COVARIANCE_FULL;
  g_autofree char *shared = NULL;
  g_autofree char *options = NULL;
  g_autofree float *blocked = NULL;
  guint64 budget, partial_bytes, x_bytes, resp_bytes;
  guint tile;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (LATENT_IS_CL (cl), NULL);
  g_return_val_if_fail (self->x != NULL && n > 0 && d > 0 && k > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = latent_cl_get_info (cl);
  gcl = g_new0 (LatentGmmCl, 1);
  gcl->cl = g_object_ref (cl);
  if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
    return gpu_new (gcl, self, cl, error) ? g_steal_pointer (&gcl) : NULL;
  gcl->lanes = choose_lanes (info);
  gcl->nb = (n + gcl->lanes - 1) / gcl->lanes;
  gcl->pairs = full ? d * (d + 1) / 2 : d;

  /* A CPU device runs a work-group on one thread: one item per group and a
   * few groups per core keep the cores balanced. */
  if (info->type & CL_DEVICE_TYPE_CPU)
    {
      gcl->local = 1;
      gcl->items = MAX (4, 8 * info->compute_units);
      tile = 256;
    }
  else
    {
      gcl->local = 64;
      gcl->items = 64 * MAX (1, info->compute_units);
      tile = 32;
    }

  /* Each item keeps k × pairs partial sums: with many features, fewer items. */
  budget = MIN (info->max_alloc, PARTIAL_BUDGET);
  gcl->items = MIN (gcl->items, MAX (1, budget / ((guint64) k * MAX (gcl->pairs, d) * sizeof (float))));
  gcl->bpi = (gcl->nb + gcl->items - 1) / gcl->items;
  gcl->items = (gcl->nb + gcl->bpi - 1) / gcl->bpi;
  gcl->items = (gcl->items + gcl->local - 1) / gcl->local * gcl->local;

  partial_bytes = (guint64) gcl->items * k * MAX (gcl->pairs, d) * sizeof (float);
  x_bytes = (guint64) gcl->nb * d * gcl->lanes * sizeof (float);
  resp_bytes = (guint64) gcl->nb * k * gcl->lanes * sizeof (float);
  /* The kernels compare row numbers as int. */
  if (partial_bytes > info->max_alloc || x_bytes > info->max_alloc || resp_bytes > info->max_alloc ||
      n > G_MAXINT32 - 16)
    {
      set_too_large (error, self, info);
      return NULL;
    }

  shared = shared_options (self);
  options = g_strdup_printf ("%s -DLANES=%u -DTILE=%u", shared, gcl->lanes, tile);
  if (!(gcl->expect = latent_cl_create_kernel (cl, "gmm", options, "gmm_expect", error)) ||
      !(gcl->scatter = latent_cl_create_kernel (cl, "gmm", options, "gmm_scatter", error)) ||
      !(gcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;

  /* Rows to blocks of LANES, feature by feature; the padding rows stay 0. */
  blocked = g_new0 (float, (gsize) gcl->nb * d * gcl->lanes);
  for (guint i = 0; i < n; i++)
    {
      const guint b = i / gcl->lanes, lane = i % gcl->lanes;

      for (guint f = 0; f < d; f++)
        blocked[((gsize) b * d + f) * gcl->lanes + lane] = self->x[(gsize) i * d + f];
    }

  gcl->host_nk = g_new (float, (gsize) gcl->items * k);
  gcl->host_sx = g_new (float, (gsize) gcl->items * k * d);
  gcl->host_ll = g_new (float, (gsize) gcl->items * 2 * gcl->lanes);
  gcl->host_scatter = g_new (float, (gsize) gcl->items * k * gcl->pairs);

  {
    const gsize f = sizeof (float), items = gcl->items;
    /* Without DIMS the kernels keep two blocks' per-feature values here. */
    const gsize scratch = d <= MAX_DIMS ? f * gcl->lanes : items * 2 * d * gcl->lanes * f;

    if (!create_parameters (gcl, self, error) ||
        !latent_cl_create_buffer (cl, &gcl->x, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x_bytes, blocked,
                                  "x", error) ||
        !latent_cl_create_buffer (cl, &gcl->resp, CL_MEM_READ_WRITE, resp_bytes, NULL, "resp", error) ||
        !latent_cl_create_buffer (cl, &gcl->scratch, CL_MEM_READ_WRITE, scratch, NULL, "scratch", error) ||
        !latent_cl_create_buffer (cl, &gcl->part_nk, CL_MEM_WRITE_ONLY, items * k * f, NULL, "part_nk", error) ||
        !latent_cl_create_buffer (cl, &gcl->part_sx, CL_MEM_WRITE_ONLY, items * k * d * f, NULL, "part_sx", error) ||
        !latent_cl_create_buffer (cl, &gcl->part_ll, CL_MEM_WRITE_ONLY, items * 2 * gcl->lanes * f, NULL,
                                  "part_ll", error) ||
        !latent_cl_create_buffer (cl, &gcl->part_scatter, CL_MEM_WRITE_ONLY, items * k * gcl->pairs * f, NULL,
                                  "part_scatter", error))
      return NULL;
  }

  g_debug ("%u rows in %u blocks of %u, %u work-items of %u blocks, options “%s”",
           n, gcl->nb, gcl->lanes, gcl->items, gcl->bpi, options);
  return g_steal_pointer (&gcl);
}

/* The parameters as the kernel wants them: floats, the factor's diagonal
 * inverted (a multiplication per feature instead of a division), and the
 * row-independent part of each log-density folded into one offset. */
static void
prepare_parameters (LatentGmmCl *gcl,
                    LatentGmm   *self)
{
  const guint d = self->d, k = self->k;
  const double log_2pi = log (2 * G_PI);

  for (guint c = 0; c < k; c++)
    {
      const double *l = self->chol + (gsize) c * latent_covariance_values (self->covariance, d);
      const double offset = log (self->weights[c]) - 0.5 * (d * log_2pi + self->log_det[c]);

      /* An empty component (weight 0) must lose, not poison the max. */
      gcl->host_offset[c] = isfinite (offset) ? (float) offset : -1e30f;
      for (guint f = 0; f < d; f++)
        gcl->host_means[(gsize) c * d + f] = self->means[(gsize) c * d + f];

      if (self->covariance == LATENT_COVARIANCE_FULL)
        {
          float *out = gcl->host_factor + (gsize) c * d * d;

          for (guint a = 0; a < d; a++)
            {
              for (guint b = 0; b < a; b++)
                out[(gsize) a * d + b] = l[(gsize) a * d + b];
              out[(gsize) a * d + a] = 1.0 / l[(gsize) a * d + a];
            }
        }
      else
        for (guint a = 0; a < d; a++)
          gcl->host_factor[(gsize) c * d + a] = 1.0 / l[self->covariance == LATENT_COVARIANCE_DIAGONAL ? a : 0];
    }
}

/* gmm_reduce over the chunks' OUTS partial sums into final. */
static gboolean
gpu_reduce (LatentGmmCl  *gcl,
            guint         outs,
            GError      **error)
{
  const gsize local = MIN (64, latent_cl_get_info (gcl->cl)->max_work_group_size);
  const gsize global = (outs + local - 1) / local * local;
  cl_int err;

  if (!latent_cl_set_args (gcl->reduce, "gmm_reduce", error,
                           LATENT_CL_ARG (gcl->part), LATENT_CL_ARG (gcl->final), LATENT_CL_ARG (outs),
                           LATENT_CL_ARG (gcl->chunks), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->reduce, 1, NULL, &global, &local, 0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_reduce", error);
}

/* One reduced value of final: its hi + lo. */
static inline double
final_at (LatentGmmCl *gcl,
          gsize        j)
{
  return (double) gcl->host_final[2 * j] + (double) gcl->host_final[2 * j + 1];
}

/* The expect pass in the GPU shape, after the parameters' upload. */
static gboolean
gpu_expect (LatentGmmCl     *gcl,
            LatentGmm       *self,
            LatentGmmStats  *stats,
            GError         **error)
{
  const guint n = self->n, d = self->d, k = self->k;
  const guint outs = k * (d + 1), groups = gcl->stride / gcl->expect_wg;
  const gsize rows_global = gcl->stride, rows_local = gcl->expect_wg;
  const gsize sums_global[3] = { (gsize) gcl->sum_lq * ((d + 1 + gcl->tile_q - 1) / gcl->tile_q),
                                 (gsize) gcl->sum_lp * ((k + gcl->tile_p - 1) / gcl->tile_p), gcl->chunks };
  const gsize sums_local[3] = { gcl->sum_lq, gcl->sum_lp, 1 };
  const gsize tree = gcl->reduce_wg;
  float ll[2];
  float *mapped;
  cl_int err;

  if (!latent_cl_set_args (gcl->rows, "gmm_expect_rows", error,
                           LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->means), LATENT_CL_ARG (gcl->factor),
                           LATENT_CL_ARG (gcl->offset), LATENT_CL_ARG (gcl->lp), LATENT_CL_ARG (gcl->resp),
                           LATENT_CL_ARG (gcl->part_ll_gpu), LATENT_CL_ARG (gcl->scratch), LATENT_CL_ARG (n),
                           LATENT_CL_ARG (gcl->stride), LATENT_CL_ARG (d), LATENT_CL_ARG (k), LATENT_CL_ARG_END) ||
      !latent_cl_set_args (gcl->sums, "gmm_sums", error,
                           LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->resp), LATENT_CL_ARG (gcl->part),
                           LATENT_CL_ARG (gcl->stride), LATENT_CL_ARG (d), LATENT_CL_ARG (k),
                           LATENT_CL_ARG (gcl->rows_per_chunk), LATENT_CL_ARG_END) ||
      !latent_cl_set_args (gcl->reduce_tree, "gmm_reduce_tree", error,
                           LATENT_CL_ARG (gcl->part_ll_gpu), LATENT_CL_ARG (gcl->final_ll), LATENT_CL_ARG (groups),
                           LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->rows, 1, NULL, &rows_global, &rows_local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_expect_rows", error))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->sums, 3, NULL, sums_global, sums_local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_sums", error) || !gpu_reduce (gcl, outs, error))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->reduce_tree, 1, NULL, &tree, &tree, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_reduce_tree", error))
    return FALSE;

  err = clEnqueueReadBuffer (gcl->queue, gcl->final, CL_FALSE, 0, 2 * (gsize) outs * sizeof (float),
                             gcl->host_final, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (gcl->queue, gcl->final_ll, CL_FALSE, 0, sizeof ll, ll, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "gmm_expect", error))
    return FALSE;
  /* Row by row already: a plain conversion. The map waits for the rest. */
  mapped = clEnqueueMapBuffer (gcl->queue, gcl->resp, CL_TRUE, CL_MAP_READ, 0, (gsize) n * k * sizeof (float),
                               0, NULL, NULL, &err);
  if (!latent_cl_check (err, "clEnqueueMapBuffer", "gmm_expect", error))
    return FALSE;
  for (gsize i = 0; i < (gsize) n * k; i++)
    self->resp[i] = mapped[i];
  err = clEnqueueUnmapMemObject (gcl->queue, gcl->resp, mapped, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueUnmapMemObject", "gmm_expect", error))
    return FALSE;

  for (guint c = 0; c < k; c++)
    {
      stats->nk[c] = final_at (gcl, (gsize) c * (d + 1) + d);
      for (guint f = 0; f < d; f++)
        stats->sx[(gsize) c * d + f] = final_at (gcl, (gsize) c * (d + 1) + f);
    }
  stats->loglik = (double) ll[0] + (double) ll[1];
  return TRUE;
}

/* The scatter pass in the GPU shape, after the means' upload. */
static gboolean
gpu_scatter (LatentGmmCl   *gcl,
             LatentGmm     *self,
             double        *scatter,
             GError       **error)
{
  const guint d = self->d, k = self->k;
  const gboolean full = self->covariance == LATENT_COVARIANCE_FULL;
  const guint outs = full ? k * d * d : k * d;
  const gsize global[3] = { (gsize) gcl->sum_lq * ((d + gcl->tile_q - 1) / gcl->tile_q),
                            (gsize) gcl->sum_lp * (((full ? d : k) + gcl->tile_p - 1) / gcl->tile_p),
                            full ? (gsize) gcl->chunks * k : gcl->chunks };
  const gsize local[3] = { gcl->sum_lq, gcl->sum_lp, 1 };
  const char *name = full ? "gmm_scatter_full" : "gmm_scatter_diag";
  gboolean set;
  cl_int err;

  if (full)
    set = latent_cl_set_args (gcl->scatter_gpu, name, error,
                              LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->resp), LATENT_CL_ARG (gcl->means),
                              LATENT_CL_ARG (gcl->part), LATENT_CL_ARG (gcl->stride), LATENT_CL_ARG (d),
                              LATENT_CL_ARG (k), LATENT_CL_ARG (gcl->rows_per_chunk), LATENT_CL_ARG (gcl->chunks),
                              LATENT_CL_ARG_END);
  else
    set = latent_cl_set_args (gcl->scatter_gpu, name, error,
                              LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->resp), LATENT_CL_ARG (gcl->means),
                              LATENT_CL_ARG (gcl->part), LATENT_CL_ARG (gcl->stride), LATENT_CL_ARG (d),
                              LATENT_CL_ARG (k), LATENT_CL_ARG (gcl->rows_per_chunk), LATENT_CL_ARG_END);
  if (!set)
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->scatter_gpu, 3, NULL, global, local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", name, error) || !gpu_reduce (gcl, outs, error))
    return FALSE;
  err = clEnqueueReadBuffer (gcl->queue, gcl->final, CL_TRUE, 0, 2 * (gsize) outs * sizeof (float),
                             gcl->host_final, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", name, error))
    return FALSE;

  /* The lower triangles, mirrored; diagonals; or their traces. */
  memset (scatter, 0, sizeof (double) * k * latent_covariance_values (self->covariance, d));
  for (guint c = 0; c < k; c++)
    for (guint a = 0; a < d; a++)
      {
        if (full)
          for (guint b = 0; b <= a; b++)
            {
              const double v = final_at (gcl, (gsize) c * d * d + (gsize) a * d + b);

              scatter[(gsize) c * d * d + (gsize) a * d + b] = v;
              scatter[(gsize) c * d * d + (gsize) b * d + a] = v;
            }
        else if (self->covariance == LATENT_COVARIANCE_DIAGONAL)
          scatter[(gsize) c * d + a] = final_at (gcl, (gsize) c * d + a);
        else
          scatter[c] += final_at (gcl, (gsize) c * d + a);
      }
  return TRUE;
}

gboolean
latent_gmm_cl_expect (LatentGmmCl     *gcl,
                      LatentGmm       *self,
                      LatentGmmStats  *stats,
                      GCancellable    *cancellable,
                      GError         **error)
{
  const guint n = self ? self->n : 0, d = self ? self->d : 0, k = self ? self->k : 0;
  const guint lanes = gcl ? gcl->lanes : 1;
  const gboolean full = self && self->covariance == LATENT_COVARIANCE_FULL;
  gsize global, local;
  float *mapped;
  cl_int err;

  g_return_val_if_fail (gcl != NULL && self != NULL && stats != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  global = gcl->items;
  local = gcl->local;
  gcl->resp_on_device = FALSE;
  prepare_parameters (gcl, self);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  err = clEnqueueWriteBuffer (gcl->queue, gcl->means, CL_FALSE, 0, (gsize) k * d * sizeof (float),
                              gcl->host_means, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (gcl->queue, gcl->factor, CL_FALSE, 0,
                                (full ? (gsize) k * d * d : (gsize) k * d) * sizeof (float),
                                gcl->host_factor, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (gcl->queue, gcl->offset, CL_FALSE, 0, k * sizeof (float),
                                gcl->host_offset, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "gmm_expect", error))
    return FALSE;
  if (gcl->gpu)
    {
      if (!gpu_expect (gcl, self, stats, error))
        return FALSE;
      gcl->resp_on_device = TRUE;
      return TRUE;
    }

  if (!latent_cl_set_args (gcl->expect, "gmm_expect", error,
                           LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->means), LATENT_CL_ARG (gcl->factor),
                           LATENT_CL_ARG (gcl->offset), LATENT_CL_ARG (gcl->resp), LATENT_CL_ARG (gcl->part_nk),
                           LATENT_CL_ARG (gcl->part_sx), LATENT_CL_ARG (gcl->part_ll), LATENT_CL_ARG (gcl->scratch),
                           LATENT_CL_ARG (n), LATENT_CL_ARG (gcl->nb), LATENT_CL_ARG (d), LATENT_CL_ARG (k),
                           LATENT_CL_ARG (gcl->bpi), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->expect, 1, NULL, &global, &local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_expect", error))
    return FALSE;

  err = clEnqueueReadBuffer (gcl->queue, gcl->part_nk, CL_FALSE, 0, (gsize) gcl->items * k * sizeof (float),
                             gcl->host_nk, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (gcl->queue, gcl->part_sx, CL_FALSE, 0, (gsize) gcl->items * k * d * sizeof (float),
                               gcl->host_sx, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (gcl->queue, gcl->part_ll, CL_FALSE, 0,
                               (gsize) gcl->items * 2 * lanes * sizeof (float), gcl->host_ll, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "gmm_expect", error))
    return FALSE;
  /* Mapped, not read: on a CPU device the host reads the device's memory
   * without a copy. The map waits for everything queued before it. */
  mapped = clEnqueueMapBuffer (gcl->queue, gcl->resp, CL_TRUE, CL_MAP_READ, 0,
                               (gsize) gcl->nb * k * lanes * sizeof (float), 0, NULL, NULL, &err);
  if (!latent_cl_check (err, "clEnqueueMapBuffer", "gmm_expect", error))
    return FALSE;

  /* Blocks of LANES rows back to one row of k per row. */
  for (guint b = 0; b < gcl->nb; b++)
    {
      const float *block = mapped + (gsize) b * k * lanes;
      const guint rows = MIN (lanes, n - b * lanes);

      for (guint lane = 0; lane < rows; lane++)
        {
          double *row = self->resp + ((gsize) b * lanes + lane) * k;

          for (guint c = 0; c < k; c++)
            row[c] = block[(gsize) c * lanes + lane];
        }
    }

  err = clEnqueueUnmapMemObject (gcl->queue, gcl->resp, mapped, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueUnmapMemObject", "gmm_expect", error))
    return FALSE;

  memset (stats->nk, 0, sizeof (double) * k);
  memset (stats->sx, 0, sizeof (double) * k * d);
  stats->loglik = 0;
  for (guint g = 0; g < gcl->items; g++)
    {
      for (guint c = 0; c < k; c++)
        stats->nk[c] += gcl->host_nk[(gsize) g * k + c];
      for (guint i = 0; i < k * d; i++)
        stats->sx[i] += gcl->host_sx[(gsize) g * k * d + i];
      for (guint lane = 0; lane < lanes; lane++)
        stats->loglik += (double) gcl->host_ll[((gsize) g * 2) * lanes + lane] +
                         (double) gcl->host_ll[((gsize) g * 2 + 1) * lanes + lane];
    }

  gcl->resp_on_device = TRUE;
  return TRUE;
}

gboolean
latent_gmm_cl_scatter (LatentGmmCl   *gcl,
                       LatentGmm     *self,
                       const double  *means,
                       double        *scatter,
                       GCancellable  *cancellable,
                       GError       **error)
{
  const guint d = self ? self->d : 0, k = self ? self->k : 0;
  const gboolean full = self && self->covariance == LATENT_COVARIANCE_FULL;
  gsize global, local;
  cl_int err;

  g_return_val_if_fail (gcl != NULL && self != NULL && means != NULL && scatter != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!gcl->resp_on_device)
    {
      g_set_error_literal (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                           _("Gaussian mixture: the scatter pass needs the responsibilities of an expect pass"));
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  global = gcl->items;
  local = gcl->local;
  for (gsize i = 0; i < (gsize) k * d; i++)
    gcl->host_means[i] = means[i];
  err = clEnqueueWriteBuffer (gcl->queue, gcl->means, CL_FALSE, 0, (gsize) k * d * sizeof (float),
                              gcl->host_means, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "gmm_scatter", error))
    return FALSE;
  if (gcl->gpu)
    return gpu_scatter (gcl, self, scatter, error);

  if (!latent_cl_set_args (gcl->scatter, "gmm_scatter", error,
                           LATENT_CL_ARG (gcl->x), LATENT_CL_ARG (gcl->resp), LATENT_CL_ARG (gcl->means),
                           LATENT_CL_ARG (gcl->part_scatter), LATENT_CL_ARG (gcl->scratch), LATENT_CL_ARG (gcl->nb),
                           LATENT_CL_ARG (d), LATENT_CL_ARG (k), LATENT_CL_ARG (gcl->bpi), LATENT_CL_ARG_END))
    return FALSE;
  err = clEnqueueNDRangeKernel (gcl->queue, gcl->scatter, 1, NULL, &global, &local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "gmm_scatter", error))
    return FALSE;
  err = clEnqueueReadBuffer (gcl->queue, gcl->part_scatter, CL_TRUE, 0,
                             (gsize) gcl->items * k * gcl->pairs * sizeof (float), gcl->host_scatter, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "gmm_scatter", error))
    return FALSE;

  /* Packed lower triangles back to k × d × d, mirrored; diagonals to k × d,
   * or summed to a trace for spherical models. */
  memset (scatter, 0, sizeof (double) * k * latent_covariance_values (self->covariance, d));
  for (guint c = 0; c < k; c++)
    {
      guint p = 0;

      for (guint a = 0; a < d; a++)
        for (guint b = full ? 0 : a; b <= a; b++, p++)
          {
            double total = 0;

            for (guint g = 0; g < gcl->items; g++)
              total += gcl->host_scatter[((gsize) g * k + c) * gcl->pairs + p];
            if (full)
              {
                scatter[(gsize) c * d * d + (gsize) a * d + b] = total;
                scatter[(gsize) c * d * d + (gsize) b * d + a] = total;
              }
            else if (self->covariance == LATENT_COVARIANCE_DIAGONAL)
              scatter[(gsize) c * d + a] = total;
            else
              scatter[c] += total;
          }
    }
  return TRUE;
}
