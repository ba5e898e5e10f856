/* latent-convolve-cl.c — image convolution on the OpenCL device: buffers, methods, launches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-convolve"

#include "latent-convolve.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* kernels/convolve.cl: output rows per work-item of the direct and tiled
 * kernels and of the separable column pass; 16 pixels across each. */
#define CONV_ROWS 4
#define CONV_SEP_ROWS 4
#define CONV_VEC 16

#define MAX_TAPS (LATENT_FILTER_MAX_SIZE * LATENT_FILTER_MAX_SIZE)

struct _LatentConvolveCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         direct;
  cl_kernel         tiled;
  cl_kernel         separable;
  cl_kernel         magnitude;
  gboolean          cpu;
  guint64           local_mem;
  gsize             max_group;
  guint64           max_alloc;

  /* The image on the device: image[current] holds it, the other is the
   * next pass's output. */
  guint             width, height, channels;
  cl_mem            image[2];
  guint             current;
  cl_mem            gradient[2];  /* gx, gy of a magnitude filter */

  /* Weights as last written to the device, per kernel of the filter:
   * the full kernel and the two factors, divisor folded in. */
  cl_mem            weights[2];
  cl_mem            row[2];
  cl_mem            column[2];
  float             host_weights[2][MAX_TAPS];
  float             host_row[2][LATENT_FILTER_MAX_SIZE];
  float             host_column[2][LATENT_FILTER_MAX_SIZE];
  gboolean          uploaded;
};

static void
release_mem (cl_mem *mem)
{
  if (*mem != NULL)
    clReleaseMemObject (*mem);
  *mem = NULL;
}

static void
release_image (LatentConvolveCl *self)
{
  for (guint i = 0; i < 2; i++)
    {
      release_mem (&self->image[i]);
      release_mem (&self->gradient[i]);
    }
  self->width = self->height = self->channels = 0;
}

void
latent_convolve_cl_free (LatentConvolveCl *self)
{
  if (self == NULL)
    return;
  release_image (self);
  for (guint i = 0; i < 2; i++)
    {
      release_mem (&self->weights[i]);
      release_mem (&self->row[i]);
      release_mem (&self->column[i]);
    }
  if (self->direct)
    clReleaseKernel (self->direct);
  if (self->tiled)
    clReleaseKernel (self->tiled);
  if (self->separable)
    clReleaseKernel (self->separable);
  if (self->magnitude)
    clReleaseKernel (self->magnitude);
  if (self->queue)
    clReleaseCommandQueue (self->queue);
  g_clear_object (&self->cl);
  g_free (self);
}

