/* latent-projection.c — a dataset projected on two axes for drawing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-projection"

#include "latent-projection.h"

#include <cblas.h>
#include <glib/gi18n-lib.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

/* The covariance is n_cols² doubles; above this it would not fit comfortably. */
#define MAX_PCA_COLS 4096
/* Rows per block: centred in float, multiplied by ssyrk, summed in double. */
#define BLOCK_VALUES (1u << 20)
/* Above this many rows, the mean and the axes come from as many rows
 * spread evenly through the data: a drawing's axes need no more, and the
 * covariance of every row took seconds (1,275,000 × 784: about 16 s, with
 * the whole file read twice more when it is streamed). */
#define AXES_SAMPLE_ROWS 65536u

struct _LatentProjection
{
  guint    n_rows;
  guint    n_cols;
  gboolean pca;
  gboolean exact;     /* the axes are every column, as it is */
  int      column[2]; /* the column an axis shows as it is, or −1 */
  float   *mean;      /* n_cols, subtracted on the other axes */
  float   *axes;      /* 2 × n_cols, unit length (or 0 past one column) */
  float   *points;    /* n_rows × 2 */
  double   explained[2];
  char    *labels[2];
};

static GMutex cache_lock;

static void
latent_projection_clear (LatentProjection *self)
{
  g_free (self->mean);
  g_free (self->axes);
  g_free (self->points);
  g_free (self->labels[0]);
  g_free (self->labels[1]);
}

LatentProjection *
latent_projection_ref (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
latent_projection_unref (LatentProjection *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, (GDestroyNotify) latent_projection_clear);
}

static gboolean
allocate (LatentProjection  *self,
          const char        *name,
          GError           **error)
{
  self->mean = g_try_new0 (float, self->n_cols);
  self->axes = g_try_new0 (float, 2 * (gsize) self->n_cols);
  self->points = g_try_new0 (float, 2 * (gsize) self->n_rows);
  if (self->mean == NULL || self->axes == NULL || self->points == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory to project %u rows"), name, self->n_rows);
      return FALSE;
    }
  return TRUE;
}

/* Column means in double: float sums over 60,000 rows would lose digits.
 * A streamed dataset's rows are let go as they are passed (as in every
 * loop over the rows here), so the projection holds no more of it. */
static void
column_means (LatentDataset *dataset,
              const float   *data,
              guint          n_rows,
              guint          n_cols,
              double        *mean)
{
  for (guint j = 0; j < n_cols; j++)
    mean[j] = 0.0;
  for (guint i = 0; i < n_rows; i++)
    {
      const float *row = data + (gsize) i * n_cols;
      for (guint j = 0; j < n_cols; j++)
        mean[j] += row[j];
      if ((i + 1) % 65536 == 0)
        latent_dataset_release_rows (dataset, i + 1 - 65536, 65536);
    }
  latent_dataset_release_rows (dataset, n_rows / 65536 * 65536, n_rows % 65536);
  for (guint j = 0; j < n_cols; j++)
    mean[j] /= n_rows;
}

static void
setup_identity (LatentProjection *self,
                LatentDataset    *dataset,
                const float      *data)
{
  g_autofree double *mean = g_new (double, self->n_cols);
  double var[2] = { 0.0, 0.0 };
  double total;

  column_means (dataset, data, self->n_rows, self->n_cols, mean);
  for (guint i = 0; i < self->n_rows; i++)
    for (guint j = 0; j < self->n_cols; j++)
      {
        double d = data[(gsize) i * self->n_cols + j] - mean[j];
        var[j] += d * d;
      }
  total = var[0] + var[1];

  for (guint a = 0; a < 2; a++)
    {
      self->column[a] = a < self->n_cols ? (int) a : -1;
      if (a < self->n_cols)
        {
          self->axes[a * self->n_cols + a] = 1.0f;
          self->explained[a] = total > 0.0 ? var[a] / total : 0.0;
          self->labels[a] = latent_dataset_dup_column_label (dataset, a);
        }
      else
        self->labels[a] = g_strdup ("");
    }

  /* Copied, not computed, so the picture shows the exact values. */
  for (guint i = 0; i < self->n_rows; i++)
    {
      self->points[2 * (gsize) i] = data[(gsize) i * self->n_cols];
      self->points[2 * (gsize) i + 1] = self->n_cols > 1 ? data[(gsize) i * self->n_cols + 1] : 0.0f;
    }
}

