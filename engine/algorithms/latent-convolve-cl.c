/* latent-convolve-cl.c — image convolution on the OpenCL device: buffers, methods, launches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-convolve"

#include "latent-convolve.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

/* The tunables of kernels/convolve.cl, passed as build options so the
 * host's sizes and the kernels' agree: 16-pixel vectors; a direct or tiled
 * work-item's ROWS rows of COLS vectors; the separable row pass's step of
 * SEP_VECTORS vectors and its ring of row-filtered rows. */
#define CONV_VEC 16
#define CONV_ROWS 4
/* CPU shape, radius 1 and 2 compiled in: more rows per work-item, so each
 * input row loaded serves more outputs (2r + ROWS rows read for ROWS). */
#ifndef CONV_ROWS_SMALL
#define CONV_ROWS_SMALL 8
#endif
#define CONV_COLS 2
#define CONV_BW (CONV_COLS * CONV_VEC)
#define CONV_SEP_VECTORS 8
#define CONV_SEP_W (CONV_SEP_VECTORS * CONV_VEC)
#define CONV_SEP_RING 64

#define MAX_TAPS (LATENT_FILTER_MAX_SIZE * LATENT_FILTER_MAX_SIZE)

static guint fft_length (LatentConvolveCl *self, guint width, int radius);

struct _LatentConvolveCl
{
  LatentCl         *cl;
  cl_command_queue  queue;
  cl_kernel         direct;
  cl_kernel         direct3;   /* radius 1 compiled in */
  cl_kernel         direct5;   /* radius 2 compiled in */
  int               rows_small;  /* ROWS of direct3 and direct5 */
  cl_kernel         tiled;
  cl_kernel         separable;
  cl_kernel         magnitude;
  cl_kernel         fft_rows;
  cl_kernel         fft_apply;
  cl_kernel         change;
  gboolean          cpu;       /* the CPU shape */
  guint64           local_mem;
  gsize             max_group;
  guint             units;
  guint64           max_alloc;
  guint64           cache;     /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE */

  /* The image on the device: image[current] holds it, the other is the
   * next pass's output. */
  guint             width, height, channels;
  cl_mem            image[2];
  guint             current;
  cl_mem            gradient[2];  /* gx, gy of a magnitude filter */
  cl_mem            scratch;      /* the separable kernel's rings */
  gsize             scratch_floats;
  /* A pass's change, summed per work-item (per band) on the device. */
  cl_mem            partial;
  gsize             partial_floats;
  float            *host_partial;

  /* Weights as last written to the device, per kernel of the filter:
   * the full kernel and the two factors, divisor folded in. */
  cl_mem            weights[2];
  cl_mem            row[2];
  cl_mem            column[2];
  float             host_weights[2][MAX_TAPS];
  float             host_row[2][LATENT_FILTER_MAX_SIZE];
  float             host_column[2][LATENT_FILTER_MAX_SIZE];
  gboolean          uploaded;

  /* The fft method: transform length, segments per row, groups of 32
   * rows, and the buffers for this image size; the spectra of the kernels
   * of the filter (of fft_kernel_size, fft_kernel_count of them) while
   * fft_kernel_valid. */
  guint             fft_n;
  guint             fft_segments;
  guint             fft_groups;
  cl_mem            fft_twiddle;
  cl_mem            fft_re;
  cl_mem            fft_im;
  cl_mem            fft_kernel[2];
  guint             fft_kernel_size;
  guint             fft_kernel_count;
  gboolean          fft_kernel_valid;
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
  release_mem (&self->scratch);
  self->scratch_floats = 0;
  release_mem (&self->partial);
  self->partial_floats = 0;
  g_clear_pointer (&self->host_partial, g_free);
  release_mem (&self->fft_twiddle);
  release_mem (&self->fft_re);
  release_mem (&self->fft_im);
  release_mem (&self->fft_kernel[0]);
  release_mem (&self->fft_kernel[1]);
  self->fft_n = 0;
  self->fft_kernel_valid = FALSE;
  self->width = self->height = self->channels = 0;
}

