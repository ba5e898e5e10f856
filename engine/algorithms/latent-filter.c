/* latent-filter.c — convolution kernels: presets, custom kernels, kernel files, separability
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-filter"

#include "latent-filter.h"
#include "latent-convolve.h"
#include "latent-file.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <lapacke.h>

/* A kernel file is at most 31 rows of 31 numbers; anything this large is
 * not one, and is refused before it is read into memory. */
#define MAX_FILE_BYTES (1u << 20)

/* Below this fraction of Σ|w| a sum counts as zero: dividing by it would
 * blow the image up by a million or more. */
#define ZERO_SUM_FRACTION 1e-6

struct _LatentFilter
{
  char   *name;
  guint   size;
  guint   n_kernels;     /* 2 for a magnitude filter */
  float  *weights[2];
  float  *column[2];     /* rank-1 factors; NULL when not separable */
  float  *row[2];
  double  residual[2];
  double  divisor;
  double  offset;
};

G_DEFINE_QUARK (latent-filter-error-quark, latent_filter_error)

static gpointer
boxed_copy (gpointer self)
{
  return latent_filter_copy (self);
}

G_DEFINE_BOXED_TYPE (LatentFilter, latent_filter, boxed_copy, latent_filter_free)

void
latent_filter_free (LatentFilter *self)
{
  if (self == NULL)
    return;
  for (guint k = 0; k < 2; k++)
    {
      g_free (self->weights[k]);
      g_free (self->column[k]);
      g_free (self->row[k]);
    }
  g_free (self->name);
  g_free (self);
}

LatentFilter *
latent_filter_copy (const LatentFilter *self)
{
  LatentFilter *copy;
  const gsize n = self ? (gsize) self->size * self->size : 0;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->name = g_strdup (self->name);
  for (guint k = 0; k < 2; k++)
    {
      copy->weights[k] = self->weights[k] ? g_memdup2 (self->weights[k], n * sizeof (float)) : NULL;
      copy->column[k] = self->column[k] ? g_memdup2 (self->column[k], self->size * sizeof (float)) : NULL;
      copy->row[k] = self->row[k] ? g_memdup2 (self->row[k], self->size * sizeof (float)) : NULL;
    }
  return copy;
}

/* ---- checks ----------------------------------------------------------- */

static gboolean
check_size (guint        size,
            const char  *what,
            GError     **error)
{
  if (size == 0)
    g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                 _("%s: 0 — a kernel needs at least one value; use an odd size from 1 to %d"),
                 what, LATENT_FILTER_MAX_SIZE);
  else if (size > LATENT_FILTER_MAX_SIZE)
    g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                 _("%s: %u is above the largest kernel, %d × %d"),
                 what, size, LATENT_FILTER_MAX_SIZE, LATENT_FILTER_MAX_SIZE);
  else if (size % 2 == 0)
    g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                 _("%s: %u is even — a kernel needs a centre pixel; use an odd size from 1 to %d"),
                 what, size, LATENT_FILTER_MAX_SIZE);
  else
    return TRUE;
  return FALSE;
}

static gboolean
check_divisor (double   divisor,
               GError **error)
{
  if (isfinite (divisor) && divisor != 0.0)
    return TRUE;
  g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
               _("divisor: %g — the divisor must be a finite number other than 0"), divisor);
  return FALSE;
}

static gboolean
check_offset (double   offset,
              GError **error)
{
  if (isfinite (offset))
    return TRUE;
  g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
               _("offset: %g — the offset must be a finite number"), offset);
  return FALSE;
}

static gboolean
check_weights (guint         size,
               const float  *weights,
               const char   *what,
               GError      **error)
{
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      if (!isfinite (weights[j * size + i]))
        {
          g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                       _("%s: the weight in row %u, column %u is not a finite number"),
                       what, j + 1, i + 1);
          return FALSE;
        }
  return TRUE;
}

/* ---- separability ----------------------------------------------------- */

/* The dominant singular pair of W by LAPACK's dgesvd, in double. Returns
 * the relative rank-1 residual; *COLUMN and *ROW get the factors (scaled
 * by √σ₁ each) when it is within the tolerance. */
