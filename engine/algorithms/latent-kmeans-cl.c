/* latent-kmeans-cl.c — the k-means assignment pass on an OpenCL device
 *
 * The rows go to the device once; each pass uploads the centers (k × d),
 * runs kmeans_assign and kmeans_reduce from kernels/kmeans.cl, and reads
 * back the labels, distances and the k × d sums.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-kmeans"

#include "latent-kmeans-private.h"

struct _LatentKmeansCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         assign;
  cl_kernel         reduce;
  guint             vec, dp, kp, items, rows_per_item;
  gsize             local;
  cl_mem            x, xnorm, centers, cnorm, labels, dist;
  cl_mem            partial_sums, partial_counts, partial_inertia, sums;
  float            *host_centers;    /* kp × dp */
  float            *host_cnorm;      /* kp */
  float            *host_sums;       /* k × dp */
  gint32           *host_counts;     /* items × k */
  float            *host_inertia;    /* items */
};

void
latent_kmeans_cl_free (LatentKmeansCl *kcl)
{
  cl_mem *buffers[] = { &kcl->x, &kcl->xnorm, &kcl->centers, &kcl->cnorm, &kcl->labels,
                        &kcl->dist, &kcl->partial_sums, &kcl->partial_counts,
                        &kcl->partial_inertia, &kcl->sums };

  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    if (*buffers[i])
      clReleaseMemObject (*buffers[i]);
  if (kcl->assign)
    clReleaseKernel (kcl->assign);
  if (kcl->reduce)
    clReleaseKernel (kcl->reduce);
  if (kcl->queue)
    clReleaseCommandQueue (kcl->queue);
  g_clear_object (&kcl->cl);
  g_free (kcl->host_centers);
  g_free (kcl->host_cnorm);
  g_free (kcl->host_sums);
  g_free (kcl->host_counts);
  g_free (kcl->host_inertia);
  g_free (kcl);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentKmeansCl, latent_kmeans_cl_free)

static cl_mem
create_buffer (LatentKmeansCl  *kcl,
               cl_mem_flags     flags,
               gsize            size,
               gpointer         host,
               const char      *what,
               GError         **error)
{
  cl_int err = CL_SUCCESS;
  cl_mem mem = clCreateBuffer (latent_cl_get_context (kcl->cl), flags, size, host, &err);

  if (!latent_cl_check (err, "clCreateBuffer", what, error))
    return NULL;
  return mem;
}