static guint
block_rows (guint n_rows,
            guint n_cols)
{
  return CLAMP (BLOCK_VALUES / n_cols, 1u, n_rows);
}

/* The @s-th of @n_sample rows spread evenly through @n: every row when
 * @n_sample is @n. */
static inline guint
sample_row (guint s,
            guint n_sample,
            guint n)
{
  return (guint) ((guint64) s * n / n_sample);
}

/* Rows @first … of the sample of @n_sample rows of @n, centred into @block. */
static void
centre_block (const float  *data,
              guint         first,
              guint         rows,
              guint         n_sample,
              guint         n,
              guint         n_cols,
              const double *mean,
              float        *block)
{
  for (guint i = 0; i < rows; i++)
    {
      const float *row = data + (gsize) sample_row (first + i, n_sample, n) * n_cols;
      float *out = block + (gsize) i * n_cols;
      for (guint j = 0; j < n_cols; j++)
        out[j] = (float) (row[j] - mean[j]);
    }
}

static gboolean
setup_pca (LatentProjection  *self,
           LatentDataset     *dataset,
           const float       *data,
           GError           **error)
{
  const guint n = self->n_rows, d = self->n_cols, n_sample = MIN (n, AXES_SAMPLE_ROWS);
  guint rows = block_rows (n, d);
  g_autofree double *mean = g_new (double, d);
  g_autofree double *cov = g_try_new0 (double, (gsize) d * d);
  g_autofree float *partial = g_try_new (float, (gsize) d * d);
  g_autofree float *block = g_try_new (float, (gsize) rows * d);
  double eigenvalues[2], total = 0.0;
  g_autofree double *z = NULL;
  lapack_int isuppz[4], found = 0, info;

  if (cov == NULL || partial == NULL || block == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for the %u × %u covariance"),
                   latent_dataset_get_name (dataset), d, d);
      return FALSE;
    }

  if (n_sample == n)
    column_means (dataset, data, n, d, mean);
  else
    {
      /* The sample's rows, read one by one. */
      latent_dataset_expect_scattered (dataset, TRUE);
      for (guint j = 0; j < d; j++)
        mean[j] = 0.0;
      for (guint s = 0; s < n_sample; s++)
        for (guint j = 0; j < d; j++)
          mean[j] += data[(gsize) sample_row (s, n_sample, n) * d + j];
      for (guint j = 0; j < d; j++)
        mean[j] /= n_sample;
    }
  for (guint j = 0; j < d; j++)
    self->mean[j] = (float) mean[j];

  /* Upper triangle of Xcᵀ Xc, block by block: float inside a block for speed,
   * double across blocks so 60,000 rows of sums keep their precision. */
  for (guint first = 0; first < n_sample; first += rows)
    {
      guint m = MIN (rows, n_sample - first);

      centre_block (data, first, m, n_sample, n, d, mean, block);
      if (n_sample == n)
        latent_dataset_release_rows (dataset, first, m);
      cblas_ssyrk (CblasRowMajor, CblasUpper, CblasTrans, d, m,
                   1.0f, block, d, 0.0f, partial, d);
      for (guint i = 0; i < d; i++)
        for (guint j = i; j < d; j++)
          cov[(gsize) i * d + j] += partial[(gsize) i * d + j];
    }
  for (guint i = 0; i < d; i++)
    total += cov[(gsize) i * d + i];

  z = g_new0 (double, (gsize) d * 2);
  info = LAPACKE_dsyevr (LAPACK_ROW_MAJOR, 'V', 'I', 'U', d, cov, d,
                         0.0, 0.0, d - 1, d, 0.0, &found, eigenvalues, z, 2, isuppz);
  if (info != 0 || found != 2)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: the eigen-decomposition of the covariance failed (LAPACK dsyevr info %d)"),
                   latent_dataset_get_name (dataset), (int) info);
      return FALSE;
    }

  /* dsyevr sorts ascending: column 1 is the largest eigenvalue. */
  for (guint a = 0; a < 2; a++)
    {
      guint col = 1 - a;
      float *axis = self->axes + (gsize) a * d;
      double biggest = 0.0;

      for (guint j = 0; j < d; j++)
        if (fabs (z[(gsize) j * 2 + col]) > fabs (biggest))
          biggest = z[(gsize) j * 2 + col];
      /* Largest entry positive, so the picture does not flip between runs. */
      for (guint j = 0; j < d; j++)
        axis[j] = (float) (biggest < 0.0 ? -z[(gsize) j * 2 + col] : z[(gsize) j * 2 + col]);

      self->explained[a] = total > 0.0 ? MAX (eigenvalues[col], 0.0) / total : 0.0;
      self->labels[a] = g_strdup_printf (_("PC %u (%.1f %%)"), a + 1, 100.0 * self->explained[a]);
    }

  /* Every row projected, in order, each block let go after. */
  if (n_sample < n)
    {
      latent_dataset_release_rows (dataset, 0, n);
      latent_dataset_expect_scattered (dataset, FALSE);
    }
  for (guint first = 0; first < n; first += rows)
    {
      guint m = MIN (rows, n - first);

      centre_block (data, first, m, n, n, d, mean, block);
      latent_dataset_release_rows (dataset, first, m);
      cblas_sgemm (CblasRowMajor, CblasNoTrans, CblasTrans, m, 2, d,
                   1.0f, block, d, self->axes, d, 0.0f, self->points + 2 * (gsize) first, 2);
    }

  return TRUE;
}