void
latent_convolve_cl_free (LatentConvolveCl *self)
{
  if (self == NULL)
    return;
  /* A pass that failed half-way may leave copies queued from host arrays. */
  if (self->queue)
    clFinish (self->queue);
  release_image (self);
  for (guint i = 0; i < 2; i++)
    {
      release_mem (&self->weights[i]);
      release_mem (&self->row[i]);
      release_mem (&self->column[i]);
    }
  if (self->direct)
    clReleaseKernel (self->direct);
  if (self->direct3)
    clReleaseKernel (self->direct3);
  if (self->direct5)
    clReleaseKernel (self->direct5);
  if (self->tiled)
    clReleaseKernel (self->tiled);
  if (self->separable)
    clReleaseKernel (self->separable);
  if (self->magnitude)
    clReleaseKernel (self->magnitude);
  if (self->fft_rows)
    clReleaseKernel (self->fft_rows);
  if (self->fft_apply)
    clReleaseKernel (self->fft_apply);
  if (self->change)
    clReleaseKernel (self->change);
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
  g_autofree char *options_small = NULL;
  g_autofree char *options3 = NULL;
  g_autofree char *options5 = NULL;
  cl_ulong cache = 0;
  const LatentClDeviceInfo *info;

  g_return_val_if_fail (LATENT_IS_CL (cl), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  info = latent_cl_get_info (cl);
  self = g_new0 (LatentConvolveCl, 1);
  self->cl = g_object_ref (cl);
  self->cpu = latent_cl_get_shape (cl) == LATENT_KERNEL_SHAPE_CPU;
  self->local_mem = info->local_mem_size;
  self->max_group = MAX (1, info->max_work_group_size);
  self->units = MAX (1, info->compute_units);
  self->max_alloc = info->max_alloc;
  if (clGetDeviceInfo (latent_cl_get_device (cl), CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache,
                       NULL) == CL_SUCCESS)
    self->cache = cache;
  if (self->cache == 0)
    self->cache = 8 << 20;   /* unknown: a small L3 */

  options = g_strdup_printf ("-DROWS=%d -DCOLS=%d -DSEP_VECTORS=%d -DMAX_RADIUS=%d",
                             CONV_ROWS, CONV_COLS, CONV_SEP_VECTORS, LATENT_FILTER_MAX_SIZE / 2);
  /* Rows times the image's width are launch sizes: an override stays small. */
  self->rows_small = self->cpu ? CLAMP (latent_cl_tunable (cl, "convolve", "ROWS_SMALL", CONV_ROWS_SMALL), 1, 16)
                               : CONV_ROWS;
  options_small = g_strdup_printf ("-DROWS=%d -DCOLS=%d -DSEP_VECTORS=%d -DMAX_RADIUS=%d",
                                   self->rows_small, CONV_COLS, CONV_SEP_VECTORS, LATENT_FILTER_MAX_SIZE / 2);
  if (!(self->queue = latent_cl_create_queue (cl, error)) ||
      !(self->direct = latent_cl_create_kernel (cl, "convolve", options, "convolve_direct", error)) ||
      !(options3 = g_strconcat (options_small, " -DFIXED_RADIUS=1", NULL)) ||
      !(self->direct3 = latent_cl_create_kernel (cl, "convolve", options3, "convolve_direct", error)) ||
      !(options5 = g_strconcat (options_small, " -DFIXED_RADIUS=2", NULL)) ||
      !(self->direct5 = latent_cl_create_kernel (cl, "convolve", options5, "convolve_direct", error)) ||
      !(self->tiled = latent_cl_create_kernel (cl, "convolve", options, "convolve_tiled", error)) ||
      !(self->separable = latent_cl_create_kernel (cl, "convolve", options, "convolve_separable", error)) ||
      !(self->magnitude = latent_cl_create_kernel (cl, "convolve", options, "convolve_magnitude", error)) ||
      !(self->fft_rows = latent_cl_create_kernel (cl, "convolve", options, "convolve_fft_rows", error)) ||
      !(self->fft_apply = latent_cl_create_kernel (cl, "convolve", options, "convolve_fft_apply", error)) ||
      !(self->change = latent_cl_create_kernel (cl, "convolve", options, "convolve_change", error)))
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

/* Measured with tests/bench/bench-convolve.py on PoCL (2 AVX-512 cores,
 * 640 × 480 and 3840 × 2160). A 3 × 3 kernel is memory-bound: direct,
 * which reads the image once, is fastest (on an Intel Xeon, 2026-12-07:
 * 5,528 against the separable kernel's 4,277 MP/s at 640 × 480, 7,456
 * against 4,220 at 3840 × 2160; an AMD EPYC had the separable kernel
 * ahead on images that stay in its caches). The engine races the methods
 * before a run; this is what runs without a race. Separable wins from
 * 5 × 5 on. For
 * full kernels the fft's cost grows with the size and direct's with its
 * square; they cross near 15 × 15. Other devices get the kernel shaped for
 * them (work-groups sharing a tile in local memory): the separable and fft
 * kernels give each work-item a long stretch of work, which suits a CPU. */
LatentConvolveMethod
latent_convolve_cl_choose (LatentConvolveCl   *self,
                           const LatentFilter *filter,
                           guint               width,
                           guint               height)
{
  const guint size = filter ? latent_filter_get_size (filter) : 0;

  g_return_val_if_fail (self != NULL, LATENT_CONVOLVE_DIRECT);
  g_return_val_if_fail (filter != NULL, LATENT_CONVOLVE_DIRECT);

  if (size == 1)
    return LATENT_CONVOLVE_DIRECT;
  if (!self->cpu)
    return LATENT_CONVOLVE_TILED;
  if (latent_filter_is_separable (filter))
    return size > 3 ? LATENT_CONVOLVE_SEPARABLE : LATENT_CONVOLVE_DIRECT;
  if (size >= 17 && fft_length (self, width, size / 2) > 0)
    return LATENT_CONVOLVE_FFT;
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
                   _("image: %u × %u pixels of %u channels need %llu MiB, above the "
                     "OpenCL device's largest buffer (%llu MiB)"),
                   width, height, channels, (unsigned long long) (bytes >> 20),
                   (unsigned long long) (self->max_alloc >> 20));
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

      /* Whole arrays, zeros after the kernel included, so that equal host
       * copies mean equal device buffers whatever the size. Blocking: the
       * host copies are compared with on the next pass. */
      self->fft_kernel_valid = FALSE;
      memcpy (self->host_weights[k], w, sizeof w);
      memcpy (self->host_row[k], row, sizeof row);
      memcpy (self->host_column[k], column, sizeof column);
      err = clEnqueueWriteBuffer (self->queue, self->weights[k], CL_TRUE, 0, sizeof w, w, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->row[k], CL_TRUE, 0, sizeof row, row, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->column[k], CL_TRUE, 0, sizeof column, column,
                                    0, NULL, NULL);
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


static gboolean
ensure_scratch (LatentConvolveCl  *self,
                gsize              floats,
                GError           **error)
{
  if (self->scratch_floats >= floats)
    return TRUE;
  release_mem (&self->scratch);
  self->scratch_floats = 0;
  if (!latent_cl_create_buffer (self->cl, &self->scratch, CL_MEM_READ_WRITE, floats * sizeof (float),
                                NULL, "separable rows", error))
    return FALSE;
  self->scratch_floats = floats;
  return TRUE;
}

static gsize
round_up (gsize n,
          gsize m)
{
  return (n + m - 1) / m * m;
}

/* Room for COUNT partial sums of a pass's change; *PARTIAL is the buffer,
 * or stays NULL when no change is wanted (WANTED FALSE). */
static gboolean
ensure_partial (LatentConvolveCl  *self,
                gboolean           wanted,
                gsize              count,
                cl_mem            *partial,
                gsize             *count_out,
                GError           **error)
{
  *partial = NULL;
  if (!wanted)
    return TRUE;
  if (self->partial_floats < count)
    {
      release_mem (&self->partial);
      g_clear_pointer (&self->host_partial, g_free);
      self->partial_floats = 0;
      if (!latent_cl_create_buffer (self->cl, &self->partial, CL_MEM_WRITE_ONLY, count * sizeof (float),
                                    NULL, "change per work-item", error))
        return FALSE;
      self->host_partial = g_new (float, count);
      self->partial_floats = count;
    }
  *partial = self->partial;
  *count_out = count;
  return TRUE;
}

/* CPU: groups of up to 64 work-items across and 4 down, so each group is
 * enough work to be worth scheduling (a CPU driver runs a group on one
 * thread; single-item groups cost up to half the time of a 3 × 3 pass) and
 * consecutive ones read neighbouring memory. GLOBAL is rounded up to a
 * multiple; NULL (the driver's choice) on other devices. */
static const gsize *
row_groups (LatentConvolveCl *self,
            gsize            *global,
            gsize            *local)
{
  if (!self->cpu)
    return NULL;
  local[0] = (global[0] + (global[0] + 63) / 64 - 1) / ((global[0] + 63) / 64);
  local[1] = MIN (4, global[1]);
  local[2] = 1;
  global[0] = round_up (global[0], local[0]);
  global[1] = round_up (global[1], local[1]);
  return local;
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
  const gsize kernel_max = MIN (latent_cl_kernel_group_limit (self->cl, kernel), self->max_group);

  /* 64 work-items, a tile of 128 × 64 outputs, or less to fit. */
  *lx = 4;
  *ly = 16;
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
                   _("%s: the OpenCL device's local memory (%llu bytes) cannot hold "
                     "one tile of a %d × %d kernel; use the direct method"),
                   name, (unsigned long long) self->local_mem, 2 * radius + 1, 2 * radius + 1);
      return FALSE;
    }
  return TRUE;
}

