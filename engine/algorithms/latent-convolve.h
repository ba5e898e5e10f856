/* latent-convolve.h — image convolution: the C reference and the OpenCL implementations
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Images are planar float32: C planes of width × height values one after
 * the other, each row-major without padding (plane c, row y, column x at
 * [(c · height + y) · width + x]). Every channel is filtered the same way,
 * alpha included. latent_convolve_planar_from_interleaved () converts the
 * interleaved pixels of a PNG dataset.
 *
 * The filter is applied as a correlation (see latent-filter.h), outside
 * pixels given by the border mode on each axis independently:
 *
 *   clamp   aaa|abcd|ddd   OpenCV BORDER_REPLICATE
 *   mirror  dcb|abcd|cba   OpenCV BORDER_REFLECT_101 (BORDER_DEFAULT): the
 *                          edge pixel is not repeated
 *   wrap    bcd|abcd|abc   OpenCV BORDER_WRAP
 *   zero    000|abcd|000   OpenCV BORDER_CONSTANT, value 0
 *
 * Mirror and wrap repeat for kernels larger than the image.
 */
#pragma once

#include <gio/gio.h>

#include "latent-algorithm.h"
#include "latent-cl.h"
#include "latent-filter.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_BORDER_CLAMP,
  LATENT_BORDER_MIRROR,
  LATENT_BORDER_WRAP,
  LATENT_BORDER_ZERO,
} LatentBorder;

/* The OpenCL implementations (kernels/convolve.cl). All give the same
 * result within float rounding; they differ in speed. */
typedef enum {
  LATENT_CONVOLVE_AUTO,       /* the fastest for the device, kernel and size */
  LATENT_CONVOLVE_DIRECT,     /* every tap, 16 × ROWS outputs per work-item */
  LATENT_CONVOLVE_TILED,      /* every tap, from a tile loaded into local memory */
  LATENT_CONVOLVE_SEPARABLE,  /* a row pass and a column pass; rank-1 kernels only */
  /* Rows through the FFT, kernel rows as spectral products summed down the
   * kernel: for large full kernels on a CPU device. */
  LATENT_CONVOLVE_FFT,
} LatentConvolveMethod;

#define LATENT_CONVOLVE_N_METHODS 5

/* "clamp", "mirror", "wrap", "zero"; errors name the parameter "border". */
gboolean     latent_border_parse              (const char            *text,
                                               LatentBorder          *border,
                                               GError               **error);
const char  *latent_border_to_string          (LatentBorder           border);
/* The in-image index that P stands for in a line of LEN (> 0) values, −1
 * for the zero border. */
gint         latent_border_index              (LatentBorder           border,
                                               gint64                 p,
                                               guint                  len);

/* "auto", "direct", "tiled", "separable", "fft"; errors name "method". */
gboolean     latent_convolve_method_parse     (const char            *text,
                                               LatentConvolveMethod  *method,
                                               GError               **error);
const char  *latent_convolve_method_to_string (LatentConvolveMethod   method);

/* Width and height ≥ 1, at most LATENT_PNG_MAX_PIXELS pixels, 1–4 channels;
 * the error names the size. */
gboolean     latent_convolve_check_image      (guint                  width,
                                               guint                  height,
                                               guint                  channels,
                                               GError               **error);

/* N_PIXELS pixels of CHANNELS interleaved values ↔ CHANNELS planes. */
void         latent_convolve_planar_from_interleaved (const float    *pixels,
                                                      float          *planes,
                                                      gsize           n_pixels,
                                                      guint           channels);
void         latent_convolve_interleaved_from_planar (const float    *planes,
                                                      float          *pixels,
                                                      gsize           n_pixels,
                                                      guint           channels);

/* ---- the C reference ----
 * Plain loops, double accumulation: the oracle for the OpenCL paths, and
 * the fallback without a device. SRC and DST are planar and must not
 * overlap. */
gboolean     latent_convolve_reference        (const LatentFilter    *filter,
                                               LatentBorder           border,
                                               const float           *src,
                                               float                 *dst,
                                               guint                  width,
                                               guint                  height,
                                               guint                  channels,
                                               GError               **error);

/* ---- OpenCL ----
 * Holds the built kernels, an in-order queue of its own and the image on
 * the device. Kernel arguments and buffers are per object: one per thread. */
typedef struct _LatentConvolveCl LatentConvolveCl;

LatentConvolveCl    *latent_convolve_cl_new      (LatentCl              *cl,
                                                  GError               **error);
void                 latent_convolve_cl_free     (LatentConvolveCl      *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentConvolveCl, latent_convolve_cl_free)

/* What AUTO runs for FILTER on a WIDTH × HEIGHT image: the fastest method
 * measured on this kind of device (tests/bench/bench-convolve.py). */
LatentConvolveMethod latent_convolve_cl_choose   (LatentConvolveCl      *self,
                                                  const LatentFilter    *filter,
                                                  guint                  width,
                                                  guint                  height);

/* Copies SRC (planar) to the device; the image stays there across passes. */
gboolean             latent_convolve_cl_upload   (LatentConvolveCl      *self,
                                                  const float           *src,
                                                  guint                  width,
                                                  guint                  height,
                                                  guint                  channels,
                                                  GError               **error);
/* Applies FILTER PASSES times to the image on the device (repeat mode: the
 * output of one pass is the input of the next, with no host round trip).
 * SEPARABLE with a kernel that is not separable is an error naming
 * "method". When MS_OUT is given the call waits for the passes and stores
 * the wall time per pass in milliseconds (enqueue to completion); without
 * it the passes are only enqueued. CANCELLABLE is checked between passes. */
gboolean             latent_convolve_cl_pass     (LatentConvolveCl      *self,
                                                  const LatentFilter    *filter,
                                                  LatentBorder           border,
                                                  LatentConvolveMethod   method,
                                                  guint                  passes,
                                                  double                *ms_out,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
/* One pass as latent_convolve_cl_pass (), and the RMS change it made,
 * √(Σ (out − in)² / values), summed on the device where the pass writes its
 * output: a run's step, which reads back no image. Waits for the pass. */
gboolean             latent_convolve_cl_step     (LatentConvolveCl      *self,
                                                  const LatentFilter    *filter,
                                                  LatentBorder           border,
                                                  LatentConvolveMethod   method,
                                                  double                *change_out,
                                                  double                *ms_out,
                                                  GCancellable          *cancellable,
                                                  GError               **error);
/* Copies the current image (planar, as uploaded) into DST; waits for it. */
gboolean             latent_convolve_cl_download (LatentConvolveCl      *self,
                                                  float                 *dst,
                                                  GError               **error);

/* Upload, one pass, download. */
gboolean             latent_convolve_cl_run      (LatentConvolveCl      *self,
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
                                                  GError               **error);

/* The algorithm: one pass of the filter per iteration (latent-convolve.c). */
const LatentAlgorithm *latent_convolve_get_algorithm (void);

G_END_DECLS
