/* test-figures-classifier.c — the figures of classifiers (logistic
 * regression, nearest prototype): confusion matrix and its hit test,
 * class weights, prototypes, decision regions, the last episode and the
 * training curves, on snapshots built by hand
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-figures-classifier"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "latent-algorithm.h"
#include "latent-registry.h"
#include "latent-figure.h"
#include "latent-test-figures.h"
#include "latent-test-pixels.h"
#include "latent-test-util.h"
#include "latent-palette.h"

/* The classifier family as the algorithm tables declare it, without the
 * algorithms: only what the figures read. */
static const char * const logreg_figures[] = { "curves", "confusion", "weights", "regions", NULL };
static const LatentAlgorithm test_logreg = {
  .id = "test-logreg",
  .title = "logistic regression",
  .short_title = "Logistic regression",
  .objective_name = "loss",
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = logreg_figures,
};

static const char * const prototype_figures[] = { "prototypes", "episode", "curves", "confusion", NULL };
static const LatentAlgorithm test_prototype = {
  .id = "test-prototype",
  .title = "nearest prototype",
  .short_title = "Prototypes",
  .objective_name = "accuracy",
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = prototype_figures,
};

/* Prototypes on data of two columns, as a table could offer them. */
static const char * const plane_figures[] = { "prototypes", "regions", NULL };
static const LatentAlgorithm test_prototype_plane = {
  .id = "test-prototype-plane",
  .title = "nearest prototype",
  .short_title = "Prototypes",
  .objective_name = "accuracy",
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = plane_figures,
};

#define SIDE 8

/* Three blobs in the plane (iris-like names), or four classes of 8 × 8
 * images each brightest in its own quarter. */
static LatentDataset *
make_dataset (gboolean images,
              guint    n)
{
  static const char *table_names[] = { "setosa", "versicolor", "virginica", NULL };
  static const char *image_names[] = { "T-shirt", "Trouser", "Pullover", "Dress", NULL };
  static const char *columns[] = { "petal length", "petal width", NULL };
  static const double centres[3][2] = { { 0, 0 }, { 10, 0 }, { 5, 8 } };
  const guint k = images ? 4 : 3, d = images ? SIDE * SIDE : 2;
  LatentDataset *ds = latent_dataset_new (images ? "tiny images" : "blobs", n, d, NULL);
  float *x = latent_dataset_get_data (ds);
  g_autofree gint32 *labels = g_new (gint32, n);
  guint64 state = 7;

  for (guint i = 0; i < n; i++)
    {
      guint c = i % k;

      labels[i] = c;
      for (guint j = 0; j < d; j++)
        {
          if (images)
            {
              guint px = j % SIDE, py = j / SIDE, quarter = (py >= SIDE / 2) * 2 + (px >= SIDE / 2);

              x[(gsize) i * d + j] = (float) CLAMP ((quarter == c ? 0.8 : 0.1) + 0.1 * test_normal (&state), 0.0, 1.0);
            }
          else
            x[(gsize) i * d + j] = (float) (centres[c][j] + 0.8 * test_normal (&state));
        }
    }
  latent_dataset_set_labels (ds, labels, k, (GStrv) (images ? image_names : table_names));
  if (images)
    latent_dataset_set_image_shape (ds, SIDE, SIDE, 1, FALSE);
  else
    latent_dataset_set_column_names (ds, (GStrv) columns);
  return ds;
}

/* The class means of the training rows (those not held out). */
static float *
class_means (LatentDataset *ds,
             const gboolean *held_out,
             guint           k)
{
  const guint n = latent_dataset_get_n_rows (ds), d = latent_dataset_get_n_cols (ds);
  const gint32 *labels = latent_dataset_get_labels (ds);
  float *means = g_new0 (float, (gsize) k * d);
  g_autofree guint *count = g_new0 (guint, k);

  for (guint i = 0; i < n; i++)
    if (!held_out[i])
      {
        count[labels[i]]++;
        for (guint j = 0; j < d; j++)
          means[(gsize) labels[i] * d + j] += latent_dataset_get_row (ds, i)[j];
      }
  for (guint c = 0; c < k; c++)
    for (guint j = 0; j < d; j++)
      means[(gsize) c * d + j] /= MAX (count[c], 1u);
  return means;
}

/* Test rows every fifth row of the dataset (all classes), predicted by nearest mean
 * except every @wrong_every-th, which is given the next class. */