LatentConvolveCl *
latent_convolve_cl_new (LatentCl  *cl,
                        GError   **error)
{
  g_autoptr(LatentConvolveCl) self = NULL;
  g_autofree char *options = NULL;
  const LatentClDeviceInfo *info;

  g_return_val_if_fail (LATENT_IS_CL (cl), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = latent_cl_get_info (cl);
  self = g_new0 (LatentConvolveCl, 1);
  self->cl = g_object_ref (cl);
  self->cpu = (info->type & CL_DEVICE_TYPE_CPU) != 0;
  self->local_mem = info->local_mem_size;
  self->max_group = MAX (1, info->max_work_group_size);
  self->max_alloc = info->max_alloc;

  options = g_strdup_printf ("-DROWS=%d -DSEP_ROWS=%d -DMAX_RADIUS=%d",
                             CONV_ROWS, CONV_SEP_ROWS, LATENT_FILTER_MAX_SIZE / 2);
  if (!(self->queue = latent_cl_create_queue (cl, error)) ||
      !(self->direct = latent_cl_create_kernel (cl, "convolve", options, "convolve_direct", error)) ||
      !(self->tiled = latent_cl_create_kernel (cl, "convolve", options, "convolve_tiled", error)) ||
      !(self->separable = latent_cl_create_kernel (cl, "convolve", options, "convolve_separable", error)) ||
      !(self->magnitude = latent_cl_create_kernel (cl, "convolve", options, "convolve_magnitude", error)))
    return NULL;

  for (guint i = 0; i < 2; i++)
    if (!latent_cl_create_buffer (cl, &self->weights[i], CL_MEM_READ_ONLY, MAX_TAPS * sizeof (float),
                                  NULL, "convolution weights", error) ||
        !latent_cl_create_buffer (cl, &self->row[i], CL_MEM_READ_ONLY, LATENT_FILTER_MAX_SIZE * sizeof (float),
                                  NULL, "convolution row factor", error) ||
        !latent_cl_create_buffer (cl, &self->column[i], CL_MEM_READ_ONLY, LATENT_FILTER_MAX_SIZE * sizeof (float),
                                  NULL, "convolution column factor", error))
      return NULL;
  return g_steal_pointer (&self);
}

LatentConvolveMethod
latent_convolve_cl_choose (LatentConvolveCl   *self,
                           const LatentFilter *filter,
                           guint               width,
                           guint               height)
{
  const guint size = filter ? latent_filter_get_size (filter) : 0;

  g_return_val_if_fail (self != NULL, LATENT_CONVOLVE_DIRECT);
  g_return_val_if_fail (filter != NULL, LATENT_CONVOLVE_DIRECT);

  if (latent_filter_is_separable (filter) && size > 3)
    return LATENT_CONVOLVE_SEPARABLE;
  return LATENT_CONVOLVE_DIRECT;
}

gboolean
latent_convolve_cl_upload (LatentConvolveCl  *self,
                           const float       *src,
                           guint              width,
                           guint              height,
                           guint              channels,
                           GError           **error)
{
  gsize bytes;
  cl_int err;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (src != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!latent_convolve_check_image (width, height, channels, error))
    return FALSE;
  bytes = (gsize) width * height * channels * sizeof (float);
  if (self->max_alloc > 0 && bytes > self->max_alloc)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("image: %u × %u pixels of %u channels need %" G_GUINT64_FORMAT " MiB, above the "
                     "OpenCL device's largest buffer (%" G_GUINT64_FORMAT " MiB)"),
                   width, height, channels, (guint64) bytes >> 20, self->max_alloc >> 20);
      return FALSE;
    }

  if (width != self->width || height != self->height || channels != self->channels)
    {
      release_image (self);
      if (!latent_cl_create_buffer (self->cl, &self->image[0], CL_MEM_READ_WRITE, bytes, NULL,
                                    "image", error) ||
          !latent_cl_create_buffer (self->cl, &self->image[1], CL_MEM_READ_WRITE, bytes, NULL,
                                    "filtered image", error))
        {
          release_image (self);
          return FALSE;
        }
      self->width = width;
      self->height = height;
      self->channels = channels;
    }
  self->current = 0;
  err = clEnqueueWriteBuffer (self->queue, self->image[0], CL_TRUE, 0, bytes, src, 0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueWriteBuffer", "convolve image", error);
}

