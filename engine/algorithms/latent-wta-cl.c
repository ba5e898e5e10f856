/* latent-wta-cl.c — the autoencoder's steps on an OpenCL device
 *
 * The rows, the parameters and the optimiser's memory stay on the device
 * for the whole run; a step uploads nothing (the epoch's row order is
 * uploaded once an epoch) and reads back one number per row of the batch,
 * the loss, which the history records every step and which stops a run
 * that diverges at the step it does. The products are latent-gemm's; the
 * rest is kernels/wta.cl.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-wta"

#include "latent-wta-private.h"

#include <glib/gi18n-lib.h>

#include "latent-gemm.h"

enum { K_GATHER, K_SELECT, K_ERROR, K_MASK, K_SUMS, K_UPDATE, N_KERNELS };

static const char * const kernel_names[N_KERNELS] = {
  "wta_gather", "wta_select", "wta_error", "wta_mask", "wta_column_sums", "wta_update",
};

/* Device copies of a LatentWtaParams. */
typedef struct {
  cl_mem w, wd, b, c;
} Buffers;

struct _LatentWtaCl
{
  LatentWta        *self;       /* borrowed: the state that owns this */
  LatentCl         *cl;
  LatentGemm       *gemm;
  cl_command_queue  queue;
  cl_kernel         k[N_KERNELS];
  cl_mem            data, order, offset, scale;
  cl_mem            x, z, ds, xhat, e, loss, wins;
  Buffers           p, grad, v, s;
  float            *loss_host;
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
  if (wcl->queue)
    clFinish (wcl->queue);
  for (guint i = 0; i < N_KERNELS; i++)
    if (wcl->k[i])
      clReleaseKernel (wcl->k[i]);
  g_clear_pointer (&wcl->data, clReleaseMemObject);
  g_clear_pointer (&wcl->order, clReleaseMemObject);
  g_clear_pointer (&wcl->offset, clReleaseMemObject);
  g_clear_pointer (&wcl->scale, clReleaseMemObject);
  g_clear_pointer (&wcl->x, clReleaseMemObject);
  g_clear_pointer (&wcl->z, clReleaseMemObject);
  g_clear_pointer (&wcl->ds, clReleaseMemObject);
  g_clear_pointer (&wcl->xhat, clReleaseMemObject);
  g_clear_pointer (&wcl->e, clReleaseMemObject);
  g_clear_pointer (&wcl->loss, clReleaseMemObject);
  g_clear_pointer (&wcl->wins, clReleaseMemObject);
  release_buffers (&wcl->p);
  release_buffers (&wcl->grad);
  release_buffers (&wcl->v);
  release_buffers (&wcl->s);
  if (wcl->queue)
    clReleaseCommandQueue (wcl->queue);
  g_clear_pointer (&wcl->gemm, latent_gemm_free);
  g_clear_object (&wcl->cl);
  g_free (wcl->loss_host);
  g_free (wcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentWtaCl, latent_wta_cl_free)

/* Device buffers for @host's arrays (zeros where @host is NULL). */
static gboolean
create_buffers (LatentWtaCl            *wcl,
                Buffers                *out,
                const LatentWtaParams  *host,
                const char             *what,
                GError                **error)
{
  LatentWta *self = wcl->self;
  const gsize hd = (gsize) self->h * self->d * sizeof (float);
  const cl_mem_flags flags = CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0);

  return latent_cl_create_buffer (wcl->cl, &out->w, flags, hd, host ? host->w : NULL, what, error) &&
         (self->tied ||
          latent_cl_create_buffer (wcl->cl, &out->wd, flags, hd, host ? host->wd : NULL, what, error)) &&
         latent_cl_create_buffer (wcl->cl, &out->b, flags, self->h * sizeof (float), host ? host->b : NULL,
                                  what, error) &&
         latent_cl_create_buffer (wcl->cl, &out->c, flags, self->d * sizeof (float), host ? host->c : NULL,
                                  what, error);
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