static void
judge (LatentSnapshot *snap,
       guint           wrong_every)
{
  const guint k = snap->classifier.n_classes, n = latent_dataset_get_n_rows (snap->dataset);
  const gint32 *labels = latent_dataset_get_labels (snap->dataset);
  guint right = 0;

  snap->classifier.test_dataset = g_object_ref (snap->dataset);
  snap->classifier.n_test = (n + 3) / 5;
  snap->classifier.test_rows = g_new (gint32, snap->classifier.n_test);
  snap->classifier.test_predictions = g_new (gint32, snap->classifier.n_test);
  snap->classifier.confusion = g_new0 (guint, (gsize) k * k);
  for (guint i = 0; i < snap->classifier.n_test; i++)
    {
      gint32 row = 5 * i + 1, truth = labels[row];

      snap->classifier.test_rows[i] = row;
      snap->classifier.test_predictions[i] = wrong_every > 0 && i % wrong_every == 0 ? (truth + 1) % (gint32) k : truth;
      snap->classifier.confusion[(gsize) truth * k + snap->classifier.test_predictions[i]]++;
      right += snap->classifier.test_predictions[i] == truth;
    }
  snap->classifier.test_accuracy = (double) right / snap->classifier.n_test;
}

static LatentSnapshot *
classifier_snapshot (const LatentAlgorithm *algorithm,
                     gboolean               images)
{
  g_autoptr(LatentDataset) ds = make_dataset (images, images ? 120 : 150);
  const guint n = latent_dataset_get_n_rows (ds), d = latent_dataset_get_n_cols (ds);
  const guint k = latent_dataset_get_n_classes (ds);
  LatentSnapshot *snap = latent_snapshot_new (algorithm, ds, NULL);
  g_autofree gboolean *held_out = g_new0 (gboolean, n);
  guint64 state = 3;

  for (guint i = 1; i < n; i += 5)
    held_out[i] = TRUE;
  snap->seed = 42;
  snap->n_rows = n;
  snap->n_cols = d;
  snap->classifier.n_classes = k;
  snap->classifier.n_classes = k;
  snap->classifier.class_weights = class_means (ds, held_out, k);
  if (algorithm == &test_logreg)
    {
      /* w_c = μ_c, b_c = −|μ_c|²/2: nearest mean as a linear score. */
      snap->classifier.class_bias = g_new (float, k);
      for (guint c = 0; c < k; c++)
        {
          double sq = 0.0;

          for (guint j = 0; j < d; j++)
            sq += (double) snap->classifier.class_weights[c * d + j] * snap->classifier.class_weights[c * d + j];
          snap->classifier.class_bias[c] = (float) (-sq / 2.0);
        }
      /* An image model's weights: class 0 positive left, negative right,
       * as the figure shows them: times each pixel's standard deviation. */
      if (images)
        for (guint j = 0; j < d; j++)
          {
            double sum = 0.0, sum2 = 0.0, sd;

            for (guint i = 0; i < n; i++)
              {
                double v = latent_dataset_get_row (ds, i)[j];

                sum += v, sum2 += v * v;
              }
            sd = sqrt (MAX (0.0, sum2 / n - (sum / n) * (sum / n)));
            snap->classifier.class_weights[j] = (float) (((j % SIDE) < SIDE / 2 ? 1.0 : -1.0) / sd);
          }
      snap->classifier.epochs.n_epochs = 20;
      snap->classifier.epochs.steps_per_epoch = 5;
      snap->classifier.epochs.n_steps = 100;
      snap->classifier.epochs.train_loss = g_new (double, 20);
      snap->classifier.epoch_train_accuracy = g_new (double, 20);
      snap->classifier.epoch_test_accuracy = g_new (double, 20);
      snap->classifier.epochs.step_loss = g_new (float, 100);
      for (guint s = 0; s < 100; s++)
        snap->classifier.epochs.step_loss[s] = (float) (1.1 * exp (-(double) s / 25.0) + 0.1 + 0.05 * test_normal (&state));
      for (guint e = 0; e < 20; e++)
        {
          snap->classifier.epochs.train_loss[e] = 1.1 * exp (-(e * 5.0 + 2.0) / 25.0) + 0.1;
          snap->classifier.epoch_train_accuracy[e] = 1.0 - 0.6 * exp (-(double) e / 4.0);
          snap->classifier.epoch_test_accuracy[e] = 0.97 - 0.6 * exp (-(double) e / 4.0);
        }
      snap->iteration = 20;
    }
  judge (snap, 10);
  snap->classifier.train_accuracy = 0.98;
  if (algorithm == &test_prototype)
    {
      const guint ways = 3, shots = 2, per_way = 3;
      double sum = 0.0, sum2 = 0.0;

      snap->classifier.n_episodes = 40;
      snap->classifier.episode_accuracy = g_new (double, 40);
      for (guint e = 0; e < 40; e++)
        {
          snap->classifier.episode_accuracy[e] = CLAMP (0.8 + 0.08 * test_normal (&state), 0.0, 1.0);
          sum += snap->classifier.episode_accuracy[e];
          sum2 += snap->classifier.episode_accuracy[e] * snap->classifier.episode_accuracy[e];
        }
      snap->classifier.episode_mean_accuracy = sum / 40;
      snap->classifier.episode_ci95 = 1.96 * sqrt ((sum2 - sum * sum / 40) / 39) / sqrt (40);
      snap->classifier.n_ways = ways;
      snap->classifier.n_shots = shots;
      snap->classifier.episode_classes = g_new (gint32, ways);
      snap->classifier.support_rows = g_new (gint32, ways * shots);
      snap->classifier.episode_prototypes = g_new0 (float, (gsize) ways * d);
      snap->classifier.n_queries = ways * per_way;
      snap->classifier.query_rows = g_new (gint32, snap->classifier.n_queries);
      snap->classifier.query_predictions = g_new (gint32, snap->classifier.n_queries);
      for (guint w = 0; w < ways; w++)
        {
          /* Ways are classes 2, 0 and 1: not in the dataset's order. */
          gint32 c = (w + 2) % ways;

          snap->classifier.episode_classes[w] = c;
          for (guint s = 0; s < shots; s++)
            {
              snap->classifier.support_rows[w * shots + s] = c + (gint32) (k * 3 * s);
              for (guint j = 0; j < d; j++)
                snap->classifier.episode_prototypes[w * d + j] += latent_dataset_get_row (ds, snap->classifier.support_rows[w * shots + s])[j] / shots;
            }
          for (guint q = 0; q < per_way; q++)
            {
              guint at = w * per_way + q;

              snap->classifier.query_rows[at] = c + (gint32) (k * (3 * q + 1));
              /* The last query of the first two ways is wrong. */
              snap->classifier.query_predictions[at] = q == per_way - 1 && w < 2 ? (c + 1) % (gint32) k : c;
            }
        }
    }
  return snap;
}

