/* latent-wta-cl.c — the autoencoder's steps on an OpenCL device
 *
 * The rows, the parameters and the optimiser's memory stay on the device
 * for the whole run; a step uploads nothing (the epoch's row order is
 * uploaded once an epoch) and reads back the loss in a few numbers per row
 * of the batch, which the history records every step and which stops a run
 * that diverges at the step it does. The products are latent-gemm's; the
 * rest is kernels/wta.cl, whose decoding and backward pass run in
 * work-groups (a row, a unit) in the GPU shape.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-wta"

#include "latent-wta-private.h"

#include <glib/gi18n-lib.h>

#include "latent-gemm.h"

enum { K_GATHER, K_SELECT, K_COMPACT, K_DECODE, K_UNITS, K_DECODER_BIAS, N_KERNELS };

static const char * const kernel_names[N_KERNELS] = {
  "wta_gather", "wta_select", "wta_compact", "wta_decode", "wta_units", "wta_decoder_bias",
};

/* Device copies of a LatentWtaParams. */
typedef struct {
  cl_mem w, wd, b, c;
} Buffers;

/* Columns per work-item of wta_decode in the CPU shape (its VEC). */
#define DECODE_VEC 16

struct _LatentWtaCl
{
  LatentWta        *self;       /* borrowed: the state that owns this */
  LatentCl         *cl;
  LatentGemm       *gemm;
  cl_command_queue  queue;
  cl_kernel         k[N_KERNELS];
  cl_mem            data, order, offset, scale;
  cl_mem            x, zt, dzt, count, idx, val, xhat, e, partial, wins;
  Buffers           p, v, s;
  guint             blocks;     /* loss sums per row: of DECODE_VEC columns, or 1 */
  gsize             decode_wg, units_wg;   /* the GPU shape's work-groups, else 0 */
  float            *partial_host;
};

static void
release_buffers (Buffers *b)
{
  g_clear_pointer (&b->w, clReleaseMemObject);
  g_clear_pointer (&b->wd, clReleaseMemObject);
  g_clear_pointer (&b->b, clReleaseMemObject);
  g_clear_pointer (&b->c, clReleaseMemObject);
}

void
latent_wta_cl_free (LatentWtaCl *wcl)
{
  if (wcl == NULL)
    return;

  cl_mem *buffers[] = { &wcl->data, &wcl->order, &wcl->offset, &wcl->scale, &wcl->x, &wcl->zt, &wcl->dzt,
                        &wcl->count, &wcl->idx, &wcl->val, &wcl->xhat, &wcl->e, &wcl->partial, &wcl->wins };
  if (wcl->queue)
    clFinish (wcl->queue);
  for (guint i = 0; i < N_KERNELS; i++)
    if (wcl->k[i])
      clReleaseKernel (wcl->k[i]);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], clReleaseMemObject);
  release_buffers (&wcl->p);
  release_buffers (&wcl->v);
  release_buffers (&wcl->s);
  if (wcl->queue)
    clReleaseCommandQueue (wcl->queue);
  g_clear_pointer (&wcl->gemm, latent_gemm_free);
  g_clear_object (&wcl->cl);
  g_free (wcl->partial_host);
  g_free (wcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentWtaCl, latent_wta_cl_free)

/* Device copies of @host's arrays. */
static gboolean
create_buffers (LatentWtaCl            *wcl,
                Buffers                *out,
                const LatentWtaParams  *host,
                const char             *what,
                GError                **error)
{
  LatentWta *self = wcl->self;
  const gsize hd = (gsize) self->h * self->d * sizeof (float);
  const cl_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;

  return latent_cl_create_buffer (wcl->cl, &out->w, flags, hd, host->w, what, error) &&
         (self->tied || latent_cl_create_buffer (wcl->cl, &out->wd, flags, hd, host->wd, what, error)) &&
         latent_cl_create_buffer (wcl->cl, &out->b, flags, self->h * sizeof (float), host->b, what, error) &&
         latent_cl_create_buffer (wcl->cl, &out->c, flags, self->d * sizeof (float), host->c, what, error);
}

/* What `latent-cli tune` tries for wta.cl (engine/latent-tune.c): an epoch
 * of 6,000 rows of 784 columns (2,000 quick) with 1,024 units, the GPU
 * shape's decoding and backward work-groups (its products are gemm's). */
