/* latent-synthetic.c — seeded synthetic datasets: Gaussian blobs, moons, rings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-synthetic"

#include "latent-synthetic.h"
#include "latent-png.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Plain C loops throughout (no BLAS), so the same seed gives bit-identical
 * data on every machine and thread count; dataset hashes rely on it. */

typedef struct {
  GRand   *rand;
  gboolean has_spare;
  double   spare;
} Rng;

static void
rng_init (Rng     *rng,
          guint64  seed)
{
  guint32 words[2] = { (guint32) (seed & 0xffffffffu), (guint32) (seed >> 32) };

  rng->rand = g_rand_new_with_seed_array (words, G_N_ELEMENTS (words));
  rng->has_spare = FALSE;
  rng->spare = 0;
}

static void
rng_clear (Rng *rng)
{
  g_clear_pointer (&rng->rand, g_rand_free);
}

static inline double
rng_uniform (Rng    *rng,
             double  lo,
             double  hi)
{
  return g_rand_double_range (rng->rand, lo, hi);
}

/* Box–Muller, keeping the second value of each pair. */
static double
rng_normal (Rng *rng)
{
  double u1, u2, r;

  if (rng->has_spare)
    {
      rng->has_spare = FALSE;
      return rng->spare;
    }
  u1 = 1.0 - g_rand_double (rng->rand);   /* (0, 1], so the log is finite */
  u2 = g_rand_double (rng->rand);
  r = sqrt (-2.0 * log (u1));
  rng->spare = r * sin (2.0 * G_PI * u2);
  rng->has_spare = TRUE;
  return r * cos (2.0 * G_PI * u2);
}

static void
shuffle_labels (Rng    *rng,
                gint32 *labels,
                guint   n)
{
  for (guint i = n - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rng->rand, 0, (gint32) (i + 1));
      gint32 t = labels[i];
      labels[i] = labels[j];
      labels[j] = t;
    }
}

/* Labels 0 … k-1 in equal shares (the first n % k one larger), shuffled. */
static gint32 *
balanced_labels (Rng   *rng,
                 guint  n,
                 guint  k,
                 guint *counts)
{
  gint32 *labels = g_new (gint32, n);
  guint i = 0;

  for (guint c = 0; c < k; c++)
    {
      counts[c] = n / k + (c < n % k ? 1 : 0);
      for (guint j = 0; j < counts[c]; j++)
        labels[i++] = c;
    }
  shuffle_labels (rng, labels, n);
  return labels;
}

static GStrv
numbered_names (const char *prefix,
                guint       n)
{
  GStrv names = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    names[i] = g_strdup_printf ("%s %u", prefix, i + 1);
  return names;
}

static gboolean
check_size (const char  *what,
            guint        n,
            guint        dims,
            GError     **error)
{
  if ((guint64) n * dims <= LATENT_DATASET_MAX_VALUES)
    return TRUE;
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
               _("%s: n × dims = %u × %u is above the limit of %llu values"),
               what, n, dims, (unsigned long long) LATENT_DATASET_MAX_VALUES);
  return FALSE;
}

static gboolean
check_noise (const char  *what,
             double       noise,
             GError     **error)
{
  if (isfinite (noise) && noise >= 0)
    return TRUE;
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
               _("%s: noise must be a finite number ≥ 0 (got %g)"), what, noise);
  return FALSE;
}

/* Blobs ------------------------------------------------------------------ */

void
latent_blobs_truth_free (LatentBlobsTruth *truth)
{
  if (truth == NULL)
    return;
  g_free (truth->weights);
  g_free (truth->means);
  g_free (truth->covariances);
  g_free (truth);
}

/* Lower Cholesky factor of the d × d matrix @a, in place (upper part zeroed). */
static gboolean
cholesky (double *a,
          guint   d)
{
  for (guint j = 0; j < d; j++)
    {
      double s = a[(gsize) j * d + j];

      for (guint p = 0; p < j; p++)
        s -= a[(gsize) j * d + p] * a[(gsize) j * d + p];
      if (!(s > 0))
        return FALSE;
      a[(gsize) j * d + j] = sqrt (s);
      for (guint i = j + 1; i < d; i++)
        {
          double t = a[(gsize) i * d + j];
          for (guint p = 0; p < j; p++)
            t -= a[(gsize) i * d + p] * a[(gsize) j * d + p];
          a[(gsize) i * d + j] = t / a[(gsize) j * d + j];
        }
      for (guint i = 0; i < j; i++)
        a[(gsize) i * d + j] = 0;
    }
  return TRUE;
}