static gsize
tiled_bytes (gsize lx,
             gsize ly,
             int   radius)
{
  const gsize pitch = round_up (lx * CONV_BW + 2 * radius, CONV_VEC);

  return (ly * CONV_ROWS + 2 * radius) * pitch * sizeof (float);
}

/* ---- fft ---------------------------------------------------------------- */

/* Rows per fft work-item: 16 lanes, two rows per complex transform. */
#define FFT_ROWS 32

/* The transform length for a WIDTH-wide image and radius R: the power of
 * two from 64 to 2048 whose segments (n − 2r outputs each) cost least,
 * counting the spectral products (n/2 + 1 bins × (2r + 1) kernel rows) and
 * the transforms (n log₂ n), and whose ping-pong buffers fit in local
 * memory. 0 when none does. */
static guint
fft_length (LatentConvolveCl *self,
            guint             width,
            int               radius)
{
  double best_cost = G_MAXDOUBLE;
  guint best = 0;

  for (guint n = 64; n <= 2048; n *= 2)
    {
      const guint seg = n - 2 * radius;
      guint segments, log2n = 0;
      double cost;

      if ((int) n <= 4 * radius || (guint64) 4 * n * 16 * sizeof (float) > self->local_mem)
        continue;
      while ((1u << log2n) < n)
        log2n++;
      segments = (width + seg - 1) / seg;
      cost = segments * ((n / 2 + 1) * (2.0 * radius + 1) * 4 + 2.5 * n * log2n);
      if (cost < best_cost)
        {
          best_cost = cost;
          best = n;
        }
    }
  return best;
}