const LatentTuneJob latent_wta_cl_tune_job = {
  .program = "wta",
  .algorithm = "wta",
  .params = "hidden=1024 batch=100 epochs=1 validation=0",
  .rows = 6000,
  .cols = 784,
  .quick_rows = 2000,
  .gpu = { { "DECODE_WG", 3, { 64, 128, 256 } }, { "UNITS_WG", 4, { 32, 64, 128, 256 } } },
};

/* The kernels; in the GPU shape with work-groups of the tuned or default
 * sizes, halved until the device runs them. */
static gboolean
create_kernels (LatentWtaCl  *wcl,
                GError      **error)
{
  LatentCl *cl = wcl->cl;
  g_autofree char *options = NULL;
  gsize decode_most, units_most;

  if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
    {
      const gsize most = latent_cl_get_info (cl)->max_work_group_size;

      wcl->decode_wg = latent_cl_floor_pow2 (CLAMP (latent_cl_tunable (cl, "wta", "DECODE_WG", 128), 1, (int) MIN (most, 1024)));
      wcl->units_wg = latent_cl_floor_pow2 (CLAMP (latent_cl_tunable (cl, "wta", "UNITS_WG", 128), 1, (int) MIN (most, 1024)));
    }
  for (;;)
    {
      g_free (options);
      options = wcl->decode_wg ? g_strdup_printf ("-DDECODE_WG=%zu -DUNITS_WG=%zu", wcl->decode_wg, wcl->units_wg)
                               : NULL;
      for (guint i = 0; i < N_KERNELS; i++)
        {
          g_clear_pointer (&wcl->k[i], clReleaseKernel);
          if (!(wcl->k[i] = latent_cl_create_kernel (cl, "wta", options, kernel_names[i], error)))
            return FALSE;
        }
      if (wcl->decode_wg == 0)
        return TRUE;
      decode_most = latent_cl_kernel_group_limit (cl, wcl->k[K_DECODE]);
      units_most = latent_cl_kernel_group_limit (cl, wcl->k[K_UNITS]);
      if (decode_most >= wcl->decode_wg && units_most >= wcl->units_wg)
        return TRUE;
      if (wcl->decode_wg == 1 && wcl->units_wg == 1)
        break;
      /* A kernel that needs many registers may take fewer work-items. */
      wcl->decode_wg = MIN (wcl->decode_wg, latent_cl_floor_pow2 (decode_most));
      wcl->units_wg = MIN (wcl->units_wg, latent_cl_floor_pow2 (units_most));
    }
  g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
               _("autoencoder: %s runs no work-group of the decoding and backward kernels"),
               latent_cl_get_info (cl)->name);
  return FALSE;
}

LatentWtaCl *
latent_wta_cl_new (LatentWta  *self,
                   LatentCl   *cl,
                   GError    **error)
{
  g_autoptr(LatentWtaCl) wcl = g_new0 (LatentWtaCl, 1);
  const gsize n = self->n, d = self->d, h = self->h, batch = self->batch;
  const guint64 data_bytes = (guint64) n * d * sizeof (float);
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  g_autofree guint *zeros = g_new0 (guint, h);
  LatentChunk all;
  const struct { cl_mem *mem; gsize size; const char *what; } scratch[] = {
    { &wcl->x, batch * d, "mini-batch" },
    { &wcl->zt, h * batch, "codes" },
    { &wcl->dzt, h * batch, "code gradients" },
    { &wcl->count, batch, "winner counts" },
    { &wcl->idx, batch * h, "winners" },   /* per row, then per unit */
    { &wcl->val, batch * h, "winners" },
    { &wcl->xhat, batch * d, "reconstructions" },
    { &wcl->e, batch * d, "errors" },
  };

  if (data_bytes > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("%u rows × %u columns need a larger buffer than %s allows"), self->n, self->d, info->name);
      return NULL;
    }
  wcl->self = self;
  wcl->cl = g_object_ref (cl);
  if (!(wcl->gemm = latent_gemm_new (cl, error)) || !(wcl->queue = latent_cl_create_queue (cl, error)) ||
      !create_kernels (wcl, error))
    return NULL;
  wcl->blocks = wcl->decode_wg ? 1 : (d + DECODE_VEC - 1) / DECODE_VEC;
  wcl->partial_host = g_new (float, batch * wcl->blocks);
  /* Every scratch array is of 4-byte values: floats or uints. */
  for (guint i = 0; i < G_N_ELEMENTS (scratch); i++)
    if (!latent_cl_create_buffer (cl, scratch[i].mem, CL_MEM_READ_WRITE, scratch[i].size * 4, NULL,
                                  scratch[i].what, error))
      return NULL;
  /* The rows in place, from the source's one chunk of them all: the
   * dataset behind it outlives this and its memory is aligned for the
   * device. */
  g_return_val_if_fail (latent_rows_is_whole (self->rows, self->dataset), NULL);
  if (!latent_rows_get_chunk (self->rows, 0, &all, error) ||
      !latent_cl_create_buffer (cl, &wcl->data, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, data_bytes,
                                (gpointer) all.values, "rows", error) ||
      !latent_cl_create_buffer (cl, &wcl->order, CL_MEM_READ_ONLY, n * sizeof (guint), NULL, "row order", error) ||
      !latent_cl_create_buffer (cl, &wcl->offset, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->offset, "input offset", error) ||
      !latent_cl_create_buffer (cl, &wcl->scale, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->scale, "input scale", error) ||
      !latent_cl_create_buffer (cl, &wcl->partial, CL_MEM_WRITE_ONLY, batch * wcl->blocks * sizeof (float), NULL,
                                "losses", error) ||
      !latent_cl_create_buffer (cl, &wcl->wins, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h * sizeof (guint),
                                zeros, "wins", error) ||
      !create_buffers (wcl, &wcl->p, &self->p, "weights", error) ||
      !create_buffers (wcl, &wcl->v, &self->v, "optimiser memory", error) ||
      (self->adam && !create_buffers (wcl, &wcl->s, &self->s, "optimiser memory", error)))
    return NULL;
  return g_steal_pointer (&wcl);
}

