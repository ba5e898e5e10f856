/* test-prototype.c — the nearest-prototype classifier's reference path:
 * the nearest class mean on hand-computed data, cosine against euclidean,
 * the tie rule, seeded episodes and their interval, too few classes;
 * matching networks' attention and the dot product by hand, one shot
 * matching the class means, logistic regression on a support set, and
 * the shots curve
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-prototype"

#include <math.h>
#include <string.h>

#include "latent-test-util.h"
#include "latent-prototype.h"
#include "latent-prototype-private.h"

/* A dataset of @n rows of two columns from @xy, labels from @labels. */
static LatentDataset *
points (const char   *name,
        const float  *xy,
        const gint32 *labels,
        guint         n,
        guint         n_classes)
{
  LatentDataset *ds = latent_dataset_new (name, n, 2, NULL);

  memcpy (latent_dataset_get_data (ds), xy, n * 2 * sizeof (float));
  latent_dataset_set_labels (ds, labels, n_classes, NULL);
  return ds;
}

static LatentSnapshot *
fit (LatentDataset *ds,
     LatentParams  *params,
     guint64        seed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) result = latent_algorithm_fit (latent_prototype_get_algorithm (), ds, params, seed,
                                                      NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return latent_snapshot_ref (result->snapshot);
}

/* Class 0 around (1, 0), class 1 around (10, 11): the means, the test
 * rows' classes, confusion and accuracies, all by hand. */
static void
test_class_means (void)
{
  const float train_xy[] = { 0, 0, 2, 0, 10, 10, 10, 12, 1, 0 };
  const gint32 train_labels[] = { 0, 0, 1, 1, 0 };
  /* (6, 6): 25 + 36 = 61 from class 0's mean, 16 + 25 = 41 from class
   * 1's, so class 1 although it is labelled 0. */
  const float test_xy[] = { 1, 1, 9, 9, 6, 6 };
  const gint32 test_labels[] = { 0, 1, 0 };
  g_autoptr(LatentDataset) train = points ("train", train_xy, train_labels, 5, 2);
  g_autoptr(LatentDataset) test = points ("test", test_xy, test_labels, 3, 2);
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "episodes=0", NULL);
  g_autoptr(LatentSnapshot) snap = NULL;
  g_autoptr(GError) error = NULL;

  latent_dataset_set_test (train, test, &error);
  g_assert_no_error (error);
  snap = fit (train, params, 1);
  g_assert_cmpuint (snap->iteration, ==, 0);
  g_assert_true (snap->converged && snap->final);
  g_assert_cmpuint (snap->classifier.n_classes, ==, 2);
  g_assert_cmpuint (snap->classifier.n_classes, ==, 2);
  g_assert_cmpmem (snap->classifier.means, 4 * sizeof (float), ((float[]) { 1, 0, 10, 11 }), 4 * sizeof (float));
  g_assert_null (snap->classifier.class_bias);
  g_assert_true (snap->classifier.test_dataset == test);
  g_assert_cmpuint (snap->classifier.n_test, ==, 3);
  g_assert_cmpmem (snap->classifier.test_predictions, 3 * sizeof (gint32), ((gint32[]) { 0, 1, 1 }), 3 * sizeof (gint32));
  g_assert_cmpfloat_with_epsilon (snap->classifier.test_accuracy, 2.0 / 3, 1e-12);
  g_assert_cmpfloat_with_epsilon (snap->classifier.train_accuracy, 1.0, 1e-12);
  g_assert_cmpmem (snap->classifier.confusion, 4 * sizeof (guint), ((guint[]) { 1, 1, 0, 1 }), 4 * sizeof (guint));
  g_assert_cmpuint (snap->classifier.n_episodes, ==, 0);
  /* Before any episode there is no mean episode accuracy: the test
   * accuracy above is not one (issue 34, 3b.5). */
  g_assert_true (isnan (snap->objective));
}

/* Means (1, 0) and (10, 10). (3, 3) is nearer (1, 0) but points along
 * (10, 10); (20, 1) is nearer (10, 10) but points along (1, 0). */
