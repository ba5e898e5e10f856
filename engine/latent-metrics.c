/* latent-metrics.c — accuracy, ARI and NMI of a clustering against classes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-metrics"

#include "latent-metrics.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Pair counts reach n², their products n⁴: exact 128-bit integers keep the
 * ARI numerator free of cancellation, so random labelings (ARI near 0) still
 * come out to the last digits. long double is the best we can do elsewhere. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 Wide;
#else
typedef long double Wide;
#endif

/* ---- assignment ------------------------------------------------------- */

static gboolean
costs_are_finite (const double *cost,
                  gsize         count)
{
  for (gsize i = 0; i < count; i++)
    if (!isfinite (cost[i]))
      return FALSE;
  return TRUE;
}

static inline double
cost_at (const double *cost,
         guint         ld,
         gboolean      transposed,
         guint         i,
         guint         j)
{
  return transposed ? cost[(gsize) j * ld + i] : cost[(gsize) i * ld + j];
}

/* Kuhn–Munkres by shortest augmenting paths with row and column potentials,
 * for n rows ≤ m columns: each row is added by one Dijkstra-like search over
 * reduced costs, O(n² m) in all. The matrix is read through cost_at() so the
 * rows > cols case runs on the transpose without copying it.
 *
 * Returns m + 1 entries: [j] is the 1-based row given column j (1-based),
 * or 0 when column j stays free; [0] is scratch. */
static guint *
solve_assignment (const double *cost,
                  guint         ld,
                  gboolean      transposed,
                  guint         n,
                  guint         m)
{
  g_autofree double *u = g_new0 (double, (gsize) n + 1);
  g_autofree double *v = g_new0 (double, (gsize) m + 1);
  g_autofree double *minv = g_new (double, (gsize) m + 1);
  g_autofree guint *way = g_new0 (guint, (gsize) m + 1);
  g_autofree gboolean *used = g_new (gboolean, (gsize) m + 1);
  g_autofree guint *p = g_new0 (guint, (gsize) m + 1);

  g_assert (n <= m);

  for (guint i = 1; i <= n; i++)
    {
      guint j0 = 0;

      /* Column 0 is a virtual column holding the row being inserted. */
      p[0] = i;
      for (guint j = 0; j <= m; j++)
        {
          minv[j] = INFINITY;
          used[j] = FALSE;
        }

      do
        {
          guint i0 = p[j0];
          guint j1 = 0;
          double delta = INFINITY;

          used[j0] = TRUE;
          for (guint j = 1; j <= m; j++)
            {
              double cur;

              if (used[j])
                continue;

              cur = cost_at (cost, ld, transposed, i0 - 1, j - 1) - u[i0] - v[j];
              if (cur < minv[j])
                {
                  minv[j] = cur;
                  way[j] = j0;
                }
              if (minv[j] < delta)
                {
                  delta = minv[j];
                  j1 = j;
                }
            }

          /* Finite costs and n ≤ m always leave a free column to reach. */
          g_assert (j1 != 0);

          for (guint j = 0; j <= m; j++)
            {
              if (used[j])
                {
                  u[p[j]] += delta;
                  v[j] -= delta;
                }
              else
                {
                  minv[j] -= delta;
                }
            }
          j0 = j1;
        }
      while (p[j0] != 0);

      /* Flip the augmenting path back to the virtual column. */
      do
        {
          guint j1 = way[j0];

          p[j0] = p[j1];
          j0 = j1;
        }
      while (j0 != 0);
    }

  return g_steal_pointer (&p);
}