/* Buffers for transforms of length N of the current image. */
static gboolean
fft_prepare (LatentConvolveCl  *self,
             guint              n,
             int                radius,
             GError           **error)
{
  const guint seg = n - 2 * radius;
  const guint segments = (self->width + seg - 1) / seg;
  const guint groups = (self->height + FFT_ROWS - 1) / FFT_ROWS;
  const gsize spectra = (gsize) segments * (n / 2 + 1) * groups * FFT_ROWS;
  g_autofree cl_float2 *tw = NULL;

  if (n == self->fft_n && segments == self->fft_segments)
    return TRUE;

  release_mem (&self->fft_twiddle);
  release_mem (&self->fft_re);
  release_mem (&self->fft_im);
  release_mem (&self->fft_kernel[0]);
  release_mem (&self->fft_kernel[1]);
  self->fft_n = 0;
  self->fft_kernel_valid = FALSE;

  /* Twiddles in double, rounded once. */
  tw = g_new (cl_float2, n);
  for (guint m = 0; m < n; m++)
    {
      tw[m].s[0] = (float) cos (-2 * G_PI * m / n);
      tw[m].s[1] = (float) sin (-2 * G_PI * m / n);
    }
  if (!latent_cl_create_buffer (self->cl, &self->fft_twiddle, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof (cl_float2), tw, "fft twiddles", error) ||
      !latent_cl_create_buffer (self->cl, &self->fft_re, CL_MEM_READ_WRITE, spectra * sizeof (float),
                                NULL, "row spectra", error) ||
      !latent_cl_create_buffer (self->cl, &self->fft_im, CL_MEM_READ_WRITE, spectra * sizeof (float),
                                NULL, "row spectra", error))
    return FALSE;
  for (guint k = 0; k < 2; k++)
    if (!latent_cl_create_buffer (self->cl, &self->fft_kernel[k], CL_MEM_READ_ONLY,
                                  (gsize) (n / 2 + 1) * LATENT_FILTER_MAX_SIZE * sizeof (cl_float2),
                                  NULL, "kernel spectra", error))
      return FALSE;
  self->fft_n = n;
  self->fft_segments = segments;
  self->fft_groups = groups;
  return TRUE;
}

