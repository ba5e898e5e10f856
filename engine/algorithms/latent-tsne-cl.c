/* latent-tsne-cl.c — t-SNE's OpenCL path: the kernels of kernels/tsne.cl
 * and what the host adds between them
 *
 * The embedding, its gains and its last step stay on the device. Each step
 * reads the embedding back (8 bytes a point), because the host takes its
 * mean, and with the FFT repulsion computes that repulsion itself
 * (latent-tsne-fft.c) and writes it; with the exact repulsion it reads
 * each point's Σ w instead. Z and the KL divergence are summed in double
 * from per-row partial sums.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-tsne"

#include "latent-tsne-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* tsne_attract's AVEC: the rows of P on the device are padded to it. */
#define ATTRACT_VEC 8

struct _LatentTsneCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         attract, repulse, update;
  gsize             local;          /* the GPU shape's work-group, 0: the driver's */
  guint             n;
  cl_mem            y, gains, step, attr, rep, z, log_w, row_start, cols, p;
  float            *y_host;         /* n × 2 */
  float            *rep_host;       /* n × 2 */
  float            *partial;        /* n */
};

static gsize
global_size (LatentTsneCl *tcl)
{
  return tcl->local ? (tcl->n + tcl->local - 1) / tcl->local * tcl->local : tcl->n;
}

gboolean
latent_tsne_cl_calibrate (LatentCl      *cl,
                          const float   *dist2,
                          guint          n,
                          guint          k,
                          double         perplexity,
                          float         *p_cond,
                          GCancellable  *cancellable,
                          GError       **error)
{
  const gsize bytes = (gsize) n * k * sizeof (float), global = n;
  const cl_uint n_rows = n, n_k = k;
  const float target = log (perplexity);
  cl_kernel kernel = NULL;
  cl_command_queue queue = NULL;
  cl_mem d_mem = NULL, p_mem = NULL;
  gboolean ok;

  ok = !g_cancellable_set_error_if_cancelled (cancellable, error) &&
       (kernel = latent_cl_create_kernel (cl, "tsne", NULL, "tsne_calibrate", error)) != NULL &&
       (queue = latent_cl_create_queue (cl, error)) != NULL &&
       latent_cl_create_buffer (cl, &d_mem, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (gpointer) dist2,
                                "neighbour distances", error) &&
       latent_cl_create_buffer (cl, &p_mem, CL_MEM_WRITE_ONLY, bytes, NULL, "affinities", error) &&
       latent_cl_set_args (kernel, "tsne_calibrate", error, LATENT_CL_ARG (d_mem), LATENT_CL_ARG (n_rows),
                           LATENT_CL_ARG (n_k), LATENT_CL_ARG (target), LATENT_CL_ARG (p_mem), LATENT_CL_ARG_END) &&
       latent_cl_check (clEnqueueNDRangeKernel (queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL),
                        "clEnqueueNDRangeKernel", "tsne_calibrate", error) &&
       latent_cl_check (clEnqueueReadBuffer (queue, p_mem, CL_TRUE, 0, bytes, p_cond, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "affinities", error);
  if (queue)
    {
      clFinish (queue);
      clReleaseCommandQueue (queue);
    }
  g_clear_pointer (&kernel, clReleaseKernel);
  g_clear_pointer (&d_mem, clReleaseMemObject);
  g_clear_pointer (&p_mem, clReleaseMemObject);
  return ok;
}

void
latent_tsne_cl_free (LatentTsneCl *tcl)
{
  cl_mem *buffers[] = { &tcl->y, &tcl->gains, &tcl->step, &tcl->attr, &tcl->rep, &tcl->z, &tcl->log_w,
                        &tcl->row_start, &tcl->cols, &tcl->p };
  cl_kernel *kernels[] = { &tcl->attract, &tcl->repulse, &tcl->update };

  if (tcl == NULL)
    return;
  if (tcl->queue)
    clFinish (tcl->queue);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], clReleaseMemObject);
  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    g_clear_pointer (kernels[i], clReleaseKernel);
  if (tcl->queue)
    clReleaseCommandQueue (tcl->queue);
  g_clear_object (&tcl->cl);
  g_free (tcl->y_host);
  g_free (tcl->rep_host);
  g_free (tcl->partial);
  g_free (tcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentTsneCl, latent_tsne_cl_free)