double
latent_hungarian (const double *cost,
                  guint         rows,
                  guint         cols,
                  gint32       *assignment)
{
  g_autofree guint *p = NULL;
  double total = 0.0;

  g_return_val_if_fail (rows == 0 || assignment != NULL, NAN);
  g_return_val_if_fail (rows == 0 || cols == 0 || cost != NULL, NAN);
  g_return_val_if_fail (rows <= G_MAXINT32 && cols <= G_MAXINT32, NAN);
  g_return_val_if_fail (costs_are_finite (cost, (gsize) rows * cols), NAN);

  for (guint r = 0; r < rows; r++)
    assignment[r] = -1;

  if (rows == 0 || cols == 0)
    return 0.0;

  if (rows <= cols)
    {
      p = solve_assignment (cost, cols, FALSE, rows, cols);
      for (guint j = 1; j <= cols; j++)
        if (p[j] != 0)
          assignment[p[j] - 1] = (gint32) (j - 1);
    }
  else
    {
      /* Rows of the transpose are our columns, its columns our rows. */
      p = solve_assignment (cost, cols, TRUE, cols, rows);
      for (guint j = 1; j <= rows; j++)
        if (p[j] != 0)
          assignment[j - 1] = (gint32) (p[j] - 1);
    }

  for (guint r = 0; r < rows; r++)
    if (assignment[r] >= 0)
      total += cost[(gsize) r * cols + (guint) assignment[r]];

  return total;
}

/* ---- contingency table ------------------------------------------------ */

typedef struct
{
  guint  n_clusters;
  guint  n_classes;
  guint  n;
  guint *table;          /* n_clusters × n_classes, row-major */
  guint *cluster_sizes;
  guint *class_sizes;
} Contingency;