static void
test_cosine (void)
{
  const float train_xy[] = { 0.5f, 0, 1.5f, 0, 10, 10 };
  const gint32 train_labels[] = { 0, 0, 1 };
  const float test_xy[] = { 3, 3, 20, 1, 0, 5 };
  const gint32 test_labels[] = { 0, 1, 1 };
  g_autoptr(LatentDataset) train = points ("train", train_xy, train_labels, 3, 2);
  g_autoptr(LatentDataset) test = points ("test", test_xy, test_labels, 3, 2);
  g_autoptr(LatentParams) euclidean = test_params (latent_prototype_get_algorithm (), "episodes=0", "distance=euclidean", NULL);
  g_autoptr(LatentParams) cosine = test_params (latent_prototype_get_algorithm (), "episodes=0", "distance=cosine", NULL);
  g_autoptr(LatentSnapshot) e = NULL;
  g_autoptr(LatentSnapshot) c = NULL;

  g_assert_true (latent_dataset_set_test (train, test, NULL));
  e = fit (train, euclidean, 1);
  c = fit (train, cosine, 1);
  /* The same prototypes; (0, 5): 1 + 25 against 100 + 25, and cosines
   * 0 against 0.71, so class 0 by distance and 1 by angle. */
  g_assert_cmpmem (e->classifier.means, 4 * sizeof (float), c->classifier.means, 4 * sizeof (float));
  g_assert_cmpmem (e->classifier.test_predictions, 3 * sizeof (gint32), ((gint32[]) { 0, 1, 0 }), 3 * sizeof (gint32));
  g_assert_cmpmem (c->classifier.test_predictions, 3 * sizeof (gint32), ((gint32[]) { 1, 0, 1 }), 3 * sizeof (gint32));
  /* What the decision-region figure scores by. */
  g_assert_false (e->classifier.cosine);
  g_assert_true (c->classifier.cosine);
}

/* Two classes with the same mean: every row ties, and goes to the lower
 * class, with either distance. */
static void
test_ties (void)
{
  const float train_xy[] = { 0, 0, 2, 2, 2, 0, 0, 2 };
  const gint32 train_labels[] = { 1, 1, 0, 0 };
  const float test_xy[] = { 5, 1, -3, 4 };
  const gint32 test_labels[] = { 1, 1 };
  g_autoptr(LatentDataset) train = points ("train", train_xy, train_labels, 4, 2);
  g_autoptr(LatentDataset) test = points ("test", test_xy, test_labels, 2, 2);
  const char *distances[] = { "distance=euclidean", "distance=cosine" };

  g_assert_true (latent_dataset_set_test (train, test, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (distances); i++)
    {
      g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "episodes=0", distances[i], NULL);
      g_autoptr(LatentSnapshot) snap = fit (train, params, 1);

      g_assert_cmpmem (snap->classifier.test_predictions, 2 * sizeof (gint32), ((gint32[]) { 0, 0 }), 2 * sizeof (gint32));
    }
}

/* Six overlapping blobs, half the rows held out: 50 test rows a class. */
static LatentDataset *
blobs (void)
{
  return test_blobs (600, 8, 6, 7.0, 5);
}