/* Σ = s · A Aᵀ / dof with A a d × dof standard normal matrix and dof = d + 2:
 * a random, well-conditioned covariance whose mean is s · I. */
static void
draw_wishart (Rng    *rng,
              guint   d,
              double  scale,
              double *a,
              double *sigma)
{
  guint dof = d + 2;

  for (gsize i = 0; i < (gsize) d * dof; i++)
    a[i] = rng_normal (rng);
  for (guint i = 0; i < d; i++)
    for (guint j = 0; j <= i; j++)
      {
        double s = 0;
        for (guint p = 0; p < dof; p++)
          s += a[(gsize) i * dof + p] * a[(gsize) j * dof + p];
        sigma[(gsize) i * d + j] = sigma[(gsize) j * d + i] = scale * s / dof;
      }
}

LatentDataset *
latent_synthetic_blobs_with_truth (guint              n,
                                   guint              dims,
                                   guint              k,
                                   guint64            seed,
                                   LatentBlobsTruth **truth,
                                   GError           **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(LatentBlobsTruth) t = NULL;
  g_autofree gint32 *labels = NULL;
  g_autofree guint *counts = NULL;
  g_autofree guint *start = NULL;
  g_autofree guint *order = NULL;
  g_autofree double *a = NULL;
  g_autofree double *sigma = NULL;
  g_autofree double *z = NULL;
  g_autofree char *source = NULL;
  g_auto(GStrv) class_names = NULL;
  g_auto(GStrv) column_names = NULL;
  float *values;
  Rng rng;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n == 0 || dims == 0 || k == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("blobs: %s must be at least 1"), n == 0 ? "n" : dims == 0 ? "dims" : "k");
      return NULL;
    }
  if (k > n)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("blobs: k (%u) is larger than n (%u)"), k, n);
      return NULL;
    }
  if (dims > LATENT_SYNTHETIC_MAX_DIMS)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("blobs: dims (%u) is above the limit of %u"), dims, LATENT_SYNTHETIC_MAX_DIMS);
      return NULL;
    }
  if ((guint64) k * dims * dims > LATENT_SYNTHETIC_MAX_COV_VALUES)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("blobs: k × dims² = %u × %u² covariance values is above the limit of %llu"),
                   k, dims, (unsigned long long) LATENT_SYNTHETIC_MAX_COV_VALUES);
      return NULL;
    }
  if (!check_size ("blobs", n, dims, error))
    return NULL;

  dataset = latent_dataset_new ("blobs", n, dims, error);
  if (dataset == NULL)
    return NULL;

  t = g_new0 (LatentBlobsTruth, 1);
  t->k = k;
  t->dims = dims;
  t->weights = g_new (double, k);
  t->means = g_new (double, (gsize) k * dims);
  t->covariances = g_new (double, (gsize) k * dims * dims);
  counts = g_new (guint, k);
  a = g_new (double, (gsize) dims * (dims + 2));
  sigma = g_new (double, (gsize) dims * dims);
  z = g_new (double, dims);

  rng_init (&rng, seed);

  for (gsize i = 0; i < (gsize) k * dims; i++)
    t->means[i] = rng_uniform (&rng, -10.0, 10.0);
  labels = balanced_labels (&rng, n, k, counts);

  /* The rows of each component, in row order. */
  start = g_new (guint, k + 1);
  order = g_new (guint, n);
  start[0] = 0;
  for (guint c = 0; c < k; c++)
    start[c + 1] = start[c] + counts[c];
  {
    g_autofree guint *fill = g_memdup2 (start, sizeof (guint) * k);
    for (guint i = 0; i < n; i++)
      order[fill[labels[i]]++] = i;
  }

  values = latent_dataset_get_data (dataset);
  for (guint c = 0; c < k; c++)
    {
      double *cov = t->covariances + (gsize) c * dims * dims;
      const double *mean = t->means + (gsize) c * dims;
      double scale = rng_uniform (&rng, 0.5, 2.0);

      t->weights[c] = (double) counts[c] / n;
      draw_wishart (&rng, dims, scale, a, cov);
      memcpy (sigma, cov, sizeof (double) * dims * dims);
      /* Singular only with probability zero; a jitter keeps it that way. */
      while (!cholesky (sigma, dims))
        {
          for (guint d = 0; d < dims; d++)
            cov[(gsize) d * dims + d] += 1e-6 * scale;
          memcpy (sigma, cov, sizeof (double) * dims * dims);
        }

      for (guint j = start[c]; j < start[c + 1]; j++)
        {
          guint i = order[j];
          float *x;

          for (guint d = 0; d < dims; d++)
            z[d] = rng_normal (&rng);
          x = values + (gsize) i * dims;
          for (guint r = 0; r < dims; r++)
            {
              double s = mean[r];
              for (guint p = 0; p <= r; p++)
                s += sigma[(gsize) r * dims + p] * z[p];
              x[r] = (float) s;
            }
        }
    }
  rng_clear (&rng);

  class_names = numbered_names ("blob", k);
  column_names = g_new0 (char *, dims + 1);
  for (guint d = 0; d < dims; d++)
    column_names[d] = g_strdup_printf ("x%u", d + 1);
  latent_dataset_set_labels (dataset, labels, k, class_names);
  latent_dataset_set_column_names (dataset, column_names);
  source = g_strdup_printf ("blobs:n=%u,k=%u,dims=%u,seed=%" G_GUINT64_FORMAT, n, k, dims, seed);
  latent_dataset_set_source (dataset, source);

  if (truth != NULL)
    *truth = g_steal_pointer (&t);
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_synthetic_blobs (guint     n,
                        guint     dims,
                        guint     k,
                        guint64   seed,
                        GError  **error)
{
  return latent_synthetic_blobs_with_truth (n, dims, k, seed, NULL, error);
}