gboolean
latent_convolve_cl_download (LatentConvolveCl  *self,
                             float             *dst,
                             GError           **error)
{
  cl_int err;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (dst != NULL, FALSE);
  g_return_val_if_fail (self->image[0] != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  err = clEnqueueReadBuffer (self->queue, self->image[self->current], CL_TRUE, 0,
                             (gsize) self->width * self->height * self->channels * sizeof (float),
                             dst, 0, NULL, NULL);
  return latent_cl_check (err, "clEnqueueReadBuffer", "convolve image", error);
}

/* Writes what METHOD needs of FILTER's kernels, unless the device has it. */
static gboolean
upload_weights (LatentConvolveCl    *self,
                const LatentFilter  *filter,
                GError             **error)
{
  const guint size = latent_filter_get_size (filter), taps = size * size;
  const guint kernels = latent_filter_is_magnitude (filter) ? 2 : 1;
  const double divisor = latent_filter_get_divisor (filter);
  float w[MAX_TAPS], row[LATENT_FILTER_MAX_SIZE], column[LATENT_FILTER_MAX_SIZE];

  for (guint k = 0; k < kernels; k++)
    {
      const float *weights = k == 0 ? latent_filter_get_weights (filter) : latent_filter_get_weights_y (filter);
      const float *fc = NULL, *fr = NULL;
      cl_int err;

      memset (w, 0, sizeof w);
      memset (row, 0, sizeof row);
      memset (column, 0, sizeof column);
      for (guint t = 0; t < taps; t++)
        w[t] = (float) (weights[t] / divisor);
      if (latent_filter_get_factors (filter, k, &fc, &fr))
        for (guint i = 0; i < size; i++)
          {
            row[i] = fr[i];
            column[i] = (float) (fc[i] / divisor);
          }

      if (self->uploaded &&
          memcmp (w, self->host_weights[k], sizeof w) == 0 &&
          memcmp (row, self->host_row[k], sizeof row) == 0 &&
          memcmp (column, self->host_column[k], sizeof column) == 0)
        continue;

      /* Blocking: the host copies are compared with on the next pass. */
      memcpy (self->host_weights[k], w, sizeof w);
      memcpy (self->host_row[k], row, sizeof row);
      memcpy (self->host_column[k], column, sizeof column);
      err = clEnqueueWriteBuffer (self->queue, self->weights[k], CL_TRUE, 0, taps * sizeof (float),
                                  w, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->row[k], CL_TRUE, 0, size * sizeof (float),
                                    row, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->column[k], CL_TRUE, 0, size * sizeof (float),
                                    column, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueWriteBuffer", "convolve weights", error))
        {
          self->uploaded = FALSE;
          return FALSE;
        }
    }
  /* A one-kernel filter after a magnitude filter leaves kernel 1 stale;
   * nothing reads it until a magnitude filter writes it again. */
  self->uploaded = TRUE;
  return TRUE;
}

static gboolean
enqueue (LatentConvolveCl  *self,
         cl_kernel          kernel,
         const char        *name,
         const gsize       *global,
         const gsize       *local,
         GError           **error)
{
  cl_int err = clEnqueueNDRangeKernel (self->queue, kernel, 3, NULL, global, local, 0, NULL, NULL);

  return latent_cl_check (err, "clEnqueueNDRangeKernel", name, error);
}

static const gsize *
dev_local (gsize *global)
{
  static gsize local[3];
  const char *v = g_getenv ("CONV_LOCAL");
  if (!v) return NULL;
  sscanf (v, "%zu,%zu", &local[0], &local[1]);
  local[2] = 1;
  global[0] = (global[0] + local[0] - 1) / local[0] * local[0];
  global[1] = (global[1] + local[1] - 1) / local[1] * local[1];
  return local;
}

static gsize
round_up (gsize n,
          gsize m)
{
  return (n + m - 1) / m * m;
}

/* The largest group (lx, ly) up to the preferred one whose local memory,
 * BYTES_PER (lx, ly, radius), fits in the device's. */
typedef gsize (*LocalBytes) (gsize lx, gsize ly, int radius);

static gboolean
fit_group (LatentConvolveCl  *self,
           cl_kernel          kernel,
           const char        *name,
           LocalBytes         bytes_for,
           int                radius,
           gsize             *lx,
           gsize             *ly,
           GError           **error)
{
  gsize kernel_max = 0;
  cl_int err;

  err = clGetKernelWorkGroupInfo (kernel, latent_cl_get_device (self->cl), CL_KERNEL_WORK_GROUP_SIZE,
                                  sizeof kernel_max, &kernel_max, NULL);
  if (!latent_cl_check (err, "clGetKernelWorkGroupInfo", name, error))
    return FALSE;
  kernel_max = MIN (kernel_max, self->max_group);

  /* CPU: big tiles amortise the apron; a GPU: 64 work-items. */
  *lx = self->cpu ? 4 : 4;
  *ly = self->cpu ? 16 : 16;
  while ((*lx) * (*ly) > kernel_max || bytes_for (*lx, *ly, radius) > self->local_mem)
    {
      if (*ly > 1)
        *ly /= 2;
      else if (*lx > 1)
        *lx /= 2;
      else
        break;
    }
  if (bytes_for (*lx, *ly, radius) > self->local_mem || (*lx) * (*ly) > kernel_max)
    {
      g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                   _("%s: the OpenCL device's local memory (%" G_GUINT64_FORMAT " bytes) cannot hold "
                     "one tile of a %d × %d kernel; use the direct method"),
                   name, self->local_mem, 2 * radius + 1, 2 * radius + 1);
      return FALSE;
    }
  return TRUE;
}

static gsize
tiled_bytes (gsize lx,
             gsize ly,
             int   radius)
{
  const gsize pitch = round_up (lx * CONV_VEC + 2 * radius, CONV_VEC);

  return (ly * CONV_ROWS + 2 * radius) * pitch * sizeof (float);
}

static gsize
separable_bytes (gsize lx,
                 gsize ly,
                 int   radius)
{
  return (ly * CONV_SEP_ROWS + 2 * radius) * lx * CONV_VEC * sizeof (float);
}

/* One correlation of image SRC with kernel K of the filter into DST. */
static gboolean
correlate (LatentConvolveCl      *self,
           LatentConvolveMethod   method,
           guint                  k,
           int                    radius,
           int                    border,
           float                  offset,
           cl_mem                 src,
           cl_mem                 dst,
           GError               **error)
{
  const int width = self->width, height = self->height;
  gsize global[3], local[3];

  switch (method)
    {
    case LATENT_CONVOLVE_DIRECT:
      global[0] = (width + CONV_VEC - 1) / CONV_VEC;
      global[1] = (height + CONV_ROWS - 1) / CONV_ROWS;
      global[2] = self->channels;
      return latent_cl_set_args (self->direct, "convolve_direct", error,
                                 LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                 LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                 LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                 LATENT_CL_ARG (self->weights[k]), LATENT_CL_ARG (offset),
                                 LATENT_CL_ARG_END) &&
             enqueue (self, self->direct, "convolve_direct", global, dev_local (global), error);

    case LATENT_CONVOLVE_TILED:
      if (!fit_group (self, self->tiled, "convolve_tiled", tiled_bytes, radius, &local[0], &local[1], error))
        return FALSE;
      local[2] = 1;
      global[0] = round_up ((width + CONV_VEC - 1) / CONV_VEC, local[0]);
      global[1] = round_up ((height + CONV_ROWS - 1) / CONV_ROWS, local[1]);
      global[2] = self->channels;
      return latent_cl_set_args (self->tiled, "convolve_tiled", error,
                                 LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                 LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                 LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                 LATENT_CL_ARG (self->weights[k]), LATENT_CL_ARG (offset),
                                 tiled_bytes (local[0], local[1], radius), (const void *) NULL,
                                 LATENT_CL_ARG_END) &&
             enqueue (self, self->tiled, "convolve_tiled", global, local, error);

    case LATENT_CONVOLVE_SEPARABLE:
      if (!fit_group (self, self->separable, "convolve_separable", separable_bytes, radius,
                      &local[0], &local[1], error))
        return FALSE;
      local[2] = 1;
      global[0] = round_up ((width + CONV_VEC - 1) / CONV_VEC, local[0]);
      global[1] = round_up ((height + CONV_SEP_ROWS - 1) / CONV_SEP_ROWS, local[1]);
      global[2] = self->channels;
      return latent_cl_set_args (self->separable, "convolve_separable", error,
                                 LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                 LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                 LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                 LATENT_CL_ARG (self->row[k]), LATENT_CL_ARG (self->column[k]),
                                 LATENT_CL_ARG (offset),
                                 separable_bytes (local[0], local[1], radius), (const void *) NULL,
                                 LATENT_CL_ARG_END) &&
             enqueue (self, self->separable, "convolve_separable", global, local, error);

    case LATENT_CONVOLVE_AUTO:
    default:
      g_return_val_if_reached (FALSE);
    }
}

static gboolean
one_pass (LatentConvolveCl      *self,
          const LatentFilter    *filter,
          LatentBorder           border,
          LatentConvolveMethod   method,
          GError               **error)
{
  const int radius = latent_filter_get_size (filter) / 2;
  const float offset = (float) latent_filter_get_offset (filter);
  cl_mem src = self->image[self->current], dst = self->image[1 - self->current];

  if (latent_filter_is_magnitude (filter))
    {
      const gsize bytes = (gsize) self->width * self->height * self->channels * sizeof (float);
      const cl_ulong n = (cl_ulong) self->width * self->height * self->channels;
      const gsize global[3] = { (n + CONV_VEC - 1) / CONV_VEC, 1, 1 };

      for (guint i = 0; i < 2; i++)
        if (self->gradient[i] == NULL &&
            !latent_cl_create_buffer (self->cl, &self->gradient[i], CL_MEM_READ_WRITE, bytes, NULL,
                                      i == 0 ? "gradient x" : "gradient y", error))
          return FALSE;
      if (!correlate (self, method, 0, radius, border, 0.0f, src, self->gradient[0], error) ||
          !correlate (self, method, 1, radius, border, 0.0f, src, self->gradient[1], error) ||
          !latent_cl_set_args (self->magnitude, "convolve_magnitude", error,
                               LATENT_CL_ARG (self->gradient[0]), LATENT_CL_ARG (self->gradient[1]),
                               LATENT_CL_ARG (dst), LATENT_CL_ARG (n), LATENT_CL_ARG (offset),
                               LATENT_CL_ARG_END) ||
          !enqueue (self, self->magnitude, "convolve_magnitude", global, NULL, error))
        return FALSE;
    }
  else if (!correlate (self, method, 0, radius, border, offset, src, dst, error))
    return FALSE;

  self->current = 1 - self->current;
  return TRUE;
}

gboolean
latent_convolve_cl_pass (LatentConvolveCl      *self,
                         const LatentFilter    *filter,
                         LatentBorder           border,
                         LatentConvolveMethod   method,
                         guint                  passes,
                         double                *ms_out,
                         GCancellable          *cancellable,
                         GError               **error)
{
  gint64 start;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (self->image[0] != NULL, FALSE);
  g_return_val_if_fail ((guint) border <= LATENT_BORDER_ZERO, FALSE);
  g_return_val_if_fail ((guint) method < LATENT_CONVOLVE_N_METHODS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (method == LATENT_CONVOLVE_AUTO)
    method = latent_convolve_cl_choose (self, filter, self->width, self->height);
  if (method == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (filter))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("method: separable needs a kernel of rank 1, and this %u × %u kernel is not "
                     "(rank-1 residual %.2g); use direct, tiled or auto"),
                   latent_filter_get_size (filter), latent_filter_get_size (filter),
                   latent_filter_get_rank1_residual (filter));
      return FALSE;
    }
  if (!upload_weights (self, filter, error))
    return FALSE;

  start = g_get_monotonic_time ();
  for (guint p = 0; p < passes; p++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !one_pass (self, filter, border, method, error))
        return FALSE;
    }
  if (ms_out != NULL)
    {
      if (!latent_cl_check (clFinish (self->queue), "clFinish", "convolve", error))
        return FALSE;
      *ms_out = passes > 0 ? (g_get_monotonic_time () - start) / 1e3 / passes : 0.0;
    }
  return TRUE;
}

gboolean
latent_convolve_cl_run (LatentConvolveCl      *self,
                        const LatentFilter    *filter,
                        LatentBorder           border,
                        LatentConvolveMethod   method,
                        const float           *src,
                        float                 *dst,
                        guint                  width,
                        guint                  height,
                        guint                  channels,
                        double                *ms_out,
                        GCancellable          *cancellable,
                        GError               **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (src != NULL && dst != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return latent_convolve_cl_upload (self, src, width, height, channels, error) &&
         latent_convolve_cl_pass (self, filter, border, method, 1, ms_out, cancellable, error) &&
         latent_convolve_cl_download (self, dst, error);
}