static void
test_episodes_seeded (void)
{
  g_autoptr(LatentDataset) ds = blobs ();
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=20", NULL);
  g_autoptr(LatentSnapshot) a = fit (ds, params, 3);
  g_autoptr(LatentSnapshot) b = fit (ds, params, 3);
  g_autoptr(LatentSnapshot) other = fit (ds, params, 4);
  const LatentSnapshot *snaps[] = { a, b, other };
  const gint32 *labels = latent_dataset_get_labels (ds);
  guint n_support = 5 * 5, n_queries = 5 * 15;
  gboolean some_wrong = FALSE;

  for (guint s = 0; s < G_N_ELEMENTS (snaps); s++)
    {
      const LatentSnapshot *snap = snaps[s];
      guint right = 0;

      g_assert_cmpuint (snap->iteration, ==, 20);
      g_assert_true (snap->converged);
      g_assert_cmpuint (snap->classifier.n_episodes, ==, 20);
      g_assert_cmpuint (snap->classifier.n_ways, ==, 5);
      g_assert_cmpuint (snap->classifier.n_shots, ==, 5);
      g_assert_cmpuint (snap->classifier.n_queries, ==, n_queries);
      g_assert_nonnull (snap->classifier.episode_prototypes);
      /* Classes ascending and distinct; support and queries of them, all
       * test rows, none twice. */
      for (guint w = 1; w < 5; w++)
        g_assert_cmpint (snap->classifier.episode_classes[w - 1], <, snap->classifier.episode_classes[w]);
      for (guint i = 0; i < n_support; i++)
        g_assert_cmpint (labels[snap->classifier.support_rows[i]], ==, snap->classifier.episode_classes[i / 5]);
      for (guint i = 0; i < n_queries; i++)
        {
          g_assert_cmpint (labels[snap->classifier.query_rows[i]], ==, snap->classifier.episode_classes[i / 15]);
          for (guint j = 0; j < n_support; j++)
            g_assert_cmpint (snap->classifier.query_rows[i], !=, snap->classifier.support_rows[j]);
          for (guint t = 0; t < snap->classifier.n_test; t++)
            if (snap->classifier.test_rows[t] == snap->classifier.query_rows[i])
              break;
            else
              g_assert_cmpuint (t + 1, <, snap->classifier.n_test);
          right += snap->classifier.query_predictions[i] == labels[snap->classifier.query_rows[i]];
        }
      /* The last episode's accuracy is its queries'. */
      g_assert_cmpfloat_with_epsilon (snap->classifier.episode_accuracy[19], (double) right / n_queries, 1e-12);
      some_wrong |= right < n_queries;
      g_assert_cmpfloat_with_epsilon (snap->objective, snap->classifier.episode_mean_accuracy, 1e-12);
    }
  /* The blobs overlap enough for the accuracies to say something. */
  g_assert_true (some_wrong);

  g_assert_cmpmem (a->classifier.episode_accuracy, 20 * sizeof (double), b->classifier.episode_accuracy, 20 * sizeof (double));
  g_assert_cmpmem (a->classifier.support_rows, n_support * sizeof (gint32), b->classifier.support_rows, n_support * sizeof (gint32));
  g_assert_cmpmem (a->classifier.query_rows, n_queries * sizeof (gint32), b->classifier.query_rows, n_queries * sizeof (gint32));
  g_assert_true (memcmp (a->classifier.support_rows, other->classifier.support_rows, n_support * sizeof (gint32)) != 0 ||
                 memcmp (a->classifier.episode_classes, other->classifier.episode_classes, 5 * sizeof (gint32)) != 0);
  g_assert_true (memcmp (a->classifier.episode_accuracy, other->classifier.episode_accuracy, 20 * sizeof (double)) != 0);
}

/* Before its first episode a run has no mean episode accuracy: the
 * window's curve and status showed the all-class test accuracy as
 * episode 0 of that curve (issue 34, 3b.5). */
static void
test_no_episode_yet (void)
{
  const LatentAlgorithm *algorithm = latent_prototype_get_algorithm ();
  g_autoptr(LatentDataset) ds = blobs ();
  g_autoptr(LatentParams) params = test_params (algorithm, "test=0.5", "episodes=3", NULL);
  g_autoptr(LatentSnapshot) before = NULL;
  g_autoptr(LatentSnapshot) after = NULL;
  g_autoptr(GError) error = NULL;
  gpointer state = algorithm->init (ds, params, 3, NULL, NULL, &error);

  g_assert_no_error (error);
  before = algorithm->snapshot (state);
  g_assert_cmpuint (before->classifier.n_episodes, ==, 0);
  g_assert_true (isfinite (before->classifier.test_accuracy));
  g_assert_true (isnan (algorithm->objective (state)));
  g_assert_true (isnan (before->objective));

  g_assert_true (algorithm->step (state, NULL, &error));
  g_assert_no_error (error);
  after = algorithm->snapshot (state);
  g_assert_cmpuint (after->classifier.n_episodes, ==, 1);
  g_assert_cmpfloat_with_epsilon (after->objective, after->classifier.episode_accuracy[0], 1e-12);
  algorithm->free (state);
}

static void
test_interval (void)
{
  g_autoptr(LatentDataset) ds = blobs ();
  g_autoptr(LatentParams) few = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=10", NULL);
  g_autoptr(LatentParams) many = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=400", NULL);
  g_autoptr(LatentSnapshot) a = fit (ds, few, 3);
  g_autoptr(LatentSnapshot) b = fit (ds, many, 3);
  double mean = 0, ss = 0;

  /* An episode depends on the seed and its number only: the first ten of
   * the long run are the short run's. */
  g_assert_cmpmem (a->classifier.episode_accuracy, 10 * sizeof (double), b->classifier.episode_accuracy, 10 * sizeof (double));
  for (guint i = 0; i < 400; i++)
    mean += b->classifier.episode_accuracy[i] / 400;
  for (guint i = 0; i < 400; i++)
    ss += (b->classifier.episode_accuracy[i] - mean) * (b->classifier.episode_accuracy[i] - mean);
  g_assert_cmpfloat_with_epsilon (b->classifier.episode_mean_accuracy, mean, 1e-12);
  g_assert_cmpfloat_with_epsilon (b->classifier.episode_ci95, 1.96 * sqrt (ss / 399) / sqrt (400), 1e-12);
  g_assert_cmpfloat (b->classifier.episode_ci95, >, 0);
  g_test_message ("10 episodes: %.4f ± %.4f; 400: %.4f ± %.4f", a->classifier.episode_mean_accuracy, a->classifier.episode_ci95,
                  b->classifier.episode_mean_accuracy, b->classifier.episode_ci95);
  g_assert_cmpfloat (b->classifier.episode_ci95, <, a->classifier.episode_ci95 / 3);
}