/* Moons and rings -------------------------------------------------------- */

static void
finish_2d (LatentDataset *dataset,
           const gint32  *labels,
           guint          n_classes,
           const char    *class_prefix,
           const char    *source)
{
  g_auto(GStrv) class_names = numbered_names (class_prefix, n_classes);
  char *columns[] = { (char *) "x", (char *) "y", NULL };

  latent_dataset_set_labels (dataset, labels, n_classes, class_names);
  latent_dataset_set_column_names (dataset, columns);
  latent_dataset_set_source (dataset, source);
}

LatentDataset *
latent_synthetic_moons (guint     n,
                        double    noise,
                        guint64   seed,
                        GError  **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree gint32 *labels = NULL;
  g_autofree char *source = NULL;
  guint n_outer, n_inner;
  float *values;
  Rng rng;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n < 2)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("moons: n must be at least 2 (got %u)"), n);
      return NULL;
    }
  if (!check_noise ("moons", noise, error) || !check_size ("moons", n, 2, error))
    return NULL;

  dataset = latent_dataset_new ("moons", n, 2, error);
  if (dataset == NULL)
    return NULL;

  n_outer = n / 2;
  n_inner = n - n_outer;
  labels = g_new (gint32, n);
  for (guint i = 0; i < n; i++)
    labels[i] = i < n_outer ? 0 : 1;

  rng_init (&rng, seed);
  shuffle_labels (&rng, labels, n);

  /* Evenly spaced along each half circle, in the shuffled order. */
  values = latent_dataset_get_data (dataset);
  {
    guint seen[2] = { 0, 0 };
    guint total[2] = { n_outer, n_inner };

    for (guint i = 0; i < n; i++)
      {
        guint c = labels[i];
        double angle = total[c] > 1 ? G_PI * seen[c] / (total[c] - 1) : 0;
        double x = c == 0 ? cos (angle) : 1.0 - cos (angle);
        double y = c == 0 ? sin (angle) : 0.5 - sin (angle);

        seen[c]++;
        values[2 * (gsize) i] = (float) (x + noise * rng_normal (&rng));
        values[2 * (gsize) i + 1] = (float) (y + noise * rng_normal (&rng));
      }
  }
  rng_clear (&rng);

  source = g_strdup_printf ("moons:n=%u,noise=%g,seed=%" G_GUINT64_FORMAT, n, noise, seed);
  finish_2d (dataset, labels, 2, "moon", source);
  return g_steal_pointer (&dataset);
}