/* K_ky[f] = Σ_i w[ky][i] · e^{+2πi f i / n} / n, from the weights on the
 * device (divisor folded in), as kspec[f · k + ky]: the conjugate spectrum
 * of each kernel row, which turns the product into a correlation. */
static gboolean
fft_kernel_spectra (LatentConvolveCl  *self,
                    guint              kernels,
                    guint              size,
                    GError           **error)
{
  const guint n = self->fft_n, bins = n / 2 + 1;
  g_autofree cl_float2 *spec = g_new (cl_float2, (gsize) bins * size);
  g_autofree double *c = g_new (double, n);
  g_autofree double *s = g_new (double, n);

  /* The weights compared equal to the last ones may still be of another
   * size (a 1 × 1 kernel and a 3 × 3 one with zeros after its first tap). */
  if (self->fft_kernel_valid && self->fft_kernel_size == size && self->fft_kernel_count >= kernels)
    return TRUE;
  for (guint m = 0; m < n; m++)
    {
      c[m] = cos (2 * G_PI * m / n);
      s[m] = sin (2 * G_PI * m / n);
    }
  for (guint k = 0; k < kernels; k++)
    {
      cl_int err;

      for (guint f = 0; f < bins; f++)
        for (guint ky = 0; ky < size; ky++)
          {
            double re = 0, im = 0;

            for (guint i = 0; i < size; i++)
              {
                const double w = self->host_weights[k][ky * size + i];
                const guint m = (guint) (((guint64) f * i) % n);
                re += w * c[m];
                im += w * s[m];
              }
            spec[f * size + ky].s[0] = (float) (re / n);
            spec[f * size + ky].s[1] = (float) (im / n);
          }
      err = clEnqueueWriteBuffer (self->queue, self->fft_kernel[k], CL_TRUE, 0,
                                  (gsize) bins * size * sizeof (cl_float2), spec, 0, NULL, NULL);
      if (!latent_cl_check (err, "clEnqueueWriteBuffer", "kernel spectra", error))
        return FALSE;
    }
  self->fft_kernel_size = size;
  self->fft_kernel_count = kernels;
  self->fft_kernel_valid = TRUE;
  return TRUE;
}

static gboolean
fft_correlate (LatentConvolveCl  *self,
               guint              k,
               int                radius,
               int                border,
               float              offset,
               cl_mem             src,
               cl_mem             dst,
               GError           **error)
{
  const int width = self->width, height = self->height;
  const int n = self->fft_n, hp = self->fft_groups * FFT_ROWS;
  const gsize global[3] = { self->fft_groups, self->fft_segments, 1 };
  const gsize local[3] = { 1, 1, 1 };
  const gsize local_bytes = (gsize) 4 * n * 16 * sizeof (float);

  /* One plane at a time: the spectra buffer holds one. */
  for (guint c = 0; c < self->channels; c++)
    {
      const cl_ulong plane = (cl_ulong) c * width * height;

      if (!latent_cl_set_args (self->fft_rows, "convolve_fft_rows", error,
                               LATENT_CL_ARG (src), LATENT_CL_ARG (plane),
                               LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                               LATENT_CL_ARG (radius), LATENT_CL_ARG (border), LATENT_CL_ARG (n),
                               LATENT_CL_ARG (self->fft_twiddle), LATENT_CL_ARG (self->fft_re),
                               LATENT_CL_ARG (self->fft_im), LATENT_CL_ARG (hp),
                               local_bytes, (const void *) NULL, LATENT_CL_ARG_END) ||
          !enqueue (self, self->fft_rows, "convolve_fft_rows", global, local, error) ||
          !latent_cl_set_args (self->fft_apply, "convolve_fft_apply", error,
                               LATENT_CL_ARG (dst), LATENT_CL_ARG (plane),
                               LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                               LATENT_CL_ARG (radius), LATENT_CL_ARG (border), LATENT_CL_ARG (n),
                               LATENT_CL_ARG (self->fft_twiddle), LATENT_CL_ARG (self->fft_re),
                               LATENT_CL_ARG (self->fft_im), LATENT_CL_ARG (hp),
                               LATENT_CL_ARG (self->fft_kernel[k]), LATENT_CL_ARG (offset),
                               local_bytes, (const void *) NULL, LATENT_CL_ARG_END) ||
          !enqueue (self, self->fft_apply, "convolve_fft_apply", global, local, error))
        return FALSE;
    }
  return TRUE;
}