static gboolean
enqueue (LatentWtaCl  *wcl,
         guint         kernel,
         guint         dims,
         const gsize  *global,
         const gsize  *local,
         GError      **error)
{
  return latent_cl_check (clEnqueueNDRangeKernel (wcl->queue, wcl->k[kernel], dims, NULL, global, local,
                                                  0, NULL, NULL),
                          "clEnqueueNDRangeKernel", kernel_names[kernel], error);
}

gboolean
latent_wta_cl_set_order (LatentWtaCl  *wcl,
                         const guint  *order,
                         guint         count,
                         GError      **error)
{
  /* Blocking: the host reshuffles its copy next epoch. */
  return latent_cl_check (clEnqueueWriteBuffer (wcl->queue, wcl->order, CL_TRUE, 0, count * sizeof (guint),
                                                order, 0, NULL, NULL),
                          "clEnqueueWriteBuffer", "row order", error);
}

gboolean
latent_wta_cl_reset_wins (LatentWtaCl  *wcl,
                          GError      **error)
{
  const cl_uint zero = 0;

  return latent_cl_check (clEnqueueFillBuffer (wcl->queue, wcl->wins, &zero, sizeof zero, 0,
                                               wcl->self->h * sizeof (cl_uint), 0, NULL, NULL),
                          "clEnqueueFillBuffer", "wins", error);
}

/* x, then the codes zt = winners of ReLU(W xᵀ + b), each row's winners as
 * a list, then x̂ = c + codes · W_d with e = (x̂ − x) / rows and the
 * partial losses, read back without waiting: a step queues its backward
 * pass before the host waits for them. */