LatentDataset *
latent_synthetic_rings (guint     n,
                        guint     n_rings,
                        double    noise,
                        guint64   seed,
                        GError  **error)
{
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree gint32 *labels = NULL;
  g_autofree guint *counts = NULL;
  g_autofree char *source = NULL;
  float *values;
  Rng rng;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n == 0 || n_rings == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("rings: %s must be at least 1"), n == 0 ? "n" : "rings");
      return NULL;
    }
  if (n_rings > n)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("rings: rings (%u) is larger than n (%u)"), n_rings, n);
      return NULL;
    }
  if (!check_noise ("rings", noise, error) || !check_size ("rings", n, 2, error))
    return NULL;

  dataset = latent_dataset_new ("rings", n, 2, error);
  if (dataset == NULL)
    return NULL;

  rng_init (&rng, seed);
  counts = g_new (guint, n_rings);
  labels = balanced_labels (&rng, n, n_rings, counts);

  values = latent_dataset_get_data (dataset);
  for (guint i = 0; i < n; i++)
    {
      double radius = labels[i] + 1.0;
      double angle = rng_uniform (&rng, 0, 2 * G_PI);

      values[2 * (gsize) i] = (float) (radius * cos (angle) + noise * rng_normal (&rng));
      values[2 * (gsize) i + 1] = (float) (radius * sin (angle) + noise * rng_normal (&rng));
    }
  rng_clear (&rng);

  source = g_strdup_printf ("rings:n=%u,rings=%u,noise=%g,seed=%" G_GUINT64_FORMAT,
                            n, n_rings, noise, seed);
  finish_2d (dataset, labels, n_rings, "ring", source);
  return g_steal_pointer (&dataset);
}

/* Test pattern ----------------------------------------------------------- */

/* One RGB value of the pattern at (x, y): y in [0, 1) down the image, x in
 * [0, aspect) across, so both axes have the same scale; px is a pixel. The
 * values keep inside [0.04, 0.96], so a filter that averages cannot leave
 * [0, 1] by its rounding alone. */
static void
pattern_pixel (double  x,
               double  y,
               double  aspect,
               double  px,
               float  *rgb)
{
  /* Palette 0–2 of the figures: blue, orange, green. */
  static const float shape_colours[3][3] = {
    { 0.04f, 0.45f, 0.70f }, { 0.90f, 0.62f, 0.04f }, { 0.04f, 0.62f, 0.45f },
  };
  const double split = 0.45 * aspect;           /* the zone plate's side ends here */
  const double grey = 0.25 + 0.25 * (x / aspect + y);   /* a soft diagonal ramp behind */

  for (int c = 0; c < 3; c++)
    rgb[c] = grey;

  if (x < split)
    {
      /* A zone plate: rings whose frequency grows with the radius, so a
       * blur wipes out the outside first, and aliasing shows at once. */
      const double radius = MIN (0.45 * split, 0.45);
      const double r2 = ((x - split / 2) * (x - split / 2) + (y - 0.5) * (y - 0.5)) / (radius * radius);

      if (r2 < 1)
        for (int c = 0; c < 3; c++)
          rgb[c] = 0.5 + 0.46 * cos (G_PI * 0.25 * r2 * radius / px);
      return;
    }
  if (y < 0.4)
    {
      /* Bars, from a fifth of the height wide on the left to two pixels
       * wide on the right. */
      const double t = (x - split) / (aspect - split);
      const double period = 0.4 * pow (4 * px / 0.4, t);

      for (int c = 0; c < 3; c++)
        rgb[c] = fmod ((x - split) / period, 1.0) < 0.5 ? 0.92f : 0.08f;
      return;
    }
  /* Flat shapes with hard edges: a disc, a square and a triangle, then a
   * thin diagonal line and a dot for the edge and point filters. */
  {
    const double w = aspect - split, row = 0.7, size = MIN (0.12, 0.13 * w);
    const double x1 = split + 0.18 * w, x2 = split + 0.5 * w, x3 = split + 0.82 * w;
    const float *colour = NULL;

    if ((x - x1) * (x - x1) + (y - row) * (y - row) < size * size)
      colour = shape_colours[0];
    else if (fabs (x - x2) < size && fabs (y - row) < size)
      colour = shape_colours[1];
    else if (y < row + size && fabs (x - x3) < (y - (row - size)) * 0.6)
      colour = shape_colours[2];
    if (colour != NULL)
      for (int c = 0; c < 3; c++)
        rgb[c] = colour[c];
    else if (fabs ((y - 0.45) - (x - split) * 0.5 / w) < 0.7 * px ||
             (x - (aspect - 0.05)) * (x - (aspect - 0.05)) + (y - 0.45) * (y - 0.45) < 2.25 * px * px)
      for (int c = 0; c < 3; c++)
        rgb[c] = 0.04f;
  }
}

