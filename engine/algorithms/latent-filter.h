/* latent-filter.h — convolution kernels: presets, custom kernels, kernel files, separability
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A filter is an odd size × size matrix of float weights (row-major, row 0 on
 * top, the centre at (size / 2, size / 2)), a divisor and an offset. It is
 * applied the way OpenCV's filter2D applies a kernel — as a correlation, not
 * flipped:
 *
 *   out(x, y) = Σ_{i,j} w[j][i] · in(x + i − r, y + j − r) / divisor + offset,
 *   r = size / 2.
 *
 * A magnitude filter (gradient magnitude) holds two kernels, X and Y, of the
 * same size and computes sqrt (gx² + gy²) + offset, where gx and gy are the
 * two correlations, each divided by the divisor.
 *
 * Kernel files (latent_filter_load(), `--param kernel=@FILE.txt`) are UTF-8
 * text, one kernel row per line:
 *
 *   # a 3 × 3 blur; '#' starts a comment, blank lines are ignored
 *   divisor = 16
 *   offset = 0
 *   1 2 1
 *   2, 4, 2
 *   1 2 1
 *
 * Values in a row are separated by spaces, tabs or a single comma (a comma
 * at the end of a row is allowed); numbers use '.' as the decimal point and
 * may have an exponent. Every row holds as many values as there are rows,
 * an odd number from 1 to 31. The optional `divisor =` (non-zero, default 1)
 * and `offset =` (default 0) lines may stand anywhere, each at most once.
 * Errors name FILE:LINE (and :COLUMN for a bad value).
 */
#pragma once

#include <glib-object.h>

#include "latent-params.h"

G_BEGIN_DECLS

#define LATENT_FILTER_ERROR (latent_filter_error_quark ())

typedef enum {
  LATENT_FILTER_ERROR_SIZE,     /* even, zero or above LATENT_FILTER_MAX_SIZE */
  LATENT_FILTER_ERROR_INVALID,  /* a bad parameter, weight, divisor or a zero sum to normalise by */
  LATENT_FILTER_ERROR_PARSE,    /* a malformed kernel file; the message names FILE:LINE */
  LATENT_FILTER_ERROR_IO,       /* the kernel file could not be read */
} LatentFilterError;

GQuark latent_filter_error_quark (void);

#define LATENT_FILTER_MAX_SIZE 31

/* A kernel is separable when the singular values after the first hold at
 * most this fraction of its Frobenius norm: far above float rounding
 * (~1e-7), far below what would show in an image (outputs move by at most
 * size · tolerance · ‖w‖ for inputs in [0, 1]). */
#define LATENT_FILTER_SEPARABLE_TOLERANCE 1e-6

#define LATENT_TYPE_FILTER (latent_filter_get_type ())

typedef struct _LatentFilter LatentFilter;

GType         latent_filter_get_type     (void) G_GNUC_CONST;

/* A copy of SIZE × SIZE WEIGHTS. SIZE must be odd, 1 to 31; DIVISOR non-zero
 * and finite; OFFSET and every weight finite. */
LatentFilter *latent_filter_new          (guint               size,
                                          const float        *weights,
                                          double              divisor,
                                          double              offset,
                                          GError            **error);
LatentFilter *latent_filter_copy         (const LatentFilter *self);
void          latent_filter_free         (LatentFilter       *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentFilter, latent_filter_free)

/* ---- presets ----
 * Sizes are odd, 1 to 31. Errors name the parameter: "size", "sigma",
 * "amount", "angle". */

/* All ones, divisor size². */
LatentFilter *latent_filter_new_box       (guint    size,
                                           GError **error);
/* Sampled exp (−d² / 2σ²), normalised to sum 1 (divisor 1). SIZE 0 picks
 * 2·⌈3σ⌉ + 1, at most 31. SIGMA > 0. */
LatentFilter *latent_filter_new_gaussian  (double   sigma,
                                           guint    size,
                                           GError **error);
/* (1 + amount) · identity − amount · Gaussian (σ, size): sums to 1.
 * AMOUNT ≥ 0; SIZE 0 as for the Gaussian. */
LatentFilter *latent_filter_new_unsharp   (double   sigma,
                                           double   amount,
                                           guint    size,
                                           GError **error);
/* A line of SIZE pixels through the centre, ANGLE degrees counter-clockwise
 * from the x axis (0: horizontal), each cell weighted by the length of the
 * line inside it, normalised to sum 1. */
LatentFilter *latent_filter_new_motion    (guint    size,
                                           double   angle,
                                           GError **error);
/* The fixed 3 × 3 kernels. */
LatentFilter *latent_filter_new_sharpen   (void);   /* 0 −1 0 / −1 5 −1 / 0 −1 0 */
LatentFilter *latent_filter_new_sobel_x   (void);   /* −1 0 1 / −2 0 2 / −1 0 1 */
LatentFilter *latent_filter_new_sobel_y   (void);   /* −1 −2 −1 / 0 0 0 / 1 2 1 */
LatentFilter *latent_filter_new_gradient  (void);   /* magnitude of Sobel X and Y */
LatentFilter *latent_filter_new_laplacian (void);   /* 0 1 0 / 1 −4 1 / 0 1 0 */
LatentFilter *latent_filter_new_emboss    (void);   /* −2 −1 0 / −1 1 1 / 0 1 2 */