/* The tint the regions figure gives a class: a quarter of its colour on
 * the light background. */
static guint32
tint_argb (guint klass)
{
  guint32 c = latent_palette_argb (klass);
  guint r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;

  r = (guint) lround (255 + (r - 255.0) * 0.25);
  g = (guint) lround (255 + (g - 255.0) * 0.25);
  b = (guint) lround (255 + (b - 255.0) * 0.25);
  return 0xff000000u | (r << 16) | (g << 8) | b;
}

/* Tests -------------------------------------------------------------------- */

static void
test_kinds (void)
{
  g_autoptr(LatentSnapshot) logreg = classifier_snapshot (&test_logreg, FALSE);
  g_autoptr(LatentSnapshot) logreg_images = classifier_snapshot (&test_logreg, TRUE);
  g_autoptr(LatentSnapshot) proto = classifier_snapshot (&test_prototype, TRUE);
  static const LatentFigureKind logreg_kinds[] = {
    LATENT_FIGURE_CURVES, LATENT_FIGURE_CONFUSION, LATENT_FIGURE_WEIGHTS, LATENT_FIGURE_REGIONS,
  };
  static const LatentFigureKind image_kinds[] = {
    LATENT_FIGURE_CURVES, LATENT_FIGURE_CONFUSION, LATENT_FIGURE_WEIGHTS,
  };
  static const LatentFigureKind proto_kinds[] = {
    LATENT_FIGURE_PROTOTYPES, LATENT_FIGURE_EPISODE, LATENT_FIGURE_CURVES, LATENT_FIGURE_CONFUSION,
  };
  LatentFigureKind kinds[LATENT_FIGURE_N_KINDS], kind;
  g_autoptr(GError) error = NULL;
  guint n;

  for (const char * const *name = (const char * const[]) { "confusion", "regions", "prototypes", "episode", NULL };
       *name != NULL; name++)
    {
      g_assert_true (latent_figure_kind_from_string (*name, &kind));
      g_assert_cmpstr (latent_figure_kind_to_string (kind), ==, *name);
    }
  n = latent_figure_list_kinds (logreg, kinds);
  g_assert_cmpmem (kinds, n * sizeof *kinds, logreg_kinds, sizeof logreg_kinds);
  /* Regions need two columns; the error says so. */
  n = latent_figure_list_kinds (logreg_images, kinds);
  g_assert_cmpmem (kinds, n * sizeof *kinds, image_kinds, sizeof image_kinds);
  g_assert_false (latent_figure_kind_applies (logreg_images, LATENT_FIGURE_REGIONS, &error));
  g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND);
  g_assert_nonnull (strstr (error->message, "2 columns"));
  g_clear_error (&error);
  n = latent_figure_list_kinds (proto, kinds);
  g_assert_cmpmem (kinds, n * sizeof *kinds, proto_kinds, sizeof proto_kinds);

  /* A classifier is first seen learning, even on images; its images are
   * its prototypes or its weights. */
  g_assert_cmpint (latent_figure_resolve_kind (logreg_images, LATENT_FIGURE_AUTO), ==, LATENT_FIGURE_CURVES);
  g_assert_cmpint (latent_figure_resolve_kind (proto, LATENT_FIGURE_AUTO), ==, LATENT_FIGURE_PROTOTYPES);
  g_assert_cmpint (latent_figure_resolve_kind (proto, LATENT_FIGURE_IMAGES), ==, LATENT_FIGURE_PROTOTYPES);
  g_assert_cmpint (latent_figure_resolve_kind (logreg_images, LATENT_FIGURE_IMAGES), ==, LATENT_FIGURE_WEIGHTS);
  g_assert_cmpstr (latent_figure_kind_get_title (LATENT_FIGURE_WEIGHTS, logreg), ==, "Class weights");
  g_assert_false (latent_figure_kind_applies (logreg, LATENT_FIGURE_EPISODE, NULL));
}

