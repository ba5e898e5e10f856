/* latent-umap-cl.c — UMAP's OpenCL path: the graph and the embedding on the
 * device, an epoch one launch of kernels/umap.cl, the two buffers of
 * positions swapped between epochs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-umap"

#include "latent-umap-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

struct _LatentUmapCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         epoch;
  guint             n;
  guint64           n_edges;
  cl_mem            y[2];          /* y[current] holds the embedding */
  guint             current;
  cl_mem            row_start, cols, w, every, next, next_negative, ce;
  float            *host;          /* n × 2 */
};

void
latent_umap_cl_free (LatentUmapCl *ucl)
{
  cl_mem *buffers[] = { &ucl->y[0], &ucl->y[1], &ucl->row_start, &ucl->cols, &ucl->w, &ucl->every, &ucl->next,
                        &ucl->next_negative, &ucl->ce };

  if (ucl == NULL)
    return;
  if (ucl->queue)
    clFinish (ucl->queue);
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], clReleaseMemObject);
  g_clear_pointer (&ucl->epoch, clReleaseKernel);
  if (ucl->queue)
    clReleaseCommandQueue (ucl->queue);
  g_clear_object (&ucl->cl);
  g_free (ucl->host);
  g_free (ucl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentUmapCl, latent_umap_cl_free)

LatentUmapCl *
latent_umap_cl_new (LatentUmap  *self,
                    LatentCl    *cl,
                    GError     **error)
{
  g_autoptr(LatentUmapCl) ucl = g_new0 (LatentUmapCl, 1);
  const LatentUmapGraph *g = &self->graph;
  const guint n = self->n;
  const gsize pair = (gsize) n * 2 * sizeof (float), edges = MAX (g->n_edges, 1);
  g_autofree guint32 *starts = g_new (guint32, (gsize) n + 1);

  if (g->n_edges >= G_MAXUINT32)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("UMAP: %llu edges are more than the device's kernels count"),
                   (unsigned long long) g->n_edges);
      return NULL;
    }
  ucl->cl = g_object_ref (cl);
  ucl->n = n;
  ucl->n_edges = g->n_edges;
  ucl->host = g_new (float, 2 * (gsize) n);
  for (guint i = 0; i <= n; i++)
    starts[i] = g->row_start[i];
  for (gsize i = 0; i < 2 * (gsize) n; i++)
    ucl->host[i] = self->y[i];
  if (!(ucl->epoch = latent_cl_create_kernel (cl, "umap", NULL, "umap_epoch", error)) ||
      !(ucl->queue = latent_cl_create_queue (cl, error)) ||
      !latent_cl_create_buffer (cl, &ucl->y[0], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pair, ucl->host,
                                "embedding", error) ||
      !latent_cl_create_buffer (cl, &ucl->y[1], CL_MEM_READ_WRITE, pair, NULL, "embedding", error) ||
      !latent_cl_create_buffer (cl, &ucl->row_start, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                ((gsize) n + 1) * sizeof (guint32), starts, "graph rows", error) ||
      !latent_cl_create_buffer (cl, &ucl->cols, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, edges * sizeof (gint32),
                                g->cols, "graph edges", error) ||
      !latent_cl_create_buffer (cl, &ucl->w, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, edges * sizeof (float),
                                g->w, "edge weights", error) ||
      !latent_cl_create_buffer (cl, &ucl->every, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, edges * sizeof (float),
                                g->every, "edge schedule", error) ||
      !latent_cl_create_buffer (cl, &ucl->next, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, edges * sizeof (float),
                                g->next, "edge schedule", error) ||
      !latent_cl_create_buffer (cl, &ucl->next_negative, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                edges * sizeof (float), g->next_negative, "edge schedule", error) ||
      !latent_cl_create_buffer (cl, &ucl->ce, CL_MEM_READ_WRITE, (gsize) n * sizeof (float), NULL,
                                "cross-entropy sums", error))
    return NULL;
  return g_steal_pointer (&ucl);
}

gboolean
latent_umap_cl_epoch (LatentUmapCl  *ucl,
                      LatentUmap    *self,
                      GCancellable  *cancellable,
                      GError       **error)
{
  const cl_uint n = ucl->n, epoch = self->epoch;
  const float a = self->a, b = self->b, gamma = self->repulsion, rate = self->negative_rate;
  const float alpha = self->learning_rate * (1 - (double) epoch / self->epochs);
  const cl_uint seed = self->hash_seed;
  const cl_int measure = latent_umap_measures (epoch, self->epochs);
  const gsize global = n;
  cl_mem from = ucl->y[ucl->current], to = ucl->y[1 - ucl->current];
  double sum = 0;

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !latent_cl_set_args (ucl->epoch, "umap_epoch", error, LATENT_CL_ARG (from), LATENT_CL_ARG (to),
                           LATENT_CL_ARG (ucl->row_start), LATENT_CL_ARG (ucl->cols), LATENT_CL_ARG (ucl->w),
                           LATENT_CL_ARG (ucl->every), LATENT_CL_ARG (ucl->next), LATENT_CL_ARG (ucl->next_negative),
                           LATENT_CL_ARG (n), LATENT_CL_ARG (epoch), LATENT_CL_ARG (a), LATENT_CL_ARG (b),
                           LATENT_CL_ARG (alpha), LATENT_CL_ARG (gamma), LATENT_CL_ARG (rate), LATENT_CL_ARG (seed),
                           LATENT_CL_ARG (measure), LATENT_CL_ARG (ucl->ce), LATENT_CL_ARG_END) ||
      !latent_cl_check (clEnqueueNDRangeKernel (ucl->queue, ucl->epoch, 1, NULL, &global, NULL, 0, NULL, NULL),
                        "clEnqueueNDRangeKernel", "umap_epoch", error))
    return FALSE;
  ucl->current = 1 - ucl->current;
  if (!measure)
    return latent_cl_check (clFinish (ucl->queue), "clFinish", "umap_epoch", error);
  if (!latent_cl_check (clEnqueueReadBuffer (ucl->queue, ucl->ce, CL_TRUE, 0, (gsize) n * sizeof (float), ucl->host,
                                             0, NULL, NULL),
                        "clEnqueueReadBuffer", "cross-entropy sums", error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    sum += ucl->host[i];
  self->cross_entropy = sum / 2;
  return TRUE;
}

gboolean
latent_umap_cl_read (LatentUmapCl  *ucl,
                     LatentUmap    *self,
                     GError       **error)
{
  const gsize edges = ucl->n_edges * sizeof (float);

  if (!latent_cl_check (clEnqueueReadBuffer (ucl->queue, ucl->y[ucl->current], CL_TRUE, 0,
                                             (gsize) ucl->n * 2 * sizeof (float), ucl->host, 0, NULL, NULL),
                        "clEnqueueReadBuffer", "embedding", error) ||
      (edges > 0 &&
       (!latent_cl_check (clEnqueueReadBuffer (ucl->queue, ucl->next, CL_TRUE, 0, edges, self->graph.next,
                                               0, NULL, NULL),
                          "clEnqueueReadBuffer", "edge schedule", error) ||
        !latent_cl_check (clEnqueueReadBuffer (ucl->queue, ucl->next_negative, CL_TRUE, 0, edges,
                                               self->graph.next_negative, 0, NULL, NULL),
                          "clEnqueueReadBuffer", "edge schedule", error))))
    return FALSE;
  for (gsize i = 0; i < 2 * (gsize) ucl->n; i++)
    self->y[i] = ucl->host[i];
  return TRUE;
}