/* The mean and interval are kept as running sums (issue 35, 5): after
 * every one of N episodes they are what the episodes so far give when
 * summed directly, to rounding. */
static void
test_running_interval (void)
{
  enum { N = 300 };
  const LatentAlgorithm *algorithm = latent_prototype_get_algorithm ();
  g_autoptr(LatentDataset) ds = blobs ();
  g_autoptr(LatentParams) params = test_params (algorithm, "test=0.5", "episodes=300", NULL);
  g_autoptr(GError) error = NULL;
  gpointer state = algorithm->init (ds, params, 5, NULL, NULL, &error);

  g_assert_no_error (error);
  for (guint n = 1; n <= N; n++)
    {
      g_autoptr(LatentSnapshot) snap = NULL;
      double mean = 0, ss = 0;

      g_assert_true (algorithm->step (state, NULL, &error));
      g_assert_no_error (error);
      snap = algorithm->snapshot (state);
      g_assert_cmpuint (snap->classifier.n_episodes, ==, n);
      for (guint i = 0; i < n; i++)
        mean += snap->classifier.episode_accuracy[i];
      mean /= n;
      for (guint i = 0; i < n; i++)
        ss += (snap->classifier.episode_accuracy[i] - mean) * (snap->classifier.episode_accuracy[i] - mean);
      g_assert_cmpfloat_with_epsilon (snap->classifier.episode_mean_accuracy, mean, 1e-12);
      if (n == 1)
        g_assert_true (isnan (snap->classifier.episode_ci95));
      else
        g_assert_cmpfloat_with_epsilon (snap->classifier.episode_ci95, 1.96 * sqrt (ss / (n - 1)) / sqrt (n), 1e-12);
    }
  g_assert_true (algorithm->converged (state));
  algorithm->free (state);
}

static void
test_too_few_classes (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (600, 8, 3, 7.0, 5);
  g_autoptr(LatentParams) lowered = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=3", "ways=5", NULL);
  g_autoptr(LatentParams) fewer_queries = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=3", "shots=50", "queries=60", NULL);
  g_autoptr(LatentParams) refused = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=3", "shots=120", NULL);
  g_autoptr(LatentParams) no_episodes = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=0", "shots=120", NULL);
  g_autoptr(LatentSnapshot) snap = fit (ds, lowered, 2);
  g_autoptr(LatentSnapshot) short_queries = fit (ds, fewer_queries, 2);
  g_autoptr(LatentSnapshot) plain = NULL;
  g_autoptr(GError) error = NULL;
  const gint32 *labels = latent_dataset_get_labels (ds);
  guint smallest = G_MAXUINT;
  gpointer state;

  /* Three classes for five ways: lowered to three, and said so. */
  g_assert_cmpuint (snap->classifier.n_ways, ==, 3);
  g_assert_cmpuint (snap->classifier.n_queries, ==, 3 * 15);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "ways = 5 lowered to 3: the data has 3 classes."));
  g_assert_null (strstr (snap->message, "queries"));

  /* About 100 test rows a class for 50 + 60: the queries are what is left
   * of the smallest class after its shots. */
  for (guint c = 0; c < 3; c++)
    {
      guint count = 0;

      for (guint i = 0; i < short_queries->classifier.n_test; i++)
        count += labels[short_queries->classifier.test_rows[i]] == (gint32) c;
      smallest = MIN (smallest, count);
    }
  g_assert_cmpuint (smallest, <, 110);
  g_assert_cmpuint (short_queries->classifier.n_queries, ==, 3 * (smallest - 50));
  {
    g_autofree char *said = g_strdup_printf ("queries = 60 lowered to %u: the smallest class in the episodes "
                                             "has %u test rows, 50 of them shots.", smallest - 50, smallest);

    /* Default ways = 5 were lowered too: both notes, ways first. */
    g_assert_true (g_str_has_prefix (short_queries->message, "ways = 5 lowered to 3"));
    g_assert_nonnull (strstr (short_queries->message, said));
  }

  /* No class has more than 120 test rows: refused, naming shots. */
  state = latent_prototype_get_algorithm ()->init (ds, refused, 2, NULL, NULL, &error);
  g_assert_null (state);
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "shots = 120"));
  g_assert_nonnull (strstr (error->message, "episodes = 0"));

  /* Without episodes the same shape is no matter. */
  plain = fit (ds, no_episodes, 2);
  g_assert_cmpuint (plain->classifier.n_episodes, ==, 0);
  g_assert_null (plain->message);
}