static double
factorise (guint         size,
           const float  *weights,
           float       **column,
           float       **row)
{
  const gsize n = (gsize) size * size;
  g_autofree double *a = g_new (double, n);
  g_autofree double *s = g_new (double, size);
  g_autofree double *u = g_new (double, n);
  g_autofree double *vt = g_new (double, n);
  g_autofree double *superb = g_new (double, size);
  double total = 0, rest = 0, scale, residual;
  guint big = 0;
  lapack_int info;

  *column = NULL;
  *row = NULL;
  for (gsize i = 0; i < n; i++)
    {
      a[i] = weights[i];
      total += a[i] * a[i];
    }
  if (total == 0.0)
    {
      /* All zeros: rank 0, and the zero factors reproduce it exactly. */
      *column = g_new0 (float, size);
      *row = g_new0 (float, size);
      return 0.0;
    }

  info = LAPACKE_dgesvd (LAPACK_ROW_MAJOR, 'S', 'S', size, size, a, size, s, u, size, vt, size, superb);
  if (info != 0)
    {
      /* Not seen in practice; the direct kernels handle any kernel. */
      g_debug ("dgesvd failed (info %d); treating the kernel as not separable", (int) info);
      return 1.0;
    }

  /* The sum of squares of the singular values is the squared Frobenius
   * norm; the rest comes from it rather than a subtraction that cancels. */
  for (guint i = 1; i < size; i++)
    rest += s[i] * s[i];
  residual = sqrt (rest / total);
  if (residual > LATENT_FILTER_SEPARABLE_TOLERANCE)
    return residual;

  /* Sign: the column factor's largest entry positive, so box and Gaussian
   * factors come out positive. */
  for (guint i = 1; i < size; i++)
    if (fabs (u[i * size]) > fabs (u[big * size]))
      big = i;
  scale = sqrt (s[0]) * (u[big * size] < 0 ? -1.0 : 1.0);
  *column = g_new (float, size);
  *row = g_new (float, size);
  for (guint i = 0; i < size; i++)
    {
      (*column)[i] = (float) (u[i * size] * scale);
      (*row)[i] = (float) (vt[i] * scale);
    }
  return residual;
}

/* Takes WEIGHTS (one or two kernels); NAME is copied. */
static LatentFilter *
filter_take (const char *name,
             guint       size,
             float      *weights_x,
             float      *weights_y,
             double      divisor,
             double      offset)
{
  LatentFilter *self = g_new0 (LatentFilter, 1);

  self->name = g_strdup (name);
  self->size = size;
  self->n_kernels = weights_y ? 2 : 1;
  self->weights[0] = weights_x;
  self->weights[1] = weights_y;
  self->divisor = divisor;
  self->offset = offset;
  for (guint k = 0; k < self->n_kernels; k++)
    self->residual[k] = factorise (size, self->weights[k], &self->column[k], &self->row[k]);
  return self;
}

LatentFilter *
latent_filter_new (guint         size,
                   const float  *weights,
                   double        divisor,
                   double        offset,
                   GError      **error)
{
  g_return_val_if_fail (weights != NULL || size == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_size (size, "size", error) ||
      !check_weights (size, weights, "kernel", error) ||
      !check_divisor (divisor, error) ||
      !check_offset (offset, error))
    return NULL;
  return filter_take ("custom", size, g_memdup2 (weights, (gsize) size * size * sizeof (float)),
                      NULL, divisor, offset);
}

/* ---- presets ---------------------------------------------------------- */

static LatentFilter *
fixed_3x3 (const char  *name,
           const float  w[9])
{
  return filter_take (name, 3, g_memdup2 (w, 9 * sizeof (float)), NULL, 1.0, 0.0);
}