LatentDataset *
latent_synthetic_pattern (guint     width,
                          guint     height,
                          double    noise,
                          guint64   seed,
                          GError  **error)
{
  static const char *columns[] = { N_("red"), N_("green"), N_("blue"), NULL };
  const char *translated[4] = { NULL };
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *source = NULL;
  float *values;
  Rng rng;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (width < 8 || height < 8)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("pattern: %s must be at least 8 pixels (got %u)"),
                   width < 8 ? "width" : "height", width < 8 ? width : height);
      return NULL;
    }
  /* The image limit, not only the dataset's: a pattern is made to be
   * filtered, and the filter refuses what a PNG loader would. */
  if ((guint64) width * height > LATENT_PNG_MAX_PIXELS)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("pattern: width × height = %u × %u pixels is above the limit of 8192 × 8192; "
                     "lower the width or the height"), width, height);
      return NULL;
    }
  if (!check_noise ("pattern", noise, error))
    return NULL;
  dataset = latent_dataset_new ("pattern", width * height, 3, error);
  if (dataset == NULL)
    return NULL;

  values = latent_dataset_get_data (dataset);
  rng_init (&rng, seed);
  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      {
        float *rgb = values + ((gsize) y * width + x) * 3;

        pattern_pixel ((x + 0.5) / height, (y + 0.5) / height, (double) width / height, 1.0 / height, rgb);
        /* Noise as a camera adds it, clipped to the 8-bit range's ends. */
        if (noise > 0)
          for (int c = 0; c < 3; c++)
            {
              double v = rgb[c] + noise * rng_normal (&rng);

              rgb[c] = CLAMP (v, 0.0, 1.0);
            }
      }
  rng_clear (&rng);

  latent_dataset_set_image_shape (dataset, width, height, 3, TRUE);
  for (guint c = 0; c < 3; c++)
    translated[c] = _(columns[c]);
  latent_dataset_set_column_names (dataset, (GStrv) translated);
  source = g_strdup_printf ("pattern:width=%u,height=%u,noise=%g,seed=%" G_GUINT64_FORMAT, width, height,
                            noise, seed);
  latent_dataset_set_source (dataset, source);
  return g_steal_pointer (&dataset);
}

/* Options ---------------------------------------------------------------- */

/* Moons and rings have two columns. */
#define MAX_N_2D  ((double) (LATENT_DATASET_MAX_VALUES / 2))
/* The largest whole number a parameter holds exactly (2⁵³ − 1). */
#define MAX_SEED  9007199254740991.0
/* Far more than any figure shows, and the points stay finite in float. */
#define MAX_NOISE 1e6

static const LatentParamSpec blobs_specs[] = {
  { .name = "n", .type = LATENT_PARAM_INT,
    .label = N_("Points"),
    .tooltip = N_("How many points to draw"),
    .min = 1, .max = (double) LATENT_DATASET_MAX_VALUES, .default_value = 1500 },
  { .name = "k", .type = LATENT_PARAM_INT,
    .label = N_("Blobs"),
    .tooltip = N_("Gaussian components, each with its own covariance"),
    .min = 1, .max = (double) LATENT_SYNTHETIC_MAX_COV_VALUES, .default_value = 3 },
  { .name = "dims", .type = LATENT_PARAM_INT,
    .label = N_("Dimensions"),
    .tooltip = N_("Columns of the data"),
    .min = 1, .max = LATENT_SYNTHETIC_MAX_DIMS, .default_value = 2 },
  { .name = "seed", .type = LATENT_PARAM_INT,
    .label = N_("Seed"),
    .tooltip = N_("The same seed gives the same data"),
    .min = 0, .max = MAX_SEED, .default_value = 1,
    .role = LATENT_PARAM_ROLE_SEED },
};

static const LatentParamSpec moons_specs[] = {
  { .name = "n", .type = LATENT_PARAM_INT,
    .label = N_("Points"),
    .tooltip = N_("How many points to draw"),
    .min = 2, .max = MAX_N_2D, .default_value = 1000 },
  { .name = "noise", .type = LATENT_PARAM_DOUBLE,
    .label = N_("Noise"),
    .tooltip = N_("Standard deviation of the noise"),
    .min = 0, .max = MAX_NOISE, .default_value = 0.1 },
  { .name = "seed", .type = LATENT_PARAM_INT,
    .label = N_("Seed"),
    .tooltip = N_("The same seed gives the same data"),
    .min = 0, .max = MAX_SEED, .default_value = 1,
    .role = LATENT_PARAM_ROLE_SEED },
};