static gboolean
forward (LatentWtaCl   *wcl,
         guint          first,
         guint          rows,
         GCancellable  *cancellable,
         GError       **error)
{
  LatentWta *self = wcl->self;
  const cl_uint d = self->d, h = self->h, n_rows = rows, k = latent_wta_batch_winners (self, rows);
  const gboolean lifetime = self->sparsity == LATENT_WTA_LIFETIME;
  const cl_uint groups = lifetime ? h : rows, count = lifetime ? rows : h;
  const cl_uint inner = lifetime ? 1 : rows, outer = lifetime ? rows : 1, per_group = lifetime;
  const cl_uint first_row = first;
  const cl_float inv_rows = 1.0f / rows;
  const gsize gather[2] = { d, rows }, select[1] = { groups }, per_row[1] = { rows };
  /* A work-group per row in the GPU shape, else a work-item per block. */
  const gsize decode[2] = { wcl->decode_wg ? wcl->decode_wg : wcl->blocks, rows };
  const gsize decode_local[2] = { wcl->decode_wg, 1 };
  cl_mem wd = self->tied ? wcl->p.w : wcl->p.wd;

  return latent_cl_set_args (wcl->k[K_GATHER], kernel_names[K_GATHER], error,
                             LATENT_CL_ARG (wcl->data), LATENT_CL_ARG (wcl->order), LATENT_CL_ARG (first_row),
                             LATENT_CL_ARG (d), LATENT_CL_ARG (wcl->offset), LATENT_CL_ARG (wcl->scale),
                             LATENT_CL_ARG (wcl->x), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_GATHER, 2, gather, NULL, error) &&
         latent_gemm_run (wcl->gemm, wcl->queue, FALSE, TRUE, h, rows, d, 1.0f, wcl->p.w, d, wcl->x, d,
                          0.0f, wcl->zt, rows, cancellable, error) &&
         latent_cl_set_args (wcl->k[K_SELECT], kernel_names[K_SELECT], error,
                             LATENT_CL_ARG (wcl->zt), LATENT_CL_ARG (wcl->p.b), LATENT_CL_ARG (groups),
                             LATENT_CL_ARG (count), LATENT_CL_ARG (inner), LATENT_CL_ARG (outer),
                             LATENT_CL_ARG (per_group), LATENT_CL_ARG (k), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_SELECT, 1, select, NULL, error) &&
         latent_cl_set_args (wcl->k[K_COMPACT], kernel_names[K_COMPACT], error,
                             LATENT_CL_ARG (wcl->zt), LATENT_CL_ARG (h), LATENT_CL_ARG (n_rows),
                             LATENT_CL_ARG (wcl->count), LATENT_CL_ARG (wcl->idx), LATENT_CL_ARG (wcl->val),
                             LATENT_CL_ARG_END) &&
         enqueue (wcl, K_COMPACT, 1, per_row, NULL, error) &&
         latent_cl_set_args (wcl->k[K_DECODE], kernel_names[K_DECODE], error,
                             LATENT_CL_ARG (wcl->count), LATENT_CL_ARG (wcl->idx), LATENT_CL_ARG (wcl->val),
                             LATENT_CL_ARG (wd), LATENT_CL_ARG (wcl->p.c), LATENT_CL_ARG (wcl->x),
                             LATENT_CL_ARG (wcl->xhat), LATENT_CL_ARG (wcl->e), LATENT_CL_ARG (wcl->partial),
                             LATENT_CL_ARG (h), LATENT_CL_ARG (d), LATENT_CL_ARG (inv_rows), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_DECODE, 2, decode, wcl->decode_wg ? decode_local : NULL, error) &&
         latent_cl_check (clEnqueueReadBuffer (wcl->queue, wcl->partial, CL_FALSE, 0,
                                               (gsize) rows * wcl->blocks * sizeof (float), wcl->partial_host,
                                               0, NULL, NULL),
                          "clEnqueueReadBuffer", "losses", error);
}

static double
finish_loss (LatentWtaCl *wcl,
             guint        rows)
{
  double sum = 0;

  for (gsize i = 0; i < (gsize) rows * wcl->blocks; i++)
    sum += wcl->partial_host[i];
  return 0.5 * sum / rows;
}