LatentProjection *
latent_projection_new (LatentDataset  *dataset,
                       GError        **error)
{
  LatentProjection *self;
  const float *data;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (latent_dataset_get_n_cols (dataset) > MAX_PCA_COLS)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u columns are too many to project on principal components (limit %u)"),
                   latent_dataset_get_name (dataset), latent_dataset_get_n_cols (dataset),
                   MAX_PCA_COLS);
      return NULL;
    }

  self = g_atomic_rc_box_new0 (LatentProjection);
  self->n_rows = latent_dataset_get_n_rows (dataset);
  self->n_cols = latent_dataset_get_n_cols (dataset);
  self->pca = self->n_cols > 2;
  self->exact = !self->pca;
  self->column[0] = self->column[1] = -1;
  /* get_row, not get_data: the latter marks the dataset as modified. */
  data = latent_dataset_get_row (dataset, 0);

  if (!allocate (self, latent_dataset_get_name (dataset), error))
    {
      latent_projection_unref (self);
      return NULL;
    }

  if (!self->pca)
    setup_identity (self, dataset, data);
  else if (!setup_pca (self, dataset, data, error))
    {
      latent_projection_unref (self);
      return NULL;
    }

  return self;
}

LatentProjection *
latent_projection_get_for_dataset (LatentDataset *dataset)
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GError) error = NULL;
  LatentProjection *self;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  /* Held while computing, so a second thread waits instead of repeating it. */
  locker = g_mutex_locker_new (&cache_lock);
  self = g_object_get_data (G_OBJECT (dataset), "latent-projection");
  if (self != NULL)
    return latent_projection_ref (self);
  /* Failures are remembered too: figures ask every frame. */
  if (g_object_get_data (G_OBJECT (dataset), "latent-projection-failed") != NULL)
    return NULL;

  self = latent_projection_new (dataset, &error);
  if (self == NULL)
    {
      g_warning ("%s", error->message);
      g_object_set_data (G_OBJECT (dataset), "latent-projection-failed", GINT_TO_POINTER (TRUE));
      return NULL;
    }
  g_object_set_data_full (G_OBJECT (dataset), "latent-projection",
                          latent_projection_ref (self),
                          (GDestroyNotify) latent_projection_unref);
  return self;
}