/* A fourth class of 8 rows has at most 5 test rows of its own, no more
 * than shots: four ways are three, and the note says it is for want of
 * rows, not of classes. */
static void
test_small_class (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (600, 8, 3, 7.0, 5);
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=3",
                                                "ways=4", "shots=5", NULL);
  g_autoptr(LatentSnapshot) snap = NULL;
  g_autofree gint32 *labels = g_memdup2 (latent_dataset_get_labels (ds), 600 * sizeof (gint32));

  for (guint i = 0; i < 8; i++)
    labels[i * 75] = 3;
  latent_dataset_set_labels (ds, labels, 4, NULL);
  snap = fit (ds, params, 2);
  g_assert_cmpuint (snap->classifier.n_ways, ==, 3);
  g_assert_nonnull (snap->message);
  g_assert_nonnull (strstr (snap->message, "ways = 4 lowered to 3: only 3 classes have more test rows than shots = 5."));
}

static void
test_unlabelled (void)
{
  g_autoptr(LatentDataset) ds = latent_dataset_new ("bare", 10, 2, NULL);
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "episodes=0", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (latent_prototype_get_algorithm ()->init (ds, params, 1, NULL, NULL, &error));
  g_assert_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER);
  g_assert_nonnull (strstr (error->message, "no labels"));
}

/* The result: the common classifier members and the prototype's own. */
static void
test_json (void)
{
  g_autoptr(LatentDataset) ds = blobs ();
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "test=0.5", "episodes=4", "distance=cosine", NULL);
  g_autoptr(LatentSnapshot) snap = fit (ds, params, 3);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o;

  json_builder_begin_object (b);
  snap->algorithm->write_json (snap, b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "distance"), ==, "cosine");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "prototypes")), ==, 6);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "test_predictions")), ==, 300);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "episode_accuracy")), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "episodes"), ==, 4);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "episode_mean_accuracy"),
                                  snap->classifier.episode_mean_accuracy, 1e-12);
  g_assert_true (json_object_has_member (o, "confusion"));
  g_assert_true (json_object_has_member (o, "test_accuracy"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "query_rows")), ==, 75);
  g_assert_cmpint (json_object_get_int_member (o, "ways"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (o, "queries"), ==, 15);
}

/* The dot product and the attention by hand. */
static void
test_attention (void)
{
  const float x[] = { 1, 2 }, support[] = { 1, 0, 0, 1, 3, 3, -1, 0 };
  double scores[4], weight, runner_up;

  latent_prototype_scores (x, 2, support, 4, LATENT_PROTOTYPE_DOT, scores);
  g_assert_cmpfloat (scores[0], ==, 1);
  g_assert_cmpfloat (scores[1], ==, 2);
  g_assert_cmpfloat (scores[2], ==, 9);
  g_assert_cmpfloat (scores[3], ==, -1);
  /* Two classes of two rows: class 1 holds the row of score 9. */
  g_assert_cmpuint (latent_prototype_attend (scores, 2, 2, &weight, &runner_up), ==, 1);
  g_assert_cmpfloat (fabs (weight - (exp (9) + exp (-1)) / (exp (1) + exp (2) + exp (9) + exp (-1))), <, 1e-12);
  g_assert_cmpfloat (fabs (weight + runner_up - 1), <, 1e-12);
  /* Equal attention: the lower class. */
  scores[0] = scores[1] = scores[2] = scores[3] = 0.5;
  g_assert_cmpuint (latent_prototype_attend (scores, 2, 2, &weight, &runner_up), ==, 0);
}