LatentTsneCl *
latent_tsne_cl_new (LatentTsne  *self,
                    LatentCl    *cl,
                    GError     **error)
{
  g_autoptr(LatentTsneCl) tcl = g_new0 (LatentTsneCl, 1);
  const LatentTsneAffinities *aff = &self->aff;
  const guint n = self->n;
  const gsize pair = (gsize) n * 2 * sizeof (float);
  g_autofree guint32 *starts = NULL;
  g_autofree gint32 *cols = NULL;
  g_autofree float *p = NULL;
  guint32 n_padded;
  g_autofree float *ones = NULL;
  g_autofree char *options = NULL;

  starts = g_new (guint32, (gsize) n + 1);
  starts[0] = 0;
  for (guint i = 0; i < n; i++)
    {
      guint64 len = aff->row_start[i + 1] - aff->row_start[i];
      guint64 end = starts[i] + (len + ATTRACT_VEC - 1) / ATTRACT_VEC * ATTRACT_VEC;

      if (end >= G_MAXUINT32)
        {
          g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                       _("t-SNE: %llu affinities are more than the device's kernels count"),
                       (unsigned long long) aff->n_entries);
          return NULL;
        }
      starts[i + 1] = end;
    }
  n_padded = starts[n];
  cols = g_new (gint32, MAX (n_padded, 1));
  p = g_new0 (float, MAX (n_padded, 1));
  for (guint i = 0; i < n; i++)
    for (guint32 e = starts[i], f = aff->row_start[i]; e < starts[i + 1]; e++, f++)
      {
        /* The padding: the row itself, weighing nothing. */
        gboolean real = f < aff->row_start[i + 1];

        cols[e] = real ? aff->cols[f] : (gint32) i;
        p[e] = real ? aff->p[f] : 0;
      }
  tcl->cl = g_object_ref (cl);
  tcl->n = n;
  if (latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_GPU)
    tcl->local = latent_cl_tunable (cl, "tsne", "TILE", 256);
  options = g_strdup_printf ("-DTILE=%u", tcl->local ? (guint) tcl->local : 256u);
  ones = g_new (float, (gsize) n * 2);
  tcl->y_host = g_new (float, (gsize) n * 2);
  tcl->rep_host = g_new (float, (gsize) n * 2);
  tcl->partial = g_new (float, n);
  for (gsize i = 0; i < 2 * (gsize) n; i++)
    {
      ones[i] = self->gains[i];
      tcl->y_host[i] = self->y[i];
      tcl->rep_host[i] = self->update[i];
    }
  if (!(tcl->attract = latent_cl_create_kernel (cl, "tsne", options, "tsne_attract", error)) ||
      !(tcl->repulse = latent_cl_create_kernel (cl, "tsne", options, "tsne_repulse", error)) ||
      !(tcl->update = latent_cl_create_kernel (cl, "tsne", options, "tsne_update", error)) ||
      !(tcl->queue = latent_cl_create_queue (cl, error)) ||
      !latent_cl_create_buffer (cl, &tcl->y, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pair, tcl->y_host,
                                "embedding", error) ||
      !latent_cl_create_buffer (cl, &tcl->gains, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pair, ones, "gains",
                                error) ||
      !latent_cl_create_buffer (cl, &tcl->step, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pair, tcl->rep_host,
                                "steps", error) ||
      !latent_cl_create_buffer (cl, &tcl->attr, CL_MEM_READ_WRITE, pair, NULL, "attraction", error) ||
      !latent_cl_create_buffer (cl, &tcl->rep, CL_MEM_READ_WRITE, pair, NULL, "repulsion", error) ||
      !latent_cl_create_buffer (cl, &tcl->z, CL_MEM_READ_WRITE, (gsize) n * sizeof (float), NULL,
                                "kernel sums", error) ||
      !latent_cl_create_buffer (cl, &tcl->log_w, CL_MEM_READ_WRITE, (gsize) n * sizeof (float), NULL,
                                "divergence sums", error) ||
      !latent_cl_create_buffer (cl, &tcl->row_start, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                ((gsize) n + 1) * sizeof (guint32), starts, "affinity rows", error) ||
      !latent_cl_create_buffer (cl, &tcl->cols, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                MAX (n_padded, 1) * sizeof (gint32), cols, "affinity columns", error) ||
      !latent_cl_create_buffer (cl, &tcl->p, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                MAX (n_padded, 1) * sizeof (float), p, "affinities", error))
    return NULL;
  return g_steal_pointer (&tcl);
}

/* Sums the n per-row partial sums of @mem in double. */
static gboolean
sum_rows (LatentTsneCl  *tcl,
          cl_mem         mem,
          const char    *what,
          double        *sum,
          GError       **error)
{
  if (!latent_cl_check (clEnqueueReadBuffer (tcl->queue, mem, CL_TRUE, 0, tcl->n * sizeof (float), tcl->partial,
                                             0, NULL, NULL),
                        "clEnqueueReadBuffer", what, error))
    return FALSE;
  *sum = 0;
  for (guint i = 0; i < tcl->n; i++)
    *sum += tcl->partial[i];
  return TRUE;
}