LatentFilter *
latent_filter_new_sharpen (void)
{
  static const float w[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  return fixed_3x3 ("sharpen", w);
}

static const float sobel_x[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
static const float sobel_y[9] = { -1, -2, -1, 0, 0, 0, 1, 2, 1 };

LatentFilter *
latent_filter_new_sobel_x (void)
{
  return fixed_3x3 ("sobel-x", sobel_x);
}

LatentFilter *
latent_filter_new_sobel_y (void)
{
  return fixed_3x3 ("sobel-y", sobel_y);
}

LatentFilter *
latent_filter_new_gradient (void)
{
  return filter_take ("gradient", 3, g_memdup2 (sobel_x, sizeof sobel_x),
                      g_memdup2 (sobel_y, sizeof sobel_y), 1.0, 0.0);
}

LatentFilter *
latent_filter_new_laplacian (void)
{
  static const float w[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  return fixed_3x3 ("laplacian", w);
}

LatentFilter *
latent_filter_new_emboss (void)
{
  static const float w[9] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };
  return fixed_3x3 ("emboss", w);
}

LatentFilter *
latent_filter_new_box (guint    size,
                       GError **error)
{
  float *w;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_size (size, "size", error))
    return NULL;
  w = g_new (float, (gsize) size * size);
  for (gsize i = 0; i < (gsize) size * size; i++)
    w[i] = 1.0f;
  return filter_take ("box", size, w, NULL, (double) size * size, 0.0);
}

static gboolean
check_sigma (double   sigma,
             GError **error)
{
  if (isfinite (sigma) && sigma > 0.0)
    return TRUE;
  g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
               _("sigma: %g — the Gaussian's standard deviation must be above 0"), sigma);
  return FALSE;
}

/* 3σ on either side holds 99.7 % of the Gaussian. */
static guint
gaussian_auto_size (double sigma)
{
  double half = ceil (3.0 * sigma);

  return half >= LATENT_FILTER_MAX_SIZE / 2 ? LATENT_FILTER_MAX_SIZE : 2 * (guint) half + 1;
}

/* The sampled 1-D Gaussian, normalised to sum 1, in double. */
static double *
gaussian_1d (double sigma,
             guint  size)
{
  double *g = g_new (double, size), sum = 0;
  const int r = size / 2;

  for (int i = -r; i <= r; i++)
    sum += g[i + r] = exp (-(double) i * i / (2 * sigma * sigma));
  for (guint i = 0; i < size; i++)
    g[i] /= sum;
  return g;
}

LatentFilter *
latent_filter_new_gaussian (double   sigma,
                            guint    size,
                            GError **error)
{
  g_autofree double *g = NULL;
  float *w;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_sigma (sigma, error))
    return NULL;
  if (size == 0)
    size = gaussian_auto_size (sigma);
  if (!check_size (size, "size", error))
    return NULL;

  /* The outer product of the 1-D kernel: separable by construction. */
  g = gaussian_1d (sigma, size);
  w = g_new (float, (gsize) size * size);
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      w[j * size + i] = (float) (g[j] * g[i]);
  return filter_take ("gaussian", size, w, NULL, 1.0, 0.0);
}

LatentFilter *
latent_filter_new_unsharp (double   sigma,
                           double   amount,
                           guint    size,
                           GError **error)
{
  g_autofree double *g = NULL;
  float *w;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_sigma (sigma, error))
    return NULL;
  if (!isfinite (amount) || amount < 0.0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("amount: %g — the unsharp mask's amount must be 0 or more"), amount);
      return NULL;
    }
  if (size == 0)
    size = gaussian_auto_size (sigma);
  if (!check_size (size, "size", error))
    return NULL;

  /* image + amount · (image − blurred), as one kernel. */
  g = gaussian_1d (sigma, size);
  w = g_new (float, (gsize) size * size);
  for (guint j = 0; j < size; j++)
    for (guint i = 0; i < size; i++)
      w[j * size + i] = (float) ((i == size / 2 && j == size / 2 ? 1.0 + amount : 0.0) -
                                 amount * g[j] * g[i]);
  return filter_take ("unsharp", size, w, NULL, 1.0, 0.0);
}