/* Class names from the dataset, numbers without them; the header says the
 * test accuracy. */
static void
test_names (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, FALSE);
  g_autoptr(LatentDataset) bare = latent_dataset_new ("bare", 4, 2, NULL);
  g_autoptr(LatentSnapshot) unnamed = latent_snapshot_new (&test_logreg, bare, NULL);
  g_autofree char *name = latent_figure_dup_class_name (snap, 1);
  g_autofree char *number = latent_figure_dup_class_name (unnamed, 3);
  g_autofree char *title = latent_figure_dup_title (snap);

  g_assert_cmpstr (name, ==, "versicolor");
  g_assert_cmpstr (number, ==, "3");
  g_assert_cmpstr (title, ==, "Logistic regression · epoch 20");
}

/* Each cell's box as the hit test finds it, scanning every other pixel:
 * x0, y0, x1, y1 (inclusive), or x0 = −1 for a cell never hit. */
static double *
cell_boxes (LatentSnapshot          *snap,
            const LatentFigureStyle *style,
            int                      width,
            int                      height)
{
  const guint k = snap->classifier.n_classes;
  double *boxes = g_new (double, (gsize) k * k * 4);

  for (guint i = 0; i < k * k; i++)
    boxes[4 * i] = -1;
  for (int y = 0; y < height; y += 2)
    for (int x = 0; x < width; x += 2)
      {
        guint t, p;
        double *b;

        if (!latent_figure_confusion_cell_at (snap, style, width, height, x, y, &t, &p))
          continue;
        g_assert_cmpuint (t, <, k);
        g_assert_cmpuint (p, <, k);
        b = boxes + 4 * (t * k + p);
        if (b[0] < 0)
          b[0] = b[2] = x, b[1] = b[3] = y;
        b[0] = MIN (b[0], x), b[1] = MIN (b[1], y), b[2] = MAX (b[2], x), b[3] = MAX (b[3], y);
      }
  return boxes;
}

/* The darkest cell of each row is the one with the row's largest share;
 * every cell's centre maps back to it, and a point off the matrix to none. */
static void
test_confusion (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, FALSE);
  const guint k = snap->classifier.n_classes;
  g_autofree double *boxes = NULL;
  LatentFigureStyle style;
  cairo_surface_t *surface;
  guint t, p;

  /* Row 2 mostly wrong: its largest share is off the diagonal. */
  memset (snap->classifier.confusion + 2 * k, 0, k * sizeof (guint));
  snap->classifier.confusion[2 * k + 0] = 12;
  snap->classifier.confusion[2 * k + 1] = 3;
  snap->classifier.confusion[2 * k + 2] = 1;

  latent_figure_style_init (&style);
  surface = render (snap, LATENT_FIGURE_CONFUSION, &style, 640, 480);
  keep_figure (surface, "classifier-confusion");
  boxes = cell_boxes (snap, &style, 640, 480);
  for (t = 0; t < k; t++)
    {
      double darkest = INFINITY;
      guint darkest_p = k, largest_p = 0;

      for (p = 0; p < k; p++)
        if (snap->classifier.confusion[t * k + p] > snap->classifier.confusion[t * k + largest_p])
          largest_p = p;
      for (p = 0; p < k; p++)
        {
          const double *b = boxes + 4 * (t * k + p);
          guint back_t = k, back_p = k;
          double l;

          g_assert_cmpfloat (b[0], >=, 0);
          /* Square cells, big enough to read at 640 × 480. */
          g_assert_cmpfloat (b[2] - b[0], >, 40);
          g_assert_cmpfloat (fabs ((b[2] - b[0]) - (b[3] - b[1])), <=, 2);
          g_assert_true (latent_figure_confusion_cell_at (snap, &style, 640, 480, (b[0] + b[2]) / 2,
                                                          (b[1] + b[3]) / 2, &back_t, &back_p));
          g_assert_cmpuint (back_t, ==, t);
          g_assert_cmpuint (back_p, ==, p);
          /* A corner, away from the count written in the middle. */
          l = latent_test_luminance (latent_test_pixel (surface, (int) b[0] + 4, (int) b[1] + 4));
          if (l < darkest)
            darkest = l, darkest_p = p;
        }
      g_assert_cmpuint (darkest_p, ==, largest_p);
    }
  /* True class rows top down: row 0 above row 1, column 0 left of 1. */
  g_assert_cmpfloat (boxes[4 * (1 * k + 0) + 1], >, boxes[4 * (0 * k + 0) + 3]);
  g_assert_cmpfloat (boxes[4 * (0 * k + 1) + 0], >, boxes[4 * (0 * k + 0) + 2]);

  g_assert_false (latent_figure_confusion_cell_at (snap, &style, 640, 480, 2, 2, &t, &p));
  g_assert_false (latent_figure_confusion_cell_at (snap, &style, 640, 480, 639, 479, &t, &p));
  g_assert_false (latent_figure_confusion_cell_at (snap, &style, 640, 480, -10, 200, &t, &p));
  cairo_surface_destroy (surface);
}