static const LatentParamSpec rings_specs[] = {
  { .name = "n", .type = LATENT_PARAM_INT,
    .label = N_("Points"),
    .tooltip = N_("How many points to draw"),
    .min = 1, .max = MAX_N_2D, .default_value = 1000 },
  { .name = "rings", .type = LATENT_PARAM_INT,
    .label = N_("Rings"),
    .tooltip = N_("Concentric circles"),
    .min = 1, .max = MAX_N_2D, .default_value = 3 },
  { .name = "noise", .type = LATENT_PARAM_DOUBLE,
    .label = N_("Noise"),
    .tooltip = N_("Standard deviation of the noise"),
    .min = 0, .max = MAX_NOISE, .default_value = 0.05 },
  { .name = "seed", .type = LATENT_PARAM_INT,
    .label = N_("Seed"),
    .tooltip = N_("The same seed gives the same data"),
    .min = 0, .max = MAX_SEED, .default_value = 1,
    .role = LATENT_PARAM_ROLE_SEED },
};

/* Up to 16384 on a side, within 8192 × 8192 pixels in all (the image limit). */
static const LatentParamSpec pattern_specs[] = {
  { .name = "width", .type = LATENT_PARAM_INT,
    .label = N_("Width"),
    .tooltip = N_("Width of the image in pixels"),
    .min = 8, .max = 16384, .default_value = 960 },
  { .name = "height", .type = LATENT_PARAM_INT,
    .label = N_("Height"),
    .tooltip = N_("Height of the image in pixels"),
    .min = 8, .max = 16384, .default_value = 540 },
  { .name = "noise", .type = LATENT_PARAM_DOUBLE,
    .label = N_("Noise"),
    .tooltip = N_("Standard deviation of the noise"),
    .min = 0, .max = 1, .default_value = 0.02 },
  { .name = "seed", .type = LATENT_PARAM_INT,
    .label = N_("Seed"),
    .tooltip = N_("The same seed gives the same data"),
    .min = 0, .max = MAX_SEED, .default_value = 1,
    .role = LATENT_PARAM_ROLE_SEED },
};

const LatentParamSpec *
latent_synthetic_get_specs (const char *generator,
                            guint      *n_specs)
{
  g_return_val_if_fail (generator != NULL, NULL);
  g_return_val_if_fail (n_specs != NULL, NULL);

  if (g_str_equal (generator, "blobs"))
    {
      *n_specs = G_N_ELEMENTS (blobs_specs);
      return blobs_specs;
    }
  if (g_str_equal (generator, "moons"))
    {
      *n_specs = G_N_ELEMENTS (moons_specs);
      return moons_specs;
    }
  if (g_str_equal (generator, "rings"))
    {
      *n_specs = G_N_ELEMENTS (rings_specs);
      return rings_specs;
    }
  if (g_str_equal (generator, "pattern"))
    {
      *n_specs = G_N_ELEMENTS (pattern_specs);
      return pattern_specs;
    }
  *n_specs = 0;
  return NULL;
}

LatentDataset *
latent_synthetic_generate (const char    *generator,
                           LatentParams  *params,
                           GError       **error)
{
  guint n;

  g_return_val_if_fail (generator != NULL && params != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_str_equal (generator, "pattern"))
    return latent_synthetic_pattern ((guint) latent_params_get_int (params, "width"),
                                     (guint) latent_params_get_int (params, "height"),
                                     latent_params_get_double (params, "noise"),
                                     (guint64) latent_params_get_int (params, "seed"), error);
  n = (guint) latent_params_get_int (params, "n");
  if (g_str_equal (generator, "blobs"))
    return latent_synthetic_blobs (n, (guint) latent_params_get_int (params, "dims"),
                                   (guint) latent_params_get_int (params, "k"),
                                   (guint64) latent_params_get_int (params, "seed"), error);
  if (g_str_equal (generator, "moons"))
    return latent_synthetic_moons (n, latent_params_get_double (params, "noise"),
                                   (guint64) latent_params_get_int (params, "seed"), error);
  if (g_str_equal (generator, "rings"))
    return latent_synthetic_rings (n, (guint) latent_params_get_int (params, "rings"),
                                   latent_params_get_double (params, "noise"),
                                   (guint64) latent_params_get_int (params, "seed"), error);
  g_return_val_if_reached (NULL);
}