LatentFilter *
latent_filter_new_motion (guint    size,
                          double   angle,
                          GError **error)
{
  /* Samples per pixel of line length: the cell weights come out within
   * 1/256 of the exact length of the line inside each cell. */
  const guint per_pixel = 256;
  g_autofree guint *count = NULL;
  const int r = size / 2;
  double c, s;
  guint samples;
  float *w;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!isfinite (angle))
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("angle: %g — the motion blur's angle must be a finite number of degrees"), angle);
      return NULL;
    }
  if (!check_size (size, "size", error))
    return NULL;

  c = cos (angle * G_PI / 180.0);
  s = sin (angle * G_PI / 180.0);
  samples = per_pixel * size;
  count = g_new0 (guint, (gsize) size * size);
  for (guint k = 0; k < samples; k++)
    {
      const double t = -0.5 * size + (k + 0.5) / per_pixel;
      /* Image rows run downwards, so counter-clockwise is −y. */
      const int x = CLAMP ((int) lround (t * c), -r, r);
      const int y = CLAMP ((int) lround (-t * s), -r, r);

      count[(y + r) * size + (x + r)]++;
    }
  w = g_new (float, (gsize) size * size);
  for (gsize i = 0; i < (gsize) size * size; i++)
    w[i] = (float) ((double) count[i] / samples);
  return filter_take ("motion", size, w, NULL, 1.0, 0.0);
}

static const char * const preset_names[] = {
  "box", "gaussian", "sharpen", "unsharp", "sobel-x", "sobel-y", "gradient",
  "laplacian", "emboss", "motion", NULL
};

const char * const *
latent_filter_preset_names (void)
{
  return preset_names;
}

LatentFilter *
latent_filter_new_preset (const char  *name,
                          guint        size,
                          double       sigma,
                          double       amount,
                          double       angle,
                          GError     **error)
{
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_str_equal (name, "box"))
    return latent_filter_new_box (size ? size : 3, error);
  if (g_str_equal (name, "gaussian"))
    return latent_filter_new_gaussian (sigma, size, error);
  if (g_str_equal (name, "sharpen"))
    return latent_filter_new_sharpen ();
  if (g_str_equal (name, "unsharp"))
    return latent_filter_new_unsharp (sigma, amount, size, error);
  if (g_str_equal (name, "sobel-x"))
    return latent_filter_new_sobel_x ();
  if (g_str_equal (name, "sobel-y"))
    return latent_filter_new_sobel_y ();
  if (g_str_equal (name, "gradient"))
    return latent_filter_new_gradient ();
  if (g_str_equal (name, "laplacian"))
    return latent_filter_new_laplacian ();
  if (g_str_equal (name, "emboss"))
    return latent_filter_new_emboss ();
  if (g_str_equal (name, "motion"))
    return latent_filter_new_motion (size ? size : 9, angle, error);

  {
    g_autofree char *known = g_strjoinv (", ", (GStrv) preset_names);
    g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                 _("filter: unknown filter “%s” (expected one of %s)"), name, known);
  }
  return NULL;
}

/* ---- kernel files ----------------------------------------------------- */

typedef struct {
  const char *origin;
  GArray     *values;       /* float, row after row */
  guint       n_rows;
  guint       row_len;
  guint       first_row_line;
  guint       divisor_line;
  guint       offset_line;
  double      divisor;
  double      offset;
} KernelText;

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* The column of P in LINE, counted in characters from 1. */
static guint
column_of (const char *line,
           const char *p)
{
  return (guint) g_utf8_pointer_to_offset (line, p) + 1;
}

/* The token at P (up to the next separator), for messages. */
static char *
token_at (const char *p)
{
  gsize n = strcspn (p, " \t,=");

  return g_strndup (p, MIN (n, 40));
}

/* A number filling everything from P up to a separator or the end. */
static gboolean
parse_number (KernelText  *kt,
              guint        line_no,
              const char  *line,
              const char **p,
              double      *value,
              GError     **error)
{
  char *end = NULL;
  double v = g_ascii_strtod (*p, &end);

  if (end == *p || (*end != '\0' && !is_blank (*end) && *end != ','))
    {
      g_autofree char *token = token_at (*p);
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u:%u: “%s” is not a number"), kt->origin, line_no, column_of (line, *p), token);
      return FALSE;
    }
  if (!isfinite (v) || fabs (v) > FLT_MAX)
    {
      g_autofree char *token = token_at (*p);
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u:%u: “%s” is not a finite number a float can hold"),
                   kt->origin, line_no, column_of (line, *p), token);
      return FALSE;
    }
  *value = v;
  *p = end;
  return TRUE;
}