gboolean
latent_wta_cl_step (LatentWtaCl   *wcl,
                    guint          first,
                    guint          rows,
                    double        *loss,
                    GCancellable  *cancellable,
                    GError       **error)
{
  LatentWta *self = wcl->self;
  const cl_uint d = self->d, h = self->h, n_rows = rows, tied = self->tied, adam = self->adam;
  /* A work-group per unit in the GPU shape, else a work-item. */
  const gsize units[1] = { wcl->units_wg ? h * wcl->units_wg : h }, columns[1] = { d };
  /* Unused arguments still take a buffer: the encoder's own. */
  cl_mem wd = tied ? wcl->p.w : wcl->p.wd, vwd = tied ? wcl->v.w : wcl->v.wd;
  cl_mem sw = adam ? wcl->s.w : wcl->v.w, swd = adam ? (tied ? wcl->s.w : wcl->s.wd) : vwd;
  cl_mem sb = adam ? wcl->s.b : wcl->v.b, sc = adam ? wcl->s.c : wcl->v.c;
  cl_float lr = self->learning_rate, mu = self->momentum, eps = 0;

  if (adam)
    latent_wta_adam_factors (self, &lr, &eps);
  if (!forward (wcl, first, rows, cancellable, error) ||
      !latent_cl_set_args (wcl->k[K_UNITS], kernel_names[K_UNITS], error,
                           LATENT_CL_ARG (wcl->zt), LATENT_CL_ARG (wcl->dzt), LATENT_CL_ARG (wcl->idx),
                           LATENT_CL_ARG (wcl->e),
                           LATENT_CL_ARG (wcl->x), LATENT_CL_ARG (wcl->p.w), LATENT_CL_ARG (wd),
                           LATENT_CL_ARG (wcl->p.b), LATENT_CL_ARG (wcl->v.w), LATENT_CL_ARG (vwd),
                           LATENT_CL_ARG (wcl->v.b), LATENT_CL_ARG (sw), LATENT_CL_ARG (swd), LATENT_CL_ARG (sb),
                           LATENT_CL_ARG (wcl->wins), LATENT_CL_ARG (h), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (d),
                           LATENT_CL_ARG (tied), LATENT_CL_ARG (lr), LATENT_CL_ARG (mu), LATENT_CL_ARG (eps),
                           LATENT_CL_ARG (adam), LATENT_CL_ARG_END) ||
      !enqueue (wcl, K_UNITS, 1, units, wcl->units_wg ? &wcl->units_wg : NULL, error) ||
      !latent_cl_set_args (wcl->k[K_DECODER_BIAS], kernel_names[K_DECODER_BIAS], error,
                           LATENT_CL_ARG (wcl->e), LATENT_CL_ARG (wcl->p.c), LATENT_CL_ARG (wcl->v.c),
                           LATENT_CL_ARG (sc), LATENT_CL_ARG (n_rows), LATENT_CL_ARG (d), LATENT_CL_ARG (lr),
                           LATENT_CL_ARG (mu), LATENT_CL_ARG (eps), LATENT_CL_ARG (adam), LATENT_CL_ARG_END) ||
      !enqueue (wcl, K_DECODER_BIAS, 1, columns, NULL, error) ||
      !latent_cl_check (clFinish (wcl->queue), "clFinish", "wta", error))
    {
      clFinish (wcl->queue);
      return FALSE;
    }
  *loss = finish_loss (wcl, rows);
  return TRUE;
}

gboolean
latent_wta_cl_forward (LatentWtaCl   *wcl,
                       guint          first,
                       guint          rows,
                       double        *loss,
                       float         *xhat,
                       GCancellable  *cancellable,
                       GError       **error)
{
  const gsize bytes = (gsize) rows * wcl->self->d * sizeof (float);

  if (!forward (wcl, first, rows, cancellable, error) ||
      (xhat && !latent_cl_check (clEnqueueReadBuffer (wcl->queue, wcl->xhat, CL_FALSE, 0, bytes, xhat,
                                                      0, NULL, NULL),
                                 "clEnqueueReadBuffer", "reconstructions", error)) ||
      !latent_cl_check (clFinish (wcl->queue), "clFinish", "wta", error))
    {
      clFinish (wcl->queue);
      return FALSE;
    }
  *loss = finish_loss (wcl, rows);
  return TRUE;
}

static gboolean
read_buffers (LatentWtaCl      *wcl,
              Buffers          *from,
              LatentWtaParams  *to,
              GError          **error)
{
  LatentWta *self = wcl->self;
  const gsize hd = (gsize) self->h * self->d * sizeof (float);

#define READ(buf, host, size) \
  latent_cl_check (clEnqueueReadBuffer (wcl->queue, buf, CL_FALSE, 0, size, host, 0, NULL, NULL), \
                   "clEnqueueReadBuffer", "weights", error)
  return READ (from->w, to->w, hd) &&
         (self->tied || READ (from->wd, to->wd, hd)) &&
         READ (from->b, to->b, self->h * sizeof (float)) &&
         READ (from->c, to->c, self->d * sizeof (float));
#undef READ
}

gboolean
latent_wta_cl_read (LatentWtaCl  *wcl,
                    gboolean      optimiser,
                    GError      **error)
{
  LatentWta *self = wcl->self;

  if (!read_buffers (wcl, &wcl->p, &self->p, error) ||
      (optimiser && !read_buffers (wcl, &wcl->v, &self->v, error)) ||
      (optimiser && self->adam && !read_buffers (wcl, &wcl->s, &self->s, error)) ||
      !latent_cl_check (clEnqueueReadBuffer (wcl->queue, wcl->wins, CL_FALSE, 0, self->h * sizeof (guint),
                                             self->wins, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "wins", error) ||
      !latent_cl_check (clFinish (wcl->queue), "clFinish", "wta", error))
    {
      clFinish (wcl->queue);
      return FALSE;
    }
  return TRUE;
}