/* Fifty classes: cells without numbers, still each found by the hit test. */
static void
test_confusion_many (void)
{
  g_autoptr(LatentDataset) ds = latent_dataset_new ("fifty", 500, 2, NULL);
  g_autoptr(LatentSnapshot) snap = latent_snapshot_new (&test_logreg, ds, NULL);
  g_autofree gint32 *labels = g_new (gint32, 500);
  const guint k = 50;
  LatentFigureStyle style;
  cairo_surface_t *surface;
  guint t, p;

  for (guint i = 0; i < 500; i++)
    labels[i] = i % k;
  latent_dataset_set_labels (ds, labels, k, NULL);
  snap->classifier.n_classes = k;
  snap->classifier.confusion = g_new0 (guint, k * k);
  for (guint c = 0; c < k; c++)
    {
      snap->classifier.confusion[c * k + c] = 8;
      snap->classifier.confusion[c * k + (c + 1) % k] = 2;
    }
  latent_figure_style_init (&style);
  for (guint s = 0; s < 2; s++)
    {
      int w = s ? 1200 : 640, h = s ? 800 : 480;

      surface = render (snap, LATENT_FIGURE_CONFUSION, &style, w, h);
      keep_figure (surface, s ? "classifier-confusion-50-large" : "classifier-confusion-50");
      cairo_surface_destroy (surface);
      /* Corner cells are found at their centres. */
      for (guint c = 0; c < 2; c++)
        {
          g_autofree double *boxes = NULL;
          gboolean hit = FALSE;

          for (int y = 0; y < h && !hit; y++)
            for (int x = 0; x < w && !hit; x++)
              if (latent_figure_confusion_cell_at (snap, &style, w, h, x, y, &t, &p))
                {
                  g_assert_cmpuint (t, ==, 0);
                  g_assert_cmpuint (p, ==, 0);
                  hit = TRUE;
                }
          g_assert_true (hit);
        }
    }
}

/* Far on a class's side of the plane, its tint; the points on top. */
static void
test_regions (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, FALSE);
  g_autoptr(LatentSnapshot) proto = classifier_snapshot (&test_prototype, FALSE);
  LatentFigureStyle style;
  cairo_surface_t *surface;
  guint n_a, n_b, n_c;

  latent_figure_style_init (&style);
  /* Points would cover the tints this test reads: the far corners hold
   * none. Class 0 is at (0, 0), class 1 at (10, 0), class 2 at (5, 8);
   * the bottom left corner of the plot is class 0's, bottom right 1's,
   * top middle 2's. */
  surface = render (snap, LATENT_FIGURE_REGIONS, &style, 640, 480);
  keep_figure (surface, "classifier-regions");
  n_a = latent_test_count_near (surface, tint_argb (0), 3);
  n_b = latent_test_count_near (surface, tint_argb (1), 3);
  n_c = latent_test_count_near (surface, tint_argb (2), 3);
  g_assert_cmpuint (n_a, >, 640 * 480 / 20);
  g_assert_cmpuint (n_b, >, 640 * 480 / 20);
  g_assert_cmpuint (n_c, >, 640 * 480 / 20);
  {
    /* Find the plot: the tinted area's bounding box. */
    int x0 = 640, x1 = 0, y0 = 480, y1 = 0;

    for (int y = 0; y < 480; y++)
      for (int x = 0; x < 640; x++)
        for (guint c = 0; c < 3; c++)
          if (latent_test_colour_distance (latent_test_pixel (surface, x, y), tint_argb (c)) <= 3)
            x0 = MIN (x0, x), x1 = MAX (x1, x), y0 = MIN (y0, y), y1 = MAX (y1, y);
    g_assert_cmpuint (latent_test_colour_distance (latent_test_pixel (surface, x0 + 3, y1 - 3), tint_argb (0)), <=, 3);
    g_assert_cmpuint (latent_test_colour_distance (latent_test_pixel (surface, x1 - 3, y1 - 3), tint_argb (1)), <=, 3);
    g_assert_cmpuint (latent_test_colour_distance (latent_test_pixel (surface, (x0 + x1) / 2, y0 + 3), tint_argb (2)), <=, 3);
  }
  /* Wrong test rows are crossed in the figure's ink. */
  g_assert_cmpuint (latent_test_count_near (surface, 0xff242428, 40), >, 50);
  cairo_surface_destroy (surface);

  /* Prototypes by Euclidean distance split the plane the same way. */
  proto->algorithm = &test_prototype_plane;
  surface = render (proto, LATENT_FIGURE_REGIONS, &style, 640, 480);
  keep_figure (surface, "classifier-regions-prototypes");
  g_assert_cmpuint (latent_test_count_near (surface, tint_argb (0), 3), >, 640 * 480 / 20);
  g_assert_cmpuint (latent_test_count_near (surface, tint_argb (2), 3), >, 640 * 480 / 20);
  cairo_surface_destroy (surface);
}