/* Whether the direct and separable kernels store their output past the
 * caches (see store_vec () in convolve.cl): on the CPU shape, for an image
 * whose two buffers do not fit in the device's cache (a pass would evict
 * its input with its output anyway, and skipping the read of each line it
 * writes saves a third of the memory traffic), when every vector store is
 * aligned (widths a multiple of 16). LATENT_CONVOLVE_STREAM=0|1 overrides
 * it, for measuring and for the tests. */
static int
streams (LatentConvolveCl *self)
{
  const char *forced = g_getenv ("LATENT_CONVOLVE_STREAM");
  const guint64 bytes = (guint64) self->width * self->height * self->channels * sizeof (float);

  if (!self->cpu || self->width % CONV_VEC != 0)
    return 0;
  if (forced != NULL)
    return forced[0] == '1';
  return 2 * bytes > self->cache;
}

/* One correlation of image SRC with kernel K of the filter into DST. With
 * CHANGE, the kernel also leaves Σ (dst − src)² in *COUNT partial sums
 * (not fft: its caller sums the change). */
static gboolean
correlate (LatentConvolveCl      *self,
           LatentConvolveMethod   method,
           guint                  k,
           int                    radius,
           int                    border,
           float                  offset,
           cl_mem                 src,
           cl_mem                 dst,
           gboolean               change,
           gsize                 *count,
           GError               **error)
{
  const int width = self->width, height = self->height;
  const int stream = streams (self);
  int rows;
  gsize global[3], local[3];
  const gsize *group;
  cl_kernel kernel;
  cl_mem partial;

  switch (method)
    {
    case LATENT_CONVOLVE_DIRECT:
      rows = radius == 1 || radius == 2 ? self->rows_small : CONV_ROWS;
      global[0] = (width + CONV_BW - 1) / CONV_BW;
      global[1] = (height + rows - 1) / rows;
      global[2] = self->channels;
      kernel = radius == 1 ? self->direct3 : radius == 2 ? self->direct5 : self->direct;
      group = row_groups (self, global, local);
      return ensure_partial (self, change, global[0] * global[1] * global[2], &partial, count, error) &&
             latent_cl_set_args (kernel, "convolve_direct", error,
                                 LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                 LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                 LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                 LATENT_CL_ARG (self->weights[k]), LATENT_CL_ARG (offset),
                                 LATENT_CL_ARG (stream), LATENT_CL_ARG (partial), LATENT_CL_ARG_END) &&
             enqueue (self, kernel, "convolve_direct", global, group, error);

    case LATENT_CONVOLVE_TILED:
      if (!fit_group (self, self->tiled, "convolve_tiled", tiled_bytes, radius, &local[0], &local[1], error))
        return FALSE;
      local[2] = 1;
      global[0] = round_up ((width + CONV_BW - 1) / CONV_BW, local[0]);
      global[1] = round_up ((height + CONV_ROWS - 1) / CONV_ROWS, local[1]);
      global[2] = self->channels;
      return ensure_partial (self, change, global[0] * global[1] * global[2], &partial, count, error) &&
             latent_cl_set_args (self->tiled, "convolve_tiled", error,
                                 LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                 LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                 LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                 LATENT_CL_ARG (self->weights[k]), LATENT_CL_ARG (offset),
                                 tiled_bytes (local[0], local[1], radius), (const void *) NULL,
                                 LATENT_CL_ARG (partial), LATENT_CL_ARG_END) &&
             enqueue (self, self->tiled, "convolve_tiled", global, local, error);

    case LATENT_CONVOLVE_SEPARABLE:
      {
        const int pitch = round_up (width, CONV_SEP_W);
        const int planes = self->channels;
        /* About eight bands per compute unit (at most 64: each has its
         * ring), each at least twice the kernel's height, as its first 2r
         * rows are filtered twice. */
        const int most = MIN (8 * (int) self->units, 64);
        const int rows = MAX ((height + most - 1) / most, 4 * radius + 1);
        /* Each band's ring, then its line for pieces at the edges. */
        const cl_ulong stride = CONV_SEP_RING * (cl_ulong) pitch + CONV_SEP_W + LATENT_FILTER_MAX_SIZE + CONV_VEC;
        const gsize bands = (height + rows - 1) / rows;

        if (!ensure_scratch (self, bands * stride, error) ||
            !ensure_partial (self, change, bands, &partial, count, error))
          return FALSE;
        global[0] = bands;
        global[1] = 1;
        global[2] = 1;
        local[0] = local[1] = local[2] = 1;
        return latent_cl_set_args (self->separable, "convolve_separable", error,
                                   LATENT_CL_ARG (src), LATENT_CL_ARG (dst),
                                   LATENT_CL_ARG (width), LATENT_CL_ARG (height),
                                   LATENT_CL_ARG (radius), LATENT_CL_ARG (border),
                                   LATENT_CL_ARG (self->row[k]), LATENT_CL_ARG (self->column[k]),
                                   LATENT_CL_ARG (offset), LATENT_CL_ARG (rows), LATENT_CL_ARG (planes),
                                   LATENT_CL_ARG (pitch), LATENT_CL_ARG (self->scratch),
                                   LATENT_CL_ARG (stride), LATENT_CL_ARG (stream), LATENT_CL_ARG (partial),
                                   LATENT_CL_ARG_END) &&
               enqueue (self, self->separable, "convolve_separable", global, self->cpu ? local : NULL, error);
      }

    case LATENT_CONVOLVE_FFT:
      return fft_correlate (self, k, radius, border, offset, src, dst, error);

    case LATENT_CONVOLVE_AUTO:
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* One pass; with CHANGE, its Σ (out − in)² left in *COUNT partial sums. */
static gboolean
one_pass (LatentConvolveCl      *self,
          const LatentFilter    *filter,
          LatentBorder           border,
          LatentConvolveMethod   method,
          gboolean               change,
          gsize                 *count,
          GError               **error)
{
  const int radius = latent_filter_get_size (filter) / 2;
  const float offset = (float) latent_filter_get_offset (filter);
  cl_mem src = self->image[self->current], dst = self->image[1 - self->current];
  cl_mem partial;

  if (latent_filter_is_magnitude (filter))
    {
      const gsize bytes = (gsize) self->width * self->height * self->channels * sizeof (float);
      const cl_ulong n = (cl_ulong) self->width * self->height * self->channels;
      gsize global[3] = { (n + CONV_VEC - 1) / CONV_VEC, 1, 1 }, local[3];

      for (guint i = 0; i < 2; i++)
        if (self->gradient[i] == NULL &&
            !latent_cl_create_buffer (self->cl, &self->gradient[i], CL_MEM_READ_WRITE, bytes, NULL,
                                      i == 0 ? "gradient x" : "gradient y", error))
          return FALSE;
      const gsize *group;

      if (!correlate (self, method, 0, radius, border, 0.0f, src, self->gradient[0], FALSE, NULL, error) ||
          !correlate (self, method, 1, radius, border, 0.0f, src, self->gradient[1], FALSE, NULL, error))
        return FALSE;
      group = row_groups (self, global, local);
      if (!ensure_partial (self, change, global[0], &partial, count, error) ||
          !latent_cl_set_args (self->magnitude, "convolve_magnitude", error,
                               LATENT_CL_ARG (self->gradient[0]), LATENT_CL_ARG (self->gradient[1]),
                               LATENT_CL_ARG (dst), LATENT_CL_ARG (n), LATENT_CL_ARG (offset),
                               LATENT_CL_ARG (src), LATENT_CL_ARG (partial), LATENT_CL_ARG_END) ||
          !enqueue (self, self->magnitude, "convolve_magnitude", global, group, error))
        return FALSE;
    }
  else if (method == LATENT_CONVOLVE_FFT)
    {
      /* The fft's kernels work on spectra, away from the pixels: the
       * change reads both images once more. */
      const cl_ulong n = (cl_ulong) self->width * self->height * self->channels;
      const gsize per_item = 16 * CONV_VEC;   /* CHANGE_VECTORS vectors */
      gsize global[3] = { (n + per_item - 1) / per_item, 1, 1 }, local[3];
      const gsize *group;

      if (!correlate (self, method, 0, radius, border, offset, src, dst, FALSE, NULL, error))
        return FALSE;
      group = row_groups (self, global, local);
      if (change &&
          (!ensure_partial (self, change, global[0], &partial, count, error) ||
           !latent_cl_set_args (self->change, "convolve_change", error,
                                LATENT_CL_ARG (src), LATENT_CL_ARG (dst), LATENT_CL_ARG (n),
                                LATENT_CL_ARG (partial), LATENT_CL_ARG_END) ||
           !enqueue (self, self->change, "convolve_change", global, group, error)))
        return FALSE;
    }
  else if (!correlate (self, method, 0, radius, border, offset, src, dst, change, count, error))
    return FALSE;

  self->current = 1 - self->current;
  return TRUE;
}

/* What a pass of METHOD with FILTER needs before it runs: AUTO resolved
 * into *METHOD, the weights on the device, the fft's buffers. */
static gboolean
prepare_pass (LatentConvolveCl      *self,
              const LatentFilter    *filter,
              LatentConvolveMethod  *method,
              GError               **error)
{
  if (*method == LATENT_CONVOLVE_AUTO)
    *method = latent_convolve_cl_choose (self, filter, self->width, self->height);
  if (*method == LATENT_CONVOLVE_SEPARABLE && !latent_filter_is_separable (filter))
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
  if (*method == LATENT_CONVOLVE_FFT)
    {
      const int radius = latent_filter_get_size (filter) / 2;
      const guint n = fft_length (self, self->width, radius);

      if (n == 0)
        {
          g_set_error (error, LATENT_CL_ERROR, LATENT_CL_ERROR_CALL,
                       _("method: the OpenCL device's local memory (%llu bytes) is too "
                         "small for the fft method with a %u × %u kernel; use direct"),
                       (unsigned long long) self->local_mem, latent_filter_get_size (filter), latent_filter_get_size (filter));
          return FALSE;
        }
      if (!fft_prepare (self, n, radius, error) ||
          !fft_kernel_spectra (self, latent_filter_is_magnitude (filter) ? 2 : 1,
                               latent_filter_get_size (filter), error))
        return FALSE;
    }
  return TRUE;
}

/* PASSES passes; with CHANGE_OUT one, whose RMS change is summed on the
 * device and read back (the partial sums only: the image stays there).
 * MS_OUT: the wall time per pass, waited for. */
static gboolean
run_passes (LatentConvolveCl      *self,
            const LatentFilter    *filter,
            LatentBorder           border,
            LatentConvolveMethod   method,
            guint                  passes,
            double                *change_out,
            double                *ms_out,
            GCancellable          *cancellable,
            GError               **error)
{
  gsize count = 0;
  gint64 start;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (self->image[0] != NULL, FALSE);
  g_return_val_if_fail ((guint) border <= LATENT_BORDER_ZERO, FALSE);
  g_return_val_if_fail ((guint) method < LATENT_CONVOLVE_N_METHODS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!prepare_pass (self, filter, &method, error))
    return FALSE;
  start = g_get_monotonic_time ();
  for (guint p = 0; p < passes; p++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !one_pass (self, filter, border, method, change_out != NULL, &count, error))
        return FALSE;
    }
  if (change_out != NULL)
    {
      double sum = 0;
      /* A few hundred kilobytes at most, waited for with the pass. */
      cl_int err = clEnqueueReadBuffer (self->queue, self->partial, CL_TRUE, 0, count * sizeof (float),
                                        self->host_partial, 0, NULL, NULL);

      if (!latent_cl_check (err, "clEnqueueReadBuffer", "convolve change", error))
        return FALSE;
      for (gsize i = 0; i < count; i++)
        sum += self->host_partial[i];
      *change_out = sqrt (sum / ((double) self->width * self->height * self->channels));
    }
  else if (ms_out != NULL &&
           !latent_cl_check (clFinish (self->queue), "clFinish", "convolve", error))
    return FALSE;
  if (ms_out != NULL)
    *ms_out = passes > 0 ? (g_get_monotonic_time () - start) / 1e3 / passes : 0.0;
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
  return run_passes (self, filter, border, method, passes, NULL, ms_out, cancellable, error);
}

gboolean
latent_convolve_cl_step (LatentConvolveCl      *self,
                         const LatentFilter    *filter,
                         LatentBorder           border,
                         LatentConvolveMethod   method,
                         double                *change_out,
                         double                *ms_out,
                         GCancellable          *cancellable,
                         GError               **error)
{
  g_return_val_if_fail (change_out != NULL, FALSE);

  return run_passes (self, filter, border, method, 1, change_out, ms_out, cancellable, error);
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