/* "divisor = 16" or "offset = 0.5" (the part before '=' in KEY_END). */
static gboolean
parse_setting (KernelText  *kt,
               guint        line_no,
               const char  *line,
               const char  *start,
               const char  *equals,
               GError     **error)
{
  g_autofree char *key = g_strstrip (g_strndup (start, equals - start));
  const char *p = equals + 1;
  guint *seen;
  double value;

  if (g_ascii_strcasecmp (key, "divisor") == 0)
    seen = &kt->divisor_line;
  else if (g_ascii_strcasecmp (key, "offset") == 0)
    seen = &kt->offset_line;
  else
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u:%u: unknown setting “%s” (expected divisor or offset)"),
                   kt->origin, line_no, column_of (line, start), key);
      return FALSE;
    }
  if (*seen != 0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u: %s is given again (first on line %u)"), kt->origin, line_no, key, *seen);
      return FALSE;
    }

  while (is_blank (*p))
    p++;
  if (*p == '\0')
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u:%u: %s has no value"), kt->origin, line_no, column_of (line, p), key);
      return FALSE;
    }
  if (!parse_number (kt, line_no, line, &p, &value, error))
    return FALSE;
  while (is_blank (*p))
    p++;
  if (*p != '\0')
    {
      g_autofree char *token = token_at (p);
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u:%u: unexpected “%s” after the %s"), kt->origin, line_no,
                   column_of (line, p), token, key);
      return FALSE;
    }
  if (seen == &kt->divisor_line && value == 0.0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u: divisor = 0 — the divisor must not be zero"), kt->origin, line_no);
      return FALSE;
    }

  *seen = line_no;
  if (seen == &kt->divisor_line)
    kt->divisor = value;
  else
    kt->offset = value;
  return TRUE;
}

static gboolean
parse_row (KernelText  *kt,
           guint        line_no,
           const char  *line,
           const char  *p,
           GError     **error)
{
  guint count = 0;

  for (;;)
    {
      double value;
      float f;

      while (is_blank (*p))
        p++;
      if (*p == '\0')
        break;
      if (!parse_number (kt, line_no, line, &p, &value, error))
        return FALSE;
      f = (float) value;
      g_array_append_val (kt->values, f);
      if (++count > LATENT_FILTER_MAX_SIZE)
        {
          g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                       _("%s:%u: more than %d values in a row; the largest kernel is %d × %d"),
                       kt->origin, line_no, LATENT_FILTER_MAX_SIZE,
                       LATENT_FILTER_MAX_SIZE, LATENT_FILTER_MAX_SIZE);
          return FALSE;
        }
      while (is_blank (*p))
        p++;
      if (*p == ',')
        {
          p++;
          while (is_blank (*p))
            p++;
          if (*p == ',')
            {
              g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                           _("%s:%u:%u: a value is missing between two commas"),
                           kt->origin, line_no, column_of (line, p));
              return FALSE;
            }
        }
    }

  if (kt->n_rows == 0)
    {
      kt->row_len = count;
      kt->first_row_line = line_no;
    }
  else if (count != kt->row_len)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u: %u values, but the first row (line %u) has %u; every row needs the same number"),
                   kt->origin, line_no, count, kt->first_row_line, kt->row_len);
      return FALSE;
    }
  if (++kt->n_rows > LATENT_FILTER_MAX_SIZE)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                   _("%s:%u: more than %d rows; the largest kernel is %d × %d"),
                   kt->origin, line_no, LATENT_FILTER_MAX_SIZE, LATENT_FILTER_MAX_SIZE, LATENT_FILTER_MAX_SIZE);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_line (KernelText  *kt,
            guint        line_no,
            char        *line,
            GError     **error)
{
  char *p = line, *hash, *equals;
  gsize len;

  if ((hash = strchr (line, '#')) != NULL)
    *hash = '\0';
  len = strlen (line);
  while (len > 0 && (is_blank (line[len - 1]) || line[len - 1] == '\r'))
    line[--len] = '\0';
  while (is_blank (*p))
    p++;
  if (*p == '\0')
    return TRUE;

  if ((equals = strchr (p, '=')) != NULL)
    return parse_setting (kt, line_no, line, p, equals, error);
  return parse_row (kt, line_no, line, p, error);
}