LatentKmeansCl *
latent_kmeans_cl_new (LatentKmeans  *self,
                      LatentCl      *cl,
                      GError       **error)
{
  g_autoptr(LatentKmeansCl) kcl = g_new0 (LatentKmeansCl, 1);
  const LatentClDeviceInfo *info = latent_cl_get_info (cl);
  g_autofree char *options = NULL;
  g_autofree float *padded = NULL;
  g_autofree float *xnorm = NULL;
  guint64 bytes;

  kcl->cl = g_object_ref (cl);
  /* Short rows waste less padding with narrower vectors. */
  kcl->vec = self->d >= 48 ? 16 : self->d > 4 ? 8 : 4;
  kcl->dp = (self->d + kcl->vec - 1) / kcl->vec * kcl->vec;
  kcl->kp = (self->k + 3) / 4 * 4;

  /* CPU devices run a work-group on one thread: one item per group, a few
   * groups per core so the cores stay balanced. */
  if (info->type & CL_DEVICE_TYPE_CPU)
    {
      kcl->local = 1;
      kcl->items = MAX (4, 8 * info->compute_units);
    }
  else
    {
      kcl->local = 64;
      kcl->items = 64 * MAX (1, info->compute_units);
    }
  kcl->rows_per_item = (self->n + kcl->items - 1) / kcl->items;
  kcl->rows_per_item = (kcl->rows_per_item + 3) / 4 * 4;
  kcl->items = (self->n + kcl->rows_per_item - 1) / kcl->rows_per_item;
  kcl->items = (kcl->items + kcl->local - 1) / kcl->local * kcl->local;

  bytes = (guint64) kcl->items * self->k * kcl->dp * sizeof (float);
  if (bytes > info->max_alloc || (guint64) self->n * kcl->dp * sizeof (float) > info->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   "k-means: %u rows × %u columns with k = %u need more memory in one buffer than %s allows",
                   self->n, self->d, self->k, info->name);
      return NULL;
    }

  options = g_strdup_printf ("-DVEC=%u", kcl->vec);
  if (!(kcl->assign = latent_cl_create_kernel (cl, "kmeans", options, "kmeans_assign", error)) ||
      !(kcl->reduce = latent_cl_create_kernel (cl, "kmeans", options, "kmeans_reduce", error)) ||
      !(kcl->queue = latent_cl_create_queue (cl, error)))
    return NULL;

  padded = g_new0 (float, (gsize) self->n * kcl->dp);
  xnorm = g_new (float, self->n);
  for (guint i = 0; i < self->n; i++)
    {
      double s = 0;
      for (guint f = 0; f < self->d; f++)
        {
          float v = self->x[(gsize) i * self->d + f];
          padded[(gsize) i * kcl->dp + f] = v;
          s += (double) v * v;
        }
      xnorm[i] = s;
    }

  kcl->host_centers = g_new0 (float, (gsize) kcl->kp * kcl->dp);
  kcl->host_cnorm = g_new0 (float, kcl->kp);
  kcl->host_sums = g_new (float, (gsize) self->k * kcl->dp);
  kcl->host_counts = g_new (gint32, (gsize) kcl->items * self->k);
  kcl->host_inertia = g_new (float, kcl->items);

  if (!(kcl->x = create_buffer (kcl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                (gsize) self->n * kcl->dp * sizeof (float), padded, "x", error)) ||
      !(kcl->xnorm = create_buffer (kcl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                    self->n * sizeof (float), xnorm, "xnorm", error)) ||
      !(kcl->centers = create_buffer (kcl, CL_MEM_READ_ONLY,
                                      (gsize) kcl->kp * kcl->dp * sizeof (float), NULL, "centers", error)) ||
      !(kcl->cnorm = create_buffer (kcl, CL_MEM_READ_ONLY, kcl->kp * sizeof (float), NULL, "cnorm", error)) ||
      !(kcl->labels = create_buffer (kcl, CL_MEM_WRITE_ONLY, self->n * sizeof (gint32), NULL, "labels", error)) ||
      !(kcl->dist = create_buffer (kcl, CL_MEM_WRITE_ONLY, self->n * sizeof (float), NULL, "dist", error)) ||
      !(kcl->partial_sums = create_buffer (kcl, CL_MEM_READ_WRITE, bytes, NULL, "partial_sums", error)) ||
      !(kcl->partial_counts = create_buffer (kcl, CL_MEM_READ_WRITE,
                                             (gsize) kcl->items * self->k * sizeof (gint32), NULL,
                                             "partial_counts", error)) ||
      !(kcl->partial_inertia = create_buffer (kcl, CL_MEM_READ_WRITE, kcl->items * sizeof (float),
                                              NULL, "partial_inertia", error)) ||
      !(kcl->sums = create_buffer (kcl, CL_MEM_READ_WRITE, (gsize) self->k * kcl->dp * sizeof (float),
                                   NULL, "sums", error)))
    return NULL;

  return g_steal_pointer (&kcl);
}

static gboolean
cancelled (GCancellable  *cancellable,
           GError       **error)
{
  return g_cancellable_set_error_if_cancelled (cancellable, error);
}