static void
contingency_clear (Contingency *self)
{
  g_clear_pointer (&self->table, g_free);
  g_clear_pointer (&self->cluster_sizes, g_free);
  g_clear_pointer (&self->class_sizes, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Contingency, contingency_clear)

static gboolean
labels_in_range (const gint32 *labels,
                 guint         n,
                 guint         n_labels)
{
  for (guint i = 0; i < n; i++)
    if (labels[i] < 0 || (guint) labels[i] >= n_labels)
      return FALSE;
  return TRUE;
}

/* Labels must have been checked with labels_in_range(). O(n + K·C). */
static void
contingency_init (Contingency  *self,
                  const gint32 *clusters,
                  guint         n_clusters,
                  const gint32 *classes,
                  guint         n_classes,
                  guint         n)
{
  self->n_clusters = n_clusters;
  self->n_classes = n_classes;
  self->n = n;
  self->table = g_new0 (guint, (gsize) n_clusters * n_classes);
  self->cluster_sizes = g_new0 (guint, n_clusters);
  self->class_sizes = g_new0 (guint, n_classes);

  for (guint i = 0; i < n; i++)
    {
      guint k = (guint) clusters[i];
      guint c = (guint) classes[i];

      self->table[(gsize) k * n_classes + c]++;
      self->cluster_sizes[k]++;
      self->class_sizes[c]++;
    }
}

static double
contingency_accuracy (const Contingency *self,
                      gint32            *mapping)
{
  gsize cells = (gsize) self->n_clusters * self->n_classes;
  g_autofree double *cost = NULL;
  g_autofree gint32 *assignment = NULL;
  guint64 matched = 0;

  if (self->n == 0)
    {
      for (guint k = 0; mapping != NULL && k < self->n_clusters; k++)
        mapping[k] = -1;
      /* Nothing to get wrong, as for scikit-learn's ARI and NMI of nothing. */
      return 1.0;
    }

  /* Most matched points = least cost when a match costs minus its count. */
  cost = g_new (double, cells);
  for (gsize i = 0; i < cells; i++)
    cost[i] = -(double) self->table[i];

  assignment = g_new (gint32, self->n_clusters);
  latent_hungarian (cost, self->n_clusters, self->n_classes, assignment);

  for (guint k = 0; k < self->n_clusters; k++)
    {
      guint count = 0;

      if (assignment[k] >= 0)
        count = self->table[(gsize) k * self->n_classes + (guint) assignment[k]];
      matched += count;

      /* A class that shares no point with the cluster is no real match. */
      if (mapping != NULL)
        mapping[k] = count > 0 ? assignment[k] : -1;
    }

  return (double) matched / (double) self->n;
}

static guint64
sum_of_squares (const guint *counts,
                gsize        count)
{
  guint64 sum = 0;

  for (gsize i = 0; i < count; i++)
    sum += (guint64) counts[i] * counts[i];
  return sum;
}

/* scikit-learn's pair-confusion form: tp, fp, fn, tn count ordered pairs of
 * distinct points together in both partitions, in the clustering only, in
 * the classes only, and in neither. */
static double
contingency_ari (const Contingency *self)
{
  guint64 n = self->n;
  guint64 q = sum_of_squares (self->table, (gsize) self->n_clusters * self->n_classes);
  guint64 sk = sum_of_squares (self->cluster_sizes, self->n_clusters);
  guint64 sc = sum_of_squares (self->class_sizes, self->n_classes);
  guint64 tp, fp, fn, tn;
  Wide a, b;
  double numerator, denominator;

  /* No pair split by one partition and kept by the other: the partitions are
   * the same (this covers n = 0 and both being a single cluster). */
  if (sk == q && sc == q)
    return 1.0;

  tp = q - n;
  fp = sk - q;
  fn = sc - q;
  tn = (n * n - sk) - fn;

  a = (Wide) tp * tn;
  b = (Wide) fn * fp;
  numerator = a >= b ? (double) (a - b) : -(double) (b - a);
  denominator = (double) ((Wide) (tp + fn) * (fn + tn))
              + (double) ((Wide) (tp + fp) * (fp + tn));

  return 2.0 * numerator / denominator;
}

static guint
count_nonzero (const guint *counts,
               guint        count)
{
  guint nonzero = 0;

  for (guint i = 0; i < count; i++)
    nonzero += counts[i] != 0;
  return nonzero;
}

static double
entropy (const guint *sizes,
         guint        count,
         guint        n)
{
  double h = 0.0;

  for (guint i = 0; i < count; i++)
    if (sizes[i] != 0)
      h += ((double) sizes[i] / n) * log ((double) n / sizes[i]);
  return h;
}

static double
contingency_nmi (const Contingency *self)
{
  guint nk = count_nonzero (self->cluster_sizes, self->n_clusters);
  guint nc = count_nonzero (self->class_sizes, self->n_classes);
  double mi = 0.0;
  double normaliser;

  /* scikit-learn: both unsplit (or empty) is a perfect match; one unsplit
   * and the other not shares no information. */
  if ((nk == 1 && nc == 1) || (nk == 0 && nc == 0))
    return 1.0;
  if (nk <= 1 || nc <= 1)
    return 0.0;

  for (guint k = 0; k < self->n_clusters; k++)
    {
      const guint *row = self->table + (gsize) k * self->n_classes;

      for (guint c = 0; c < self->n_classes; c++)
        {
          guint64 joint, outer;
          double excess;

          if (row[c] == 0)
            continue;

          /* ln (n_ij n / a_k b_c) as log1p of an exactly computed excess,
           * rather than a difference of large logarithms that cancel: nearly
           * independent labelings have every ratio close to 1. */
          joint = (guint64) row[c] * self->n;
          outer = (guint64) self->cluster_sizes[k] * self->class_sizes[c];
          excess = joint >= outer ? (double) (joint - outer) : -(double) (outer - joint);
          mi += ((double) row[c] / self->n) * log1p (excess / (double) outer);
        }
    }

  if (mi <= 0.0)
    return 0.0;

  normaliser = 0.5 * (entropy (self->cluster_sizes, self->n_clusters, self->n)
                      + entropy (self->class_sizes, self->n_classes, self->n));

  /* Identical partitions may land an ulp above 1. */
  return MIN (mi / normaliser, 1.0);
}

/* ---- public ----------------------------------------------------------- */

double
latent_metrics_accuracy (const gint32 *clusters,
                         guint         n_clusters,
                         const gint32 *classes,
                         guint         n_classes,
                         guint         n,
                         gint32       *mapping)
{
  g_auto(Contingency) table = { 0 };

  g_return_val_if_fail (n == 0 || (clusters != NULL && classes != NULL), NAN);
  g_return_val_if_fail (labels_in_range (clusters, n, n_clusters), NAN);
  g_return_val_if_fail (labels_in_range (classes, n, n_classes), NAN);

  contingency_init (&table, clusters, n_clusters, classes, n_classes, n);
  return contingency_accuracy (&table, mapping);
}

double
latent_metrics_ari (const gint32 *clusters,
                    guint         n_clusters,
                    const gint32 *classes,
                    guint         n_classes,
                    guint         n)
{
  g_auto(Contingency) table = { 0 };

  g_return_val_if_fail (n == 0 || (clusters != NULL && classes != NULL), NAN);
  g_return_val_if_fail (labels_in_range (clusters, n, n_clusters), NAN);
  g_return_val_if_fail (labels_in_range (classes, n, n_classes), NAN);

  contingency_init (&table, clusters, n_clusters, classes, n_classes, n);
  return contingency_ari (&table);
}

double
latent_metrics_nmi (const gint32 *clusters,
                    guint         n_clusters,
                    const gint32 *classes,
                    guint         n_classes,
                    guint         n)
{
  g_auto(Contingency) table = { 0 };

  g_return_val_if_fail (n == 0 || (clusters != NULL && classes != NULL), NAN);
  g_return_val_if_fail (labels_in_range (clusters, n, n_clusters), NAN);
  g_return_val_if_fail (labels_in_range (classes, n, n_classes), NAN);

  contingency_init (&table, clusters, n_clusters, classes, n_classes, n);
  return contingency_nmi (&table);
}

void
latent_metrics_compute (const gint32       *clusters,
                        guint               n_clusters,
                        const gint32       *classes,
                        guint               n_classes,
                        guint               n,
                        LatentLabelMetrics *out)
{
  g_auto(Contingency) table = { 0 };

  g_return_if_fail (out != NULL);

  *out = (LatentLabelMetrics) { NAN, NAN, NAN };

  g_return_if_fail (n == 0 || (clusters != NULL && classes != NULL));
  g_return_if_fail (labels_in_range (clusters, n, n_clusters));
  g_return_if_fail (labels_in_range (classes, n, n_classes));

  contingency_init (&table, clusters, n_clusters, classes, n_classes, n);
  out->accuracy = contingency_accuracy (&table, NULL);
  out->ari = contingency_ari (&table);
  out->nmi = contingency_nmi (&table);
}

guint
latent_metrics_confusion (const gint32 *clusters,
                          guint         n_clusters,
                          const gint32 *classes,
                          guint         n_classes,
                          guint         n,
                          guint        *counts,
                          gint32       *mapping)
{
  g_auto(Contingency) table = { 0 };
  gsize cells = (gsize) n_clusters * n_classes;
  guint matched = 0;

  g_return_val_if_fail (cells == 0 || counts != NULL, 0);
  g_return_val_if_fail (n == 0 || (clusters != NULL && classes != NULL), 0);
  g_return_val_if_fail (labels_in_range (clusters, n, n_clusters), 0);
  g_return_val_if_fail (labels_in_range (classes, n, n_classes), 0);

  contingency_init (&table, clusters, n_clusters, classes, n_classes, n);
  if (cells > 0)
    memcpy (counts, table.table, cells * sizeof (guint));

  if (mapping != NULL || n > 0)
    {
      g_autofree gint32 *own = g_new (gint32, MAX (n_clusters, 1));

      contingency_accuracy (&table, own);
      for (guint k = 0; k < n_clusters; k++)
        {
          if (own[k] >= 0)
            matched += table.table[(gsize) k * n_classes + (guint) own[k]];
          if (mapping != NULL)
            mapping[k] = own[k];
        }
    }
  return matched;
}

typedef struct {
  guint  index;
  char  *key;
} Column;

static int
compare_columns (gconstpointer a,
                 gconstpointer b)
{
  const Column *x = a, *y = b;
  int by_key = strcmp (x->key, y->key);

  return by_key != 0 ? by_key : (x->index > y->index) - (x->index < y->index);
}

/* The classes in their names' order, numbers in them as numbers (c2 before
 * c10): a file numbers its text labels as they first appear, which reads
 * as c0, c2, c4, c1, c3 across the table. Unnamed classes keep theirs. */
static guint *
column_order (guint               n_classes,
              const char * const *class_names)
{
  guint *order = g_new (guint, MAX (n_classes, 1u));
  g_autofree Column *columns = g_new0 (Column, MAX (n_classes, 1u));

  for (guint c = 0; c < n_classes; c++)
    {
      const char *name = class_names != NULL ? class_names[c] : NULL;

      columns[c].index = c;
      /* Unnamed ones sort by their number, after the named. */
      columns[c].key = name != NULL ? g_utf8_collate_key_for_filename (name, -1)
                                    : g_strdup_printf ("\xff%010u", c);
    }
  qsort (columns, n_classes, sizeof (Column), compare_columns);
  for (guint c = 0; c < n_classes; c++)
    {
      order[c] = columns[c].index;
      g_free (columns[c].key);
    }
  return order;
}

char *
latent_metrics_confusion_to_text (const guint        *counts,
                                  guint               n_clusters,
                                  guint               n_classes,
                                  const char * const *class_names,
                                  const gint32       *mapping)
{
  g_autoptr(GPtrArray) heads = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);
  g_autofree int *widths = g_new0 (int, (gsize) n_classes + 1);
  g_autofree guint *order = column_order (n_classes, class_names);
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (n_clusters == 0 || n_classes == 0 || counts != NULL, g_string_free (out, FALSE));

  /* Column 0 holds the cluster names; widths count characters, not bytes. */
  for (guint k = 0; k < n_clusters; k++)
    {
      /* Translators: a row of the clusters-to-classes table; %u counts from 1 */
      char *name = g_strdup_printf (_("cluster %u"), k + 1);

      widths[0] = MAX (widths[0], (int) g_utf8_strlen (name, -1));
      g_ptr_array_add (rows, name);
    }
  for (guint c = 0; c < n_classes; c++)
    {
      const char *given = class_names != NULL ? class_names[c] : NULL;
      /* Translators: a column of the clusters-to-classes table; %u counts from 1 */
      char *name = given != NULL ? g_strdup (given) : g_strdup_printf (_("class %u"), c + 1);

      widths[c + 1] = (int) g_utf8_strlen (name, -1);
      for (guint k = 0; k < n_clusters; k++)
        {
          g_autofree char *cell = g_strdup_printf ("%u*", counts[(gsize) k * n_classes + c]);
          widths[c + 1] = MAX (widths[c + 1], (int) strlen (cell));
        }
      g_ptr_array_add (heads, name);
    }

  g_string_append_printf (out, "%*s", widths[0], "");
  for (guint i = 0; i < n_classes; i++)
    {
      guint c = order[i];
      const char *name = g_ptr_array_index (heads, c);

      g_string_append_printf (out, " %*s%s", widths[c + 1] - (int) g_utf8_strlen (name, -1), "", name);
    }
  for (guint k = 0; k < n_clusters; k++)
    {
      const char *name = g_ptr_array_index (rows, k);

      g_string_append_printf (out, "\n%s%*s", name, widths[0] - (int) g_utf8_strlen (name, -1), "");
      for (guint i = 0; i < n_classes; i++)
        {
          guint c = order[i];
          gboolean matched = mapping != NULL && mapping[k] == (gint32) c;

          /* The star hangs to the right, so the digits stay in line. */
          g_string_append_printf (out, " %*u%s", widths[c + 1] - 1,
                                  counts[(gsize) k * n_classes + c], matched ? "*" : " ");
        }
    }
  return g_string_free (out, FALSE);
}