/* Class 0's weights are +1 on the left half and −1 on the right: red
 * left, blue right, on the diverging map. */
static void
test_weights (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, TRUE);
  g_autoptr(LatentSnapshot) table = classifier_snapshot (&test_logreg, FALSE);
  guint32 red = latent_palette_diverging_argb (1.0, FALSE), blue = latent_palette_diverging_argb (-1.0, FALSE);
  LatentFigureStyle style;
  cairo_surface_t *surface;
  int x0 = -1, y0 = -1, x1 = -1;

  latent_figure_style_init (&style);
  surface = render (snap, LATENT_FIGURE_WEIGHTS, &style, 640, 480);
  keep_figure (surface, "classifier-weights");
  /* The first tile: the first strong red pixel, top left. */
  for (int y = 0; y < 480 && y0 < 0; y++)
    for (int x = 0; x < 640 && y0 < 0; x++)
      if (latent_test_colour_distance (latent_test_pixel (surface, x, y), red) <= 6)
        x0 = x, y0 = y;
  g_assert_cmpint (y0, >=, 0);
  /* Red runs to the middle of the tile, then blue. */
  for (int x = x0; x < 640; x++)
    if (latent_test_colour_distance (latent_test_pixel (surface, x, y0 + 2), red) > 6)
      {
        x1 = x;
        break;
      }
  g_assert_cmpint (x1 - x0, >, 10);
  g_assert_cmpuint (latent_test_colour_distance (latent_test_pixel (surface, x1 + (x1 - x0) / 2, y0 + 2), blue), <=, 6);
  cairo_surface_destroy (surface);

  /* A table: a heat map with both signs. */
  surface = render (table, LATENT_FIGURE_WEIGHTS, &style, 640, 480);
  keep_figure (surface, "classifier-weights-table");
  g_assert_cmpuint (latent_test_count_near (surface, red, 40) + latent_test_count_near (surface, blue, 40), >, 1000);
  cairo_surface_destroy (surface);
}

/* Hovering or clicking a class's image names the class and shows the
 * image large, as drawn (issue 40, item 9: every tile figure). */
static void
test_pick (void)
{
  g_autoptr(LatentSnapshot) prototypes = classifier_snapshot (&test_prototype, TRUE);
  g_autoptr(LatentSnapshot) weights = classifier_snapshot (&test_logreg, TRUE);

  g_assert_cmpuint (check_tile_pick (prototypes, LATENT_FIGURE_PROTOTYPES, "Class "), ==,
                    prototypes->classifier.n_classes);
  g_assert_cmpuint (check_tile_pick (weights, LATENT_FIGURE_WEIGHTS, "Class "), ==, weights->classifier.n_classes);
}

/* The wrong queries are framed in the palette's wrong colour, the right
 * ones in its right colour. */