gboolean
latent_kmeans_cl_assign (LatentKmeansCl    *kcl,
                         LatentKmeans      *self,
                         LatentKmeansPass  *pass,
                         gboolean           accumulate,
                         GCancellable      *cancellable,
                         GError           **error)
{
  const guint n = self->n, k = self->k, d = self->d, dp = kcl->dp;
  const cl_uint size = k * dp / kcl->vec;
  const cl_uint dv = dp / kcl->vec;
  const cl_int acc = accumulate;
  gsize global = kcl->items, local = kcl->local;
  gsize reduce_global = size;
  cl_int err = CL_SUCCESS;
  guint arg = 0;

  for (guint c = 0; c < k; c++)
    {
      double s = 0;
      for (guint f = 0; f < d; f++)
        {
          float v = self->centers[(gsize) c * d + f];
          kcl->host_centers[(gsize) c * dp + f] = v;
          s += (double) v * v;
        }
      kcl->host_cnorm[c] = s;
    }

#define SET_ARG(kernel, value) \
  if (err == CL_SUCCESS) err = clSetKernelArg (kernel, arg++, sizeof (value), &(value))
  SET_ARG (kcl->assign, kcl->x);
  SET_ARG (kcl->assign, kcl->xnorm);
  SET_ARG (kcl->assign, kcl->centers);
  SET_ARG (kcl->assign, kcl->cnorm);
  SET_ARG (kcl->assign, kcl->labels);
  SET_ARG (kcl->assign, kcl->dist);
  SET_ARG (kcl->assign, kcl->partial_sums);
  SET_ARG (kcl->assign, kcl->partial_counts);
  SET_ARG (kcl->assign, kcl->partial_inertia);
  SET_ARG (kcl->assign, n);
  SET_ARG (kcl->assign, k);
  SET_ARG (kcl->assign, dv);
  SET_ARG (kcl->assign, kcl->rows_per_item);
  SET_ARG (kcl->assign, acc);
  if (!latent_cl_check (err, "clSetKernelArg", "kmeans_assign", error))
    return FALSE;
  arg = 0;
  SET_ARG (kcl->reduce, kcl->partial_sums);
  SET_ARG (kcl->reduce, kcl->sums);
  SET_ARG (kcl->reduce, kcl->items);
  SET_ARG (kcl->reduce, size);
  if (!latent_cl_check (err, "clSetKernelArg", "kmeans_reduce", error))
    return FALSE;
#undef SET_ARG

  if (cancelled (cancellable, error))
    return FALSE;
  err = clEnqueueWriteBuffer (kcl->queue, kcl->centers, CL_FALSE, 0,
                              (gsize) kcl->kp * dp * sizeof (float), kcl->host_centers, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (kcl->queue, kcl->cnorm, CL_FALSE, 0, kcl->kp * sizeof (float),
                                kcl->host_cnorm, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueWriteBuffer", "kmeans_assign", error))
    return FALSE;

  err = clEnqueueNDRangeKernel (kcl->queue, kcl->assign, 1, NULL, &global, &local, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_assign", error))
    return FALSE;
  if (accumulate)
    {
      if (cancelled (cancellable, error))
        return FALSE;
      err = clEnqueueNDRangeKernel (kcl->queue, kcl->reduce, 1, NULL, &reduce_global, NULL, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueNDRangeKernel", "kmeans_reduce", error))
        return FALSE;
      err = clEnqueueReadBuffer (kcl->queue, kcl->sums, CL_FALSE, 0, (gsize) k * dp * sizeof (float),
                                 kcl->host_sums, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer (kcl->queue, kcl->partial_counts, CL_FALSE, 0,
                                   (gsize) kcl->items * k * sizeof (gint32), kcl->host_counts, 0, NULL, NULL);
    }
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, kcl->partial_inertia, CL_FALSE, 0, kcl->items * sizeof (float),
                               kcl->host_inertia, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, kcl->labels, CL_FALSE, 0, n * sizeof (gint32),
                               self->labels, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer (kcl->queue, kcl->dist, CL_TRUE, 0, n * sizeof (float),
                               self->dist, 0, NULL, NULL);
  if (!latent_cl_check (err, "clEnqueueReadBuffer", "kmeans_assign", error))
    return FALSE;

  pass->inertia = 0;
  for (guint g = 0; g < kcl->items; g++)
    pass->inertia += kcl->host_inertia[g];
  if (accumulate)
    {
      for (guint c = 0; c < k; c++)
        {
          pass->counts[c] = 0;
          for (guint g = 0; g < kcl->items; g++)
            pass->counts[c] += kcl->host_counts[(gsize) g * k + c];
          for (guint f = 0; f < d; f++)
            pass->sums[(gsize) c * d + f] = kcl->host_sums[(gsize) c * dp + f];
        }
    }
  return TRUE;
}