/* The device's embedding into self->y, centred, and its mean into @mean. */
static gboolean
read_centred (LatentTsneCl  *tcl,
              LatentTsne    *self,
              double        *mean,
              GError       **error)
{
  const guint n = tcl->n;

  if (!latent_cl_check (clEnqueueReadBuffer (tcl->queue, tcl->y, CL_TRUE, 0, (gsize) n * 2 * sizeof (float),
                                             tcl->y_host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "embedding", error))
    return FALSE;
  mean[0] = mean[1] = 0;
  for (guint i = 0; i < n; i++)
    {
      mean[0] += tcl->y_host[2 * i];
      mean[1] += tcl->y_host[2 * i + 1];
    }
  mean[0] /= n;
  mean[1] /= n;
  for (guint i = 0; i < n; i++)
    {
      self->y[2 * i] = tcl->y_host[2 * i] - mean[0];
      self->y[2 * i + 1] = tcl->y_host[2 * i + 1] - mean[1];
    }
  return TRUE;
}

gboolean
latent_tsne_cl_read (LatentTsneCl  *tcl,
                     LatentTsne    *self,
                     GError       **error)
{
  double mean[2];

  return read_centred (tcl, self, mean, error);
}

gboolean
latent_tsne_cl_step (LatentTsneCl  *tcl,
                     LatentTsne    *self,
                     GCancellable  *cancellable,
                     GError       **error)
{
  const cl_uint n = tcl->n;
  const gsize global = global_size (tcl);
  const gsize *local = tcl->local ? &tcl->local : NULL;
  const float alpha = latent_tsne_exaggeration_at (self, self->iteration);
  const float lr = latent_tsne_learning_rate_at (self, self->iteration);
  const float momentum = LATENT_TSNE_MOMENTUM, min_gain = LATENT_TSNE_MIN_GAIN, max_step = LATENT_TSNE_MAX_STEP;
  cl_float2 shift;
  double log_w, mean[2];
  float inv_z;

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !read_centred (tcl, self, mean, error))
    return FALSE;
  shift.s[0] = mean[0];
  shift.s[1] = mean[1];

  if (self->fft != NULL)
    {
      if (!latent_tsne_fft_repulsion (self->fft, self->y, n, self->rep, &self->z, error))
        return FALSE;
      for (gsize i = 0; i < 2 * (gsize) n; i++)
        tcl->rep_host[i] = self->rep[i];
      if (!latent_cl_check (clEnqueueWriteBuffer (tcl->queue, tcl->rep, CL_FALSE, 0, (gsize) n * 2 * sizeof (float),
                                                  tcl->rep_host, 0, NULL, NULL),
                            "clEnqueueWriteBuffer", "repulsion", error))
        return FALSE;
    }
  else if (!latent_cl_set_args (tcl->repulse, "tsne_repulse", error, LATENT_CL_ARG (tcl->y), LATENT_CL_ARG (n),
                                LATENT_CL_ARG (tcl->rep), LATENT_CL_ARG (tcl->z), LATENT_CL_ARG_END) ||
           !latent_cl_check (clEnqueueNDRangeKernel (tcl->queue, tcl->repulse, 1, NULL, &global, local, 0, NULL, NULL),
                             "clEnqueueNDRangeKernel", "tsne_repulse", error) ||
           !sum_rows (tcl, tcl->z, "kernel sums", &self->z, error))
    return FALSE;

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !latent_cl_set_args (tcl->attract, "tsne_attract", error, LATENT_CL_ARG (tcl->y), LATENT_CL_ARG (tcl->row_start),
                           LATENT_CL_ARG (tcl->cols), LATENT_CL_ARG (tcl->p), LATENT_CL_ARG (n),
                           LATENT_CL_ARG (tcl->attr), LATENT_CL_ARG (tcl->log_w), LATENT_CL_ARG_END) ||
      !latent_cl_check (clEnqueueNDRangeKernel (tcl->queue, tcl->attract, 1, NULL, &global, NULL, 0, NULL, NULL),
                        "clEnqueueNDRangeKernel", "tsne_attract", error) ||
      !sum_rows (tcl, tcl->log_w, "divergence sums", &log_w, error))
    return FALSE;
  self->kl = self->aff.p_log_p - log_w + log (self->z);
  inv_z = 1 / self->z;

  return latent_cl_set_args (tcl->update, "tsne_update", error, LATENT_CL_ARG (tcl->y), LATENT_CL_ARG (tcl->gains),
                             LATENT_CL_ARG (tcl->step), LATENT_CL_ARG (tcl->attr), LATENT_CL_ARG (tcl->rep),
                             LATENT_CL_ARG (n), LATENT_CL_ARG (alpha), LATENT_CL_ARG (inv_z), LATENT_CL_ARG (lr),
                             LATENT_CL_ARG (momentum), LATENT_CL_ARG (min_gain), LATENT_CL_ARG (max_step),
                             LATENT_CL_ARG (shift), LATENT_CL_ARG_END) &&
         latent_cl_check (clEnqueueNDRangeKernel (tcl->queue, tcl->update, 1, NULL, &global, NULL, 0, NULL, NULL),
                          "clEnqueueNDRangeKernel", "tsne_update", error);
}