static void
test_episode (void)
{
  LatentFigureStyle style;
  double r, g, b;
  guint32 good, bad;

  latent_palette_verdict (TRUE, &r, &g, &b);
  good = 0xff000000u | ((guint32) lround (r * 255) << 16) | ((guint32) lround (g * 255) << 8) | (guint32) lround (b * 255);
  latent_palette_verdict (FALSE, &r, &g, &b);
  bad = 0xff000000u | ((guint32) lround (r * 255) << 16) | ((guint32) lround (g * 255) << 8) | (guint32) lround (b * 255);
  latent_figure_style_init (&style);
  for (gboolean images = FALSE; images <= TRUE; images++)
    {
      g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_prototype, images);
      cairo_surface_t *surface = render (snap, LATENT_FIGURE_EPISODE, &style, 640, 480);
      guint n_bad = latent_test_count_near (surface, bad, 12), n_good = latent_test_count_near (surface, good, 12);

      keep_figure (surface, images ? "classifier-episode" : "classifier-episode-table");
      g_test_message ("episode %s: %u right pixels, %u wrong", images ? "images" : "table", n_good, n_bad);
      g_assert_cmpuint (n_bad, >, 40);
      if (images)
        {
          /* Seven right queries and two wrong ones (and a legend each). */
          g_assert_cmpuint (n_good, >, n_bad);
        }
      cairo_surface_destroy (surface);

      /* Every query right: no wrong colour but the legend's. */
      for (guint q = 0; q < snap->classifier.n_queries; q++)
        snap->classifier.query_predictions[q] = latent_dataset_get_labels (snap->classifier.test_dataset)[snap->classifier.query_rows[q]];
      surface = render (snap, LATENT_FIGURE_EPISODE, &style, 640, 480);
      g_assert_cmpuint (latent_test_count_near (surface, bad, 12), <, n_bad / 2);
      cairo_surface_destroy (surface);
    }
}

/* Across and Up change the episode's plot of rows, so they are offered for
 * it; an episode of images, or none yet, draws no columns, and choosing
 * them changed nothing (issue 34, 3b.6). */
static void
test_episode_axes (void)
{
  g_autoptr(LatentSnapshot) rows = classifier_snapshot (&test_prototype, FALSE);
  g_autoptr(LatentSnapshot) images = classifier_snapshot (&test_prototype, TRUE);

  g_assert_true (latent_figure_kind_uses_axes (rows, LATENT_FIGURE_EPISODE));
  g_assert_false (latent_figure_kind_uses_axes (images, LATENT_FIGURE_EPISODE));
  /* Before the first episode: "No episode yet". */
  rows->classifier.n_episodes = 0;
  g_assert_false (latent_figure_kind_uses_axes (rows, LATENT_FIGURE_EPISODE));
}

static guint
count_ink (cairo_surface_t *surface,
           guint32          background)
{
  return cairo_image_surface_get_width (surface) * cairo_image_surface_get_height (surface)
         - latent_test_count_near (surface, background, 0);
}

/* Every kind on every snapshot, light and dark, at the sizes a person
 * uses, to PNG and SVG: no errors, and a good deal drawn. */
static void
test_render_all (void)
{
  static const int sizes[][2] = { { 16, 16 }, { 60, 45 }, { 640, 480 }, { 1200, 800 } };
  g_autofree char *dir = g_dir_make_tmp ("latent-classifier-XXXXXX", NULL);

  for (guint a = 0; a < 2; a++)
    for (gboolean images = FALSE; images <= TRUE; images++)
      {
        g_autoptr(LatentSnapshot) snap = classifier_snapshot (a ? &test_prototype : &test_logreg, images);
        g_autoptr(LatentSnapshot) early = latent_snapshot_new (snap->algorithm, snap->dataset, NULL);
        LatentFigureKind kinds[LATENT_FIGURE_N_KINDS];
        guint n = latent_figure_list_kinds (snap, kinds);

        for (guint i = 0; i < n; i++)
          for (gboolean dark = FALSE; dark <= TRUE; dark++)
            for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
              {
                LatentFigureStyle style;
                cairo_surface_t *surface;
                g_autofree char *name = NULL;
                double r, g, b;
                guint32 bg;

                latent_figure_style_init (&style);
                style.dark = dark;
                latent_figure_style_get_background (&style, &r, &g, &b);
                bg = 0xff000000u | ((guint32) lround (r * 255) << 16) | ((guint32) lround (g * 255) << 8)
                     | (guint32) lround (b * 255);
                surface = render (early, kinds[i], &style, sizes[s][0], sizes[s][1]);
                cairo_surface_destroy (surface);
                surface = render (snap, kinds[i], &style, sizes[s][0], sizes[s][1]);
                if (sizes[s][0] >= 640)
                  {
                    guint ink = count_ink (surface, bg);

                    name = g_strdup_printf ("%s-%s-%s-%d%s", a ? "prototype" : "logreg", images ? "images" : "table",
                                            latent_figure_kind_to_string (kinds[i]), sizes[s][0], dark ? "-dark" : "");
                    keep_figure (surface, name);
                    g_assert_cmpuint (ink, >, sizes[s][0] * sizes[s][1] / 50);
                    /* Dark style darkens the background. */
                    g_assert_true (dark ? latent_test_luminance (latent_test_pixel (surface, 2, 2)) < 64 : latent_test_luminance (latent_test_pixel (surface, 2, 2)) > 192);
                  }
                cairo_surface_destroy (surface);

                if (sizes[s][0] == 640 && !dark)
                  {
                    g_autoptr(GError) error = NULL;
                    g_autofree char *svg = g_strdup_printf ("%s/%s-%u.svg", dir,
                                                            latent_figure_kind_to_string (kinds[i]), a * 2 + images);
                    g_autofree char *contents = NULL;

                    g_assert_true (latent_figure_export (snap, kinds[i], &style, svg, 640, 480, &error));
                    g_assert_no_error (error);
                    g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
                    g_assert_nonnull (strstr (contents, "<svg"));
                    g_unlink (svg);
                  }
              }
      }
  g_rmdir (dir);
}