/* With one example per class the attention's largest share is the
 * nearest example, which is the class mean: the same episodes. */
static void
test_one_shot_matching (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (600, 6, 5, 5.0, 8);

  for (guint d = 0; d < 2; d++)
    {
      const char *distance = d ? "distance=cosine" : "distance=euclidean";
      g_autoptr(LatentParams) a = test_params (latent_prototype_get_algorithm (), "shots=1", "episodes=20", distance,
                                               NULL);
      g_autoptr(LatentParams) b = test_params (latent_prototype_get_algorithm (), "shots=1", "episodes=20", distance,
                                               "classifier=matching", NULL);
      g_autoptr(LatentSnapshot) means = fit (ds, a, 4);
      g_autoptr(LatentSnapshot) matching = fit (ds, b, 4);

      g_assert_cmpmem (means->classifier.episode_accuracy, 20 * sizeof (double),
                       matching->classifier.episode_accuracy, 20 * sizeof (double));
      g_assert_cmpfloat (means->classifier.episode_mean_accuracy, <, 1.0);
    }
}

/* Two classes a line apart: logistic regression on four rows of each gets
 * every query right. */
static void
test_support_lr (void)
{
  const float x[] = { 0, 0, 1, 0, 0, 1, 1, 1, 4, 4, 5, 4, 4, 5, 5, 5 };
  const gint32 y[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
  const float q[] = { 0.5, 0.5, 4.5, 4.5, 1.5, 1.2, 3.8, 4.1 };
  gint32 predicted[4];

  latent_prototype_support_lr (x, y, 8, 2, 2, q, 4, predicted);
  g_assert_cmpint (predicted[0], ==, 0);
  g_assert_cmpint (predicted[1], ==, 1);
  g_assert_cmpint (predicted[2], ==, 0);
  g_assert_cmpint (predicted[3], ==, 1);
}

/* The curve: five sizes, three methods, each better with 20 examples than
 * with one; without it the snapshot has none. */
static void
test_curve (void)
{
  g_autoptr(LatentDataset) ds = test_blobs (2000, 8, 5, 6.0, 9);
  g_autoptr(LatentParams) params = test_params (latent_prototype_get_algorithm (), "curve=true", "episodes=10", NULL);
  g_autoptr(LatentParams) plain = test_params (latent_prototype_get_algorithm (), "episodes=3", NULL);
  g_autoptr(LatentSnapshot) snap = fit (ds, params, 2);
  g_autoptr(LatentSnapshot) none = fit (ds, plain, 2);

  g_assert_cmpuint (snap->classifier.n_curve_shots, ==, 5);
  g_assert_cmpuint (snap->classifier.curve_shots[4], ==, 20);
  for (guint m = 0; m < 3; m++)
    {
      g_assert_cmpfloat (snap->classifier.curve_accuracy[m * 5 + 4], >, snap->classifier.curve_accuracy[m * 5]);
      g_assert_true (isfinite (snap->classifier.curve_ci95[m * 5 + 2]));
    }
  /* The episodes' own accuracy is the class means' at their 5 shots. */
  g_assert_cmpfloat (fabs (snap->classifier.episode_mean_accuracy - snap->classifier.curve_accuracy[2]), <, 1e-12);
  g_assert_cmpuint (none->classifier.n_curve_shots, ==, 0);
  g_assert_null (none->classifier.curve_accuracy);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/prototype/class-means", test_class_means);
  g_test_add_func ("/prototype/cosine", test_cosine);
  g_test_add_func ("/prototype/ties", test_ties);
  g_test_add_func ("/prototype/episodes-seeded", test_episodes_seeded);
  g_test_add_func ("/prototype/interval", test_interval);
  g_test_add_func ("/prototype/running-interval", test_running_interval);
  g_test_add_func ("/prototype/no-episode-yet", test_no_episode_yet);
  g_test_add_func ("/prototype/too-few-classes", test_too_few_classes);
  g_test_add_func ("/prototype/small-class", test_small_class);
  g_test_add_func ("/prototype/unlabelled", test_unlabelled);
  g_test_add_func ("/prototype/json", test_json);
  g_test_add_func ("/prototype/attention", test_attention);
  g_test_add_func ("/prototype/one-shot-matching", test_one_shot_matching);
  g_test_add_func ("/prototype/support-lr", test_support_lr);
  g_test_add_func ("/prototype/curve", test_curve);
  return g_test_run ();
}