char *
latent_metrics_snapshot_confusion (LatentSnapshot *snapshot)
{
  LatentDataset *ds;
  guint n_classes;
  g_autofree guint *counts = NULL;
  g_autofree gint32 *mapping = NULL;
  g_autofree const char **names = NULL;

  g_return_val_if_fail (snapshot != NULL, NULL);

  ds = snapshot->dataset;
  if (snapshot->clusters.labels == NULL || snapshot->clusters.k == 0 || ds == NULL || !latent_dataset_has_labels (ds)
      || latent_dataset_get_n_rows (ds) != snapshot->n_rows)
    return NULL;

  n_classes = latent_dataset_get_n_classes (ds);
  counts = g_new0 (guint, (gsize) snapshot->clusters.k * MAX (n_classes, 1));
  mapping = g_new (gint32, snapshot->clusters.k);
  names = g_new0 (const char *, (gsize) n_classes + 1);
  for (guint c = 0; c < n_classes; c++)
    names[c] = latent_dataset_get_class_name (ds, c);

  latent_metrics_confusion (snapshot->clusters.labels, snapshot->clusters.k, latent_dataset_get_labels (ds), n_classes,
                            snapshot->n_rows, counts, mapping);
  return latent_metrics_confusion_to_text (counts, snapshot->clusters.k, n_classes, names, mapping);
}