LatentFilter *
latent_filter_parse (const char  *text,
                     gssize       length,
                     const char  *origin,
                     GError     **error)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (float));
  KernelText kt = { 0 };
  const char *p, *end, *bad = NULL;
  guint line_no = 0;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (origin == NULL)
    origin = "kernel";
  if (length < 0)
    length = strlen (text);
  if (!g_utf8_validate_len (text, length, &bad))
    {
      guint at = 1;
      for (p = text; p < bad; p++)
        at += *p == '\n';
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s:%u: not UTF-8 text (a kernel file holds rows of numbers)"), origin, at);
      return NULL;
    }

  kt.origin = origin;
  kt.values = values;
  kt.divisor = 1.0;
  kt.offset = 0.0;
  for (p = text, end = text + length; p < end; )
    {
      const char *eol = memchr (p, '\n', end - p);
      g_autofree char *line = NULL;

      if (eol == NULL)
        eol = end;
      line = g_strndup (p, eol - p);
      if (!parse_line (&kt, ++line_no, line, error))
        return NULL;
      p = eol + 1;
    }

  if (kt.n_rows == 0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_PARSE,
                   _("%s: no kernel rows (expected lines of numbers, e.g. “1 2 1”)"), origin);
      return NULL;
    }
  if (kt.n_rows != kt.row_len)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                   _("%s:%u: %u rows of %u values; a kernel must be square"),
                   origin, kt.first_row_line, kt.n_rows, kt.row_len);
      return NULL;
    }
  if (kt.n_rows % 2 == 0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_SIZE,
                   _("%s:%u: a %u × %u kernel — the size must be odd (1, 3, …, %d) so the kernel has a centre"),
                   origin, kt.first_row_line, kt.n_rows, kt.n_rows, LATENT_FILTER_MAX_SIZE);
      return NULL;
    }

  return filter_take ("custom", kt.n_rows, (float *) g_array_free (g_steal_pointer (&values), FALSE),
                      NULL, kt.divisor, kt.offset);
}

LatentFilter *
latent_filter_load (const char  *path,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  const char *contents;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!(bytes = latent_file_read (path, MAX_FILE_BYTES, _("a kernel file"), &local_error)))
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_IO, "%s", local_error->message);
      return NULL;
    }
  contents = g_bytes_get_data (bytes, &length);
  return latent_filter_parse (contents ? contents : "", length, path, error);
}

char *
latent_filter_to_text (const LatentFilter *self)
{
  GString *text;
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (self != NULL, NULL);

  if (self->n_kernels != 1)
    return NULL;

  text = g_string_new (NULL);
  g_string_append_printf (text, "# %s, %u × %u\n", self->name, self->size, self->size);
  g_string_append_printf (text, "divisor = %s\n", g_ascii_formatd (number, sizeof number, "%.17g", self->divisor));
  g_string_append_printf (text, "offset = %s\n", g_ascii_formatd (number, sizeof number, "%.17g", self->offset));
  for (guint j = 0; j < self->size; j++)
    {
      for (guint i = 0; i < self->size; i++)
        {
          /* %.9g gives every float back exactly. */
          if (i > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, g_ascii_formatd (number, sizeof number, "%.9g",
                                                  self->weights[0][j * self->size + i]));
        }
      g_string_append_c (text, '\n');
    }
  return g_string_free (text, FALSE);
}

/* ---- properties ------------------------------------------------------- */

const char *
latent_filter_get_name (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

guint
latent_filter_get_size (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->size;
}

const float *
latent_filter_get_weights (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->weights[0];
}

const float *
latent_filter_get_weights_y (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->weights[1];
}

gboolean
latent_filter_is_magnitude (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->n_kernels == 2;
}

double
latent_filter_get_divisor (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, 1.0);
  return self->divisor;
}

double
latent_filter_get_offset (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, 0.0);
  return self->offset;
}