/* The tooltip's images: the test rows of one cell, side by side. */
static void
test_examples (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, TRUE);
  g_autoptr(LatentSnapshot) table = classifier_snapshot (&test_logreg, FALSE);
  LatentFigureStyle style;
  cairo_surface_t *surface;
  guint n = 0, expected = 0, shown;

  latent_figure_style_init (&style);
  for (guint i = 0; i < snap->classifier.n_test; i++)
    expected += latent_dataset_get_labels (snap->classifier.test_dataset)[snap->classifier.test_rows[i]] == 1
                && snap->classifier.test_predictions[i] == 1;
  surface = latent_figure_confusion_examples (snap, &style, 1, 1, 8, 28, &n);
  g_assert_nonnull (surface);
  g_assert_cmpuint (n, ==, MIN (expected, 8u));
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, 28);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, n * 29 - 1);
  cairo_surface_destroy (surface);
  shown = n;
  /* An empty cell, or rows that are not images: nothing. */
  g_assert_null (latent_figure_confusion_examples (snap, &style, 1, 3, 8, 28, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (latent_figure_confusion_examples (table, &style, 0, 0, 8, 28, NULL));

  /* Features of the images (a PCA's, as Use Its Features makes them) are
   * shown as the images they came from. */
  {
    const LatentAlgorithm *pca = latent_registry_lookup ("pca", NULL);
    g_autoptr(LatentParams) params = latent_algorithm_new_params (pca);
    g_autoptr(LatentFit) fit = NULL;
    g_autoptr(LatentDataset) features = NULL;
    g_autoptr(GError) error = NULL;
    guint again = 0;

    g_assert_true (latent_params_set_int (params, "components", 5, NULL));
    fit = latent_algorithm_fit (pca, snap->classifier.test_dataset, params, 1, NULL, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
    features = latent_algorithm_encode (fit->snapshot, snap->classifier.test_dataset, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (latent_dataset_get_n_cols (features), ==, 5);
    g_assert_true (latent_dataset_get_origin (features) == snap->classifier.test_dataset);
    g_set_object (&snap->classifier.test_dataset, features);
    surface = latent_figure_confusion_examples (snap, &style, 1, 1, 8, 28, &again);
    g_assert_nonnull (surface);
    g_assert_cmpuint (again, ==, shown);
    cairo_surface_destroy (surface);
  }
}

/* Curves before anything is learnt say so; learnt, both panels are drawn. */
static void
test_curves (void)
{
  g_autoptr(LatentSnapshot) snap = classifier_snapshot (&test_logreg, FALSE);
  g_autoptr(LatentSnapshot) proto = classifier_snapshot (&test_prototype, FALSE);
  LatentFigureStyle style;
  cairo_surface_t *surface;
  guint32 train = latent_palette_argb (1), test = latent_palette_argb (2);

  latent_figure_style_init (&style);
  surface = render (snap, LATENT_FIGURE_CURVES, &style, 640, 480);
  keep_figure (surface, "classifier-curves");
  g_assert_cmpuint (latent_test_count_near (surface, train, 30), >, 200);
  g_assert_cmpuint (latent_test_count_near (surface, test, 30), >, 100);
  cairo_surface_destroy (surface);
  surface = render (proto, LATENT_FIGURE_CURVES, &style, 640, 480);
  keep_figure (surface, "classifier-curves-episodes");
  g_assert_cmpuint (latent_test_count_near (surface, latent_palette_argb (0), 60), >, 100);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/figures-classifier/kinds", test_kinds);
  g_test_add_func ("/figures-classifier/names", test_names);
  g_test_add_func ("/figures-classifier/confusion", test_confusion);
  g_test_add_func ("/figures-classifier/confusion-many", test_confusion_many);
  g_test_add_func ("/figures-classifier/regions", test_regions);
  g_test_add_func ("/figures-classifier/weights", test_weights);
  g_test_add_func ("/figures-classifier/pick", test_pick);
  g_test_add_func ("/figures-classifier/episode", test_episode);
  g_test_add_func ("/figures-classifier/episode-axes", test_episode_axes);
  g_test_add_func ("/figures-classifier/curves", test_curves);
  g_test_add_func ("/figures-classifier/examples", test_examples);
  g_test_add_func ("/figures-classifier/render-all", test_render_all);
  return g_test_run ();
}