/* In float, eight partial sums apart, so the compiler can vectorise it
 * without reassociating: ranks only compare these. */
static double
squared_distance (const float *a,
                  const float *b,
                  guint        d)
{
  float part[8] = { 0 };
  guint f = 0;
  float s = 0;

  for (; f + 8 <= d; f += 8)
    for (guint v = 0; v < 8; v++)
      part[v] += (a[f + v] - b[f + v]) * (a[f + v] - b[f + v]);
  for (; f < d; f++)
    s += (a[f] - b[f]) * (a[f] - b[f]);
  for (guint v = 0; v < 8; v++)
    s += part[v];
  return s;
}

typedef struct {
  const float *x, *y;
  guint        n, d, dims, k, s;
  guint        first, last;   /* the queries this thread ranks */
  double       penalty;
} Trust;

/* Σ (r(i, j) − k) over the embedding neighbours j of queries first … last − 1
 * that are not among the input's k nearest. */
static gpointer
trust_queries (gpointer data)
{
  Trust *t = data;
  const guint n = t->n, k = t->k;
  g_autofree double *dx = g_new (double, n);
  g_autofree double *near_d = g_new (double, k);
  g_autofree guint *near = g_new (guint, k);

  for (guint q = t->first; q < t->last; q++)
    {
      const guint i = (guint) ((guint64) q * n / t->s);

      /* The k nearest in the embedding, ties to the lower row. */
      for (guint c = 0; c < k; c++)
        near_d[c] = INFINITY;
      for (guint j = 0; j < n; j++)
        {
          double dd;
          guint c;

          if (j == i)
            continue;
          dd = squared_distance (t->y + (gsize) i * t->dims, t->y + (gsize) j * t->dims, t->dims);
          if (!(dd < near_d[k - 1]))
            continue;
          for (c = k - 1; c > 0 && near_d[c - 1] > dd; c--)
            {
              near_d[c] = near_d[c - 1];
              near[c] = near[c - 1];
            }
          near_d[c] = dd;
          near[c] = j;
        }
      for (guint j = 0; j < n; j++)
        dx[j] = j == i ? -1 : squared_distance (t->x + (gsize) i * t->d, t->x + (gsize) j * t->d, t->d);
      /* Each embedding neighbour's rank in the input: 1 + the rows nearer,
       * or as near and lower. */
      for (guint c = 0; c < k; c++)
        {
          const guint j = near[c];
          guint rank = 1;

          for (guint l = 0; l < n; l++)
            rank += l != i && l != j && (dx[l] < dx[j] || (dx[l] == dx[j] && l < j));
          if (rank > k)
            t->penalty += rank - k;
        }
    }
  return NULL;
}