/* The preset names, NULL-terminated: "box", "gaussian", "sharpen",
 * "unsharp", "sobel-x", "sobel-y", "gradient", "laplacian", "emboss",
 * "motion". */
const char * const *latent_filter_preset_names (void);
/* The preset NAME with the parameters it uses (the 3 × 3 presets ignore
 * SIZE; SIZE 0 is each sized preset's default: box 3, motion 9, Gaussian
 * and unsharp from sigma). An unknown NAME is an error naming "filter". */
LatentFilter *latent_filter_new_preset    (const char *name,
                                           guint       size,
                                           double      sigma,
                                           double      amount,
                                           double      angle,
                                           GError    **error);

/* ---- kernel files ---- */

/* TEXT in the kernel file format; ORIGIN names it in messages (a path). */
LatentFilter *latent_filter_parse         (const char  *text,
                                           gssize       length,
                                           const char  *origin,
                                           GError     **error);
LatentFilter *latent_filter_load          (const char  *path,
                                           GError     **error);
/* SELF in the kernel file format (not for magnitude filters: NULL). */
char         *latent_filter_to_text       (const LatentFilter *self);

/* ---- properties ---- */

/* "gaussian", "custom", … */
const char   *latent_filter_get_name      (const LatentFilter *self);
guint         latent_filter_get_size      (const LatentFilter *self);
/* size × size, row-major; the X kernel of a magnitude filter. */
const float  *latent_filter_get_weights   (const LatentFilter *self);
/* The Y kernel of a magnitude filter, NULL for others. */
const float  *latent_filter_get_weights_y (const LatentFilter *self);
gboolean      latent_filter_is_magnitude  (const LatentFilter *self);
double        latent_filter_get_divisor   (const LatentFilter *self);
double        latent_filter_get_offset    (const LatentFilter *self);
/* The sum of the weights (of X for a magnitude filter), in double. */
double        latent_filter_get_sum       (const LatentFilter *self);

gboolean      latent_filter_set_divisor   (LatentFilter       *self,
                                           double              divisor,
                                           GError            **error);
gboolean      latent_filter_set_offset    (LatentFilter       *self,
                                           double              offset,
                                           GError            **error);
/* Automatic normalisation: divisor = the sum of the weights, so a flat
 * image stays flat. A zero sum (an all-zero kernel, Sobel, Laplacian, a
 * magnitude filter) is an error naming the parameter "normalize". */
gboolean      latent_filter_normalise     (LatentFilter       *self,
                                           GError            **error);

/* ---- separability ----
 * Decided when the filter is made, from the singular values of the weights
 * (LAPACK dgesvd, in double). */

gboolean      latent_filter_is_separable  (const LatentFilter *self);
/* ‖w − σ₁u₁v₁ᵀ‖ / ‖w‖ (Frobenius), 0 for an all-zero kernel; the larger of
 * the two for a magnitude filter. */
double        latent_filter_get_rank1_residual (const LatentFilter *self);
/* COLUMN (size values, top to bottom) and ROW (size values, left to right)
 * with w[j][i] ≈ column[j] · row[i]; KERNEL 1 is the Y kernel of a
 * magnitude filter. FALSE (and NULLs) when that kernel is not separable.
 * The factors belong to SELF and do not include the divisor. */
gboolean      latent_filter_get_factors   (const LatentFilter *self,
                                           guint               kernel,
                                           const float       **column,
                                           const float       **row);

/* The convolution's parameters (latent-convolve.c names each field in its
 * spec table), read once with latent_params_read (): here, because the
 * filter is built from them. */
typedef struct {
  const char *filter;
  const char *kernel;
  gint64      size;
  double      sigma;
  double      amount;
  double      angle;
  gboolean    normalize;
  const char *border;
  const char *method;
  gint64      iterations;
} LatentConvolveParams;

/* The convolution's parameters set to filter with the kernel in @path, as
 * the window's kernel editor writes it (normalised already, or asked not
 * to be); the error names the parameter. */
gboolean      latent_filter_params_use_file (LatentParams                *params,
                                             const char                  *path,
                                             GError                     **error);

/* The filter the convolution's parameters describe (kernel=@FILE,
 * filter=@FILE or a preset with its size, sigma, amount and angle;
 * normalised when asked), as a run and the window's kernel editor both
 * need it. PARAMS must be the convolution's. */
LatentFilter *latent_filter_new_from_params (LatentParams                *params,
                                             GError                     **error);
/* The same from the parameters read. */
LatentFilter *latent_filter_new_from_values (const LatentConvolveParams  *params,
                                             GError                     **error);

G_END_DECLS