double
latent_filter_get_sum (const LatentFilter *self)
{
  double sum = 0;

  g_return_val_if_fail (self != NULL, 0.0);

  for (gsize i = 0; i < (gsize) self->size * self->size; i++)
    sum += self->weights[0][i];
  return sum;
}

gboolean
latent_filter_set_divisor (LatentFilter  *self,
                           double         divisor,
                           GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_divisor (divisor, error))
    return FALSE;
  self->divisor = divisor;
  return TRUE;
}

gboolean
latent_filter_set_offset (LatentFilter  *self,
                          double         offset,
                          GError       **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_offset (offset, error))
    return FALSE;
  self->offset = offset;
  return TRUE;
}

gboolean
latent_filter_normalise (LatentFilter  *self,
                         GError       **error)
{
  double sum, magnitude = 0;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->n_kernels == 2)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("normalize: a gradient magnitude has no sum to divide by; turn normalisation off"));
      return FALSE;
    }
  sum = latent_filter_get_sum (self);
  for (gsize i = 0; i < (gsize) self->size * self->size; i++)
    magnitude += fabs (self->weights[0][i]);
  if (magnitude == 0.0)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("normalize: the kernel is all zeros, so there is no sum to divide by"));
      return FALSE;
    }
  if (fabs (sum) <= ZERO_SUM_FRACTION * magnitude)
    {
      g_set_error (error, LATENT_FILTER_ERROR, LATENT_FILTER_ERROR_INVALID,
                   _("normalize: the kernel's weights sum to 0 (as an edge detector's do), so they "
                     "cannot be divided by their sum; turn normalisation off or set a divisor"));
      return FALSE;
    }
  self->divisor = sum;
  return TRUE;
}

gboolean
latent_filter_is_separable (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->column[0] != NULL && (self->n_kernels == 1 || self->column[1] != NULL);
}

double
latent_filter_get_rank1_residual (const LatentFilter *self)
{
  g_return_val_if_fail (self != NULL, 1.0);
  return self->n_kernels == 2 ? MAX (self->residual[0], self->residual[1]) : self->residual[0];
}

gboolean
latent_filter_get_factors (const LatentFilter  *self,
                           guint                kernel,
                           const float        **column,
                           const float        **row)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (column != NULL && row != NULL, FALSE);

  *column = NULL;
  *row = NULL;
  if (kernel >= self->n_kernels || self->column[kernel] == NULL)
    return FALSE;
  *column = self->column[kernel];
  *row = self->row[kernel];
  return TRUE;
}

LatentFilter *
latent_filter_new_from_values (const LatentConvolveParams  *params,
                               GError                     **error)
{
  g_autoptr(LatentFilter) filter = NULL;

  /* kernel=@FILE.txt wins; filter=@FILE.txt says the same. */
  if (params->kernel[0] == '@')
    filter = latent_filter_load (params->kernel + 1, error);
  else if (params->filter[0] == '@')
    filter = latent_filter_load (params->filter + 1, error);
  else
    filter = latent_filter_new_preset (params->filter, params->size, params->sigma, params->amount, params->angle,
                                       error);
  if (filter == NULL)
    return NULL;
  if (params->normalize && !latent_filter_normalise (filter, error))
    return NULL;
  return g_steal_pointer (&filter);
}

gboolean
latent_filter_params_use_file (LatentParams  *params,
                               const char    *path,
                               GError       **error)
{
  g_autofree char *value = g_strconcat ("@", path, NULL);

  return latent_params_set (params, "filter", value, error) &&
         latent_params_set (params, "kernel", "none", error) &&
         latent_params_set_bool (params, "normalize", FALSE, error);
}

LatentFilter *
latent_filter_new_from_params (LatentParams  *params,
                               GError       **error)
{
  LatentConvolveParams p;

  /* Another algorithm's parameters would fill fields of another struct. */
  g_return_val_if_fail (latent_params_get_n_specs (params) > 0 &&
                        latent_params_get_spec (params, 0) == latent_convolve_get_algorithm ()->params, NULL);

  latent_params_read (params, &p);
  return latent_filter_new_from_values (&p, error);
}