double
latent_metrics_trustworthiness (const float *x,
                                guint        n,
                                guint        d,
                                const float *y,
                                guint        dims,
                                guint        k,
                                guint        n_queries)
{
  const guint n_threads = MIN (g_get_num_processors (), 16);
  Trust parts[16];
  GThread *threads[16] = { NULL };
  double penalty = 0;
  guint s;

  if (k == 0 || 3 * (guint64) k + 1 >= (guint64) 2 * n || n_queries == 0)
    return NAN;
  s = MIN (n_queries, n);
  /* Each thread its share of the queries; the shares' sums are added in
   * thread order, so the answer does not depend on which ends first. */
  for (guint t = 0; t < n_threads; t++)
    {
      parts[t] = (Trust) { x, y, n, d, dims, k, s, (guint) ((guint64) s * t / n_threads),
                           (guint) ((guint64) s * (t + 1) / n_threads), 0 };
      if (t > 0)
        threads[t] = g_thread_try_new ("latent-trust", trust_queries, &parts[t], NULL);
    }
  trust_queries (&parts[0]);
  for (guint t = 1; t < n_threads; t++)
    {
      if (threads[t])
        g_thread_join (threads[t]);
      else
        trust_queries (&parts[t]);
      penalty += parts[t].penalty;
    }
  penalty += parts[0].penalty;
  return 1 - 2.0 / ((double) s * k * (2.0 * n - 3.0 * k - 1)) * penalty;
}