/* Axis a from the default projection, or column columns[a] (from 1). */
static LatentProjection *
projection_new_axes (LatentDataset  *dataset,
                     LatentProjection *base,
                     const guint     columns[2],
                     GError        **error)
{
  LatentProjection *self = g_atomic_rc_box_new0 (LatentProjection);
  const float *data = latent_dataset_get_row (dataset, 0);
  const float *points = latent_projection_get_points (base);

  self->n_rows = base->n_rows;
  self->n_cols = base->n_cols;
  if (!allocate (self, latent_dataset_get_name (dataset), error))
    {
      latent_projection_unref (self);
      return NULL;
    }
  memcpy (self->mean, base->mean, self->n_cols * sizeof (float));
  for (guint a = 0; a < 2; a++)
    {
      float *axis = self->axes + (gsize) a * self->n_cols;

      if (columns[a] == 0)
        {
          memcpy (axis, base->axes + (gsize) a * self->n_cols, self->n_cols * sizeof (float));
          self->column[a] = base->column[a];
          self->explained[a] = base->explained[a];
          self->labels[a] = g_strdup (base->labels[a]);
          for (guint i = 0; i < self->n_rows; i++)
            self->points[2 * (gsize) i + a] = points[2 * (gsize) i + a];
          continue;
        }
      {
        const guint c = columns[a] - 1;

        axis[c] = 1.0f;
        self->column[a] = (int) c;
        self->labels[a] = latent_dataset_dup_column_label (dataset, c);
        for (guint i = 0; i < self->n_rows; i++)
          self->points[2 * (gsize) i + a] = data[(gsize) i * self->n_cols + c];
      }
    }
  self->exact = self->n_cols <= 2 && self->column[0] >= 0 && self->column[1] >= 0 &&
                self->column[0] != self->column[1];
  return self;
}

LatentProjection *
latent_projection_get_for_axes (LatentDataset *dataset,
                                const guint    columns[2])
{
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentProjection) base = NULL;
  g_autofree char *key = NULL, *failed = NULL;
  LatentProjection *self;
  guint chosen[2];

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), NULL);

  /* A column past the last (axes chosen for wider data that is gone)
   * is the default axis. */
  for (guint a = 0; a < 2; a++)
    chosen[a] = columns != NULL && columns[a] <= latent_dataset_get_n_cols (dataset) ? columns[a] : 0;
  if (chosen[0] == 0 && chosen[1] == 0)
    return latent_projection_get_for_dataset (dataset);
  /* The default projection first: an axis may come from it. */
  if (!(base = latent_projection_get_for_dataset (dataset)))
    return NULL;
  key = g_strdup_printf ("latent-projection-%u-%u", chosen[0], chosen[1]);
  failed = g_strconcat (key, "-failed", NULL);
  locker = g_mutex_locker_new (&cache_lock);
  self = g_object_get_data (G_OBJECT (dataset), key);
  if (self != NULL)
    return latent_projection_ref (self);
  if (g_object_get_data (G_OBJECT (dataset), failed) != NULL)
    return NULL;
  self = projection_new_axes (dataset, base, chosen, &error);
  if (self == NULL)
    {
      g_warning ("%s", error->message);
      g_object_set_data (G_OBJECT (dataset), failed, GINT_TO_POINTER (TRUE));
      return NULL;
    }
  g_object_set_data_full (G_OBJECT (dataset), key, latent_projection_ref (self),
                          (GDestroyNotify) latent_projection_unref);
  return self;
}

guint
latent_projection_get_n_rows (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_rows;
}

guint
latent_projection_get_n_cols (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_cols;
}

gboolean
latent_projection_is_pca (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->pca;
}

gboolean
latent_projection_is_exact (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->exact;
}

void
latent_projection_apply (LatentProjection *self,
                         const float      *row,
                         float            *xy)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (row != NULL && xy != NULL);

  for (guint a = 0; a < 2; a++)
    {
      const float *axis = self->axes + (gsize) a * self->n_cols;
      double sum = 0.0;

      /* A column as it is: its exact value, no rounding. */
      if (self->column[a] >= 0)
        {
          xy[a] = row[self->column[a]];
          continue;
        }
      for (guint j = 0; j < self->n_cols; j++)
        sum += ((double) row[j] - self->mean[j]) * axis[j];
      xy[a] = (float) sum;
    }
}

const float *
latent_projection_get_points (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->points;
}

const float *
latent_projection_get_axis (LatentProjection *self,
                            guint             axis)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (axis < 2, NULL);
  return self->axes + (gsize) axis * self->n_cols;
}

const float *
latent_projection_get_mean (LatentProjection *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->mean;
}

double
latent_projection_get_explained (LatentProjection *self,
                                 guint             axis)
{
  g_return_val_if_fail (self != NULL, 0.0);
  g_return_val_if_fail (axis < 2, 0.0);
  return self->explained[axis];
}

const char *
latent_projection_get_axis_label (LatentProjection *self,
                                  guint             axis)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (axis < 2, NULL);
  return self->labels[axis];
}