  if (data_bytes > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("%u rows × %u columns need a larger buffer than %s allows"), self->n, self->d, info->name);
      return NULL;
    }
  wcl->self = self;
  wcl->cl = g_object_ref (cl);
  wcl->loss_host = g_new (float, batch);
  if (!(wcl->gemm = latent_gemm_new (cl, error)) || !(wcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;
  for (guint i = 0; i < N_KERNELS; i++)
    if (!(wcl->k[i] = latent_cl_create_kernel (cl, "wta", NULL, kernel_names[i], error)))
      return NULL;
  if (!latent_cl_create_buffer (cl, &wcl->data, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data_bytes,
                                latent_dataset_get_data (self->dataset), "rows", error) ||
      !latent_cl_create_buffer (cl, &wcl->order, CL_MEM_READ_ONLY, n * sizeof (guint), NULL, "row order", error) ||
      !latent_cl_create_buffer (cl, &wcl->offset, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->offset, "input offset", error) ||
      !latent_cl_create_buffer (cl, &wcl->scale, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d * sizeof (float),
                                self->scale, "input scale", error) ||
      !latent_cl_create_buffer (cl, &wcl->x, CL_MEM_READ_WRITE, batch * d * sizeof (float), NULL, "mini-batch",
                                error) ||
      !latent_cl_create_buffer (cl, &wcl->z, CL_MEM_READ_WRITE, batch * h * sizeof (float), NULL, "codes", error) ||
      !latent_cl_create_buffer (cl, &wcl->ds, CL_MEM_READ_WRITE, batch * h * sizeof (float), NULL,
                                "code gradients", error) ||
      !latent_cl_create_buffer (cl, &wcl->xhat, CL_MEM_READ_WRITE, batch * d * sizeof (float), NULL,
                                "reconstructions", error) ||
      !latent_cl_create_buffer (cl, &wcl->e, CL_MEM_READ_WRITE, batch * d * sizeof (float), NULL, "errors", error) ||
      !latent_cl_create_buffer (cl, &wcl->loss, CL_MEM_WRITE_ONLY, batch * sizeof (float), NULL, "losses", error) ||
      !latent_cl_create_buffer (cl, &wcl->wins, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, h * sizeof (guint),
                                zeros, "wins", error) ||
      !create_buffers (wcl, &wcl->p, &self->p, "weights", error) ||
      !create_buffers (wcl, &wcl->grad, NULL, "gradients", error) ||
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
         GError      **error)
{
  return latent_cl_check (clEnqueueNDRangeKernel (wcl->queue, wcl->k[kernel], dims, NULL, global, NULL,
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

/* x, then the code z = winners of ReLU(x Wᵀ + b), then x̂ = z W_d + c with
 * e = (x̂ − x) / rows, then the loss. */
static gboolean
forward (LatentWtaCl   *wcl,
         guint          first,
         guint          rows,
         GCancellable  *cancellable,
         GError       **error)
{
  LatentWta *self = wcl->self;
  const cl_uint d = self->d, h = self->h, k = latent_wta_batch_winners (self, rows);
  const gboolean lifetime = self->sparsity == LATENT_WTA_LIFETIME;
  const cl_uint groups = lifetime ? h : rows, count = lifetime ? rows : h;
  const cl_uint inner = lifetime ? h : 1, outer = lifetime ? 1 : h, per_group = lifetime;
  const cl_uint first_row = first;
  const cl_float inv_rows = 1.0f / rows;
  const gsize gather[2] = { d, rows }, select[1] = { groups }, per_row[1] = { rows };
  cl_mem wd = self->tied ? wcl->p.w : wcl->p.wd;

  /* The loss is read without waiting: the backward pass is queued first. */
  return latent_cl_set_args (wcl->k[K_GATHER], kernel_names[K_GATHER], error,
                           LATENT_CL_ARG (wcl->data), LATENT_CL_ARG (wcl->order), LATENT_CL_ARG (first_row),
                           LATENT_CL_ARG (d), LATENT_CL_ARG (wcl->offset), LATENT_CL_ARG (wcl->scale),
                           LATENT_CL_ARG (wcl->x), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_GATHER, 2, gather, error) &&
         latent_gemm_run (wcl->gemm, wcl->queue, FALSE, TRUE, rows, h, d, 1.0f, wcl->x, d, wcl->p.w, d,
                        0.0f, wcl->z, h, cancellable, error) &&
         latent_cl_set_args (wcl->k[K_SELECT], kernel_names[K_SELECT], error,
                           LATENT_CL_ARG (wcl->z), LATENT_CL_ARG (wcl->p.b), LATENT_CL_ARG (groups),
                           LATENT_CL_ARG (count), LATENT_CL_ARG (inner), LATENT_CL_ARG (outer),
                           LATENT_CL_ARG (per_group), LATENT_CL_ARG (k), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_SELECT, 1, select, error) &&
         latent_gemm_run (wcl->gemm, wcl->queue, FALSE, FALSE, rows, d, h, 1.0f, wcl->z, h, wd, d,
                        0.0f, wcl->xhat, d, cancellable, error) &&
         latent_cl_set_args (wcl->k[K_ERROR], kernel_names[K_ERROR], error,
                           LATENT_CL_ARG (wcl->xhat), LATENT_CL_ARG (wcl->x), LATENT_CL_ARG (wcl->p.c),
                           LATENT_CL_ARG (wcl->e), LATENT_CL_ARG (wcl->loss), LATENT_CL_ARG (d),
                           LATENT_CL_ARG (inv_rows), LATENT_CL_ARG_END) &&
         enqueue (wcl, K_ERROR, 1, per_row, error) &&
         latent_cl_check (clEnqueueReadBuffer (wcl->queue, wcl->loss, CL_FALSE, 0, rows * sizeof (float),
                                             wcl->loss_host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "losses", error);
}

static double
finish_loss (LatentWtaCl *wcl,
             guint        rows)
{
  double sum = 0;

  for (guint r = 0; r < rows; r++)
    sum += wcl->loss_host[r];
  return 0.5 * sum / rows;
}

static gboolean
column_sums (LatentWtaCl  *wcl,
             cl_mem        m,
             cl_uint       rows,
             cl_uint       cols,
             cl_mem        out,
             gboolean      count_wins,
             GError      **error)
{
  const cl_uint wins = count_wins;
  const gsize global[1] = { cols };

  return latent_cl_set_args (wcl->k[K_SUMS], kernel_names[K_SUMS], error,
                             LATENT_CL_ARG (m), LATENT_CL_ARG (rows), LATENT_CL_ARG (cols), LATENT_CL_ARG (out),
                             LATENT_CL_ARG (wcl->z), LATENT_CL_ARG (wcl->wins), LATENT_CL_ARG (wins),
                             LATENT_CL_ARG_END) &&
            enqueue (wcl, K_SUMS, 1, global, error);
}

static gboolean
update (LatentWtaCl  *wcl,
        cl_mem        param,
        cl_mem        grad,
        cl_mem        v,
        cl_mem        s,
        gsize         count,
        GError      **error)
{
  LatentWta *self = wcl->self;
  const cl_uint n = count, adam = self->adam;
  const gsize global[1] = { count };
  cl_float lr = self->learning_rate, mu = self->momentum, eps = 0;

  if (self->adam)
    latent_wta_adam_factors (self, &lr, &eps);
  else
    s = v;   /* unused, but an argument must be a buffer */
  return latent_cl_set_args (wcl->k[K_UPDATE], kernel_names[K_UPDATE], error,
                             LATENT_CL_ARG (param), LATENT_CL_ARG (grad), LATENT_CL_ARG (v), LATENT_CL_ARG (s),
                             LATENT_CL_ARG (n), LATENT_CL_ARG (lr), LATENT_CL_ARG (mu), LATENT_CL_ARG (eps),
                             LATENT_CL_ARG (adam), LATENT_CL_ARG_END) &&
            enqueue (wcl, K_UPDATE, 1, global, error);
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
  const cl_uint d = self->d, h = self->h;
  const gsize code_size[1] = { (gsize) rows * h }, hd = (gsize) h * d;
  cl_mem wd = self->tied ? wcl->p.w : wcl->p.wd;
  cl_mem decoder_grad = self->tied ? wcl->grad.w : wcl->grad.wd;

  /* ∂S = E W_dᵀ, masked to ∂Z; ∂W_d = Sᵀ E and ∂W = ∂Zᵀ X, summed into
   * one gradient when tied; the biases' column sums; the updates. */
  if (!forward (wcl, first, rows, cancellable, error) ||
      !latent_gemm_run (wcl->gemm, wcl->queue, FALSE, TRUE, rows, h, d, 1.0f, wcl->e, d, wd, d,
                        0.0f, wcl->ds, h, cancellable, error) ||
      !latent_cl_set_args (wcl->k[K_MASK], kernel_names[K_MASK], error,
                           LATENT_CL_ARG (wcl->ds), LATENT_CL_ARG (wcl->z), LATENT_CL_ARG_END) ||
      !enqueue (wcl, K_MASK, 1, code_size, error) ||
      !latent_gemm_run (wcl->gemm, wcl->queue, TRUE, FALSE, h, d, rows, 1.0f, wcl->z, h, wcl->e, d,
                        0.0f, decoder_grad, d, cancellable, error) ||
      !latent_gemm_run (wcl->gemm, wcl->queue, TRUE, FALSE, h, d, rows, 1.0f, wcl->ds, h, wcl->x, d,
                        self->tied ? 1.0f : 0.0f, wcl->grad.w, d, cancellable, error) ||
      !column_sums (wcl, wcl->ds, rows, h, wcl->grad.b, TRUE, error) ||
      !column_sums (wcl, wcl->e, rows, d, wcl->grad.c, FALSE, error) ||
      !update (wcl, wcl->p.w, wcl->grad.w, wcl->v.w, wcl->s.w, hd, error) ||
      (!self->tied && !update (wcl, wcl->p.wd, wcl->grad.wd, wcl->v.wd, wcl->s.wd, hd, error)) ||
      !update (wcl, wcl->p.b, wcl->grad.b, wcl->v.b, wcl->s.b, h, error) ||
      !update (wcl, wcl->p.c, wcl->grad.c, wcl->v.c, wcl->s.c, d, error) ||
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
                    GError      **error)
{
  LatentWta *self = wcl->self;

  if (!read_buffers (wcl, &wcl->p, &self->p, error) ||
      !read_buffers (wcl, &wcl->v, &self->v, error) ||
      (self->adam && !read_buffers (wcl, &wcl->s, &self->s, error)) ||
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
