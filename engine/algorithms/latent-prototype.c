/* latent-prototype.c — the nearest-prototype classifier: parameters, the
 * nearest class mean, few-shot episodes, snapshots and results
 *
 * Initialisation is the whole of the nearest class mean (scikit-learn's
 * NearestCentroid): each class's prototype is the mean of its training
 * rows, and a row is predicted to be of the class of the nearest prototype.
 * A step is one few-shot episode (Snell et al.'s prototypical evaluation
 * without the learned embedding): N classes drawn among those with enough
 * test rows, K labelled rows of each (the support) whose means are the
 * episode's prototypes, and Q more rows of each (the queries) classified
 * among those N. The run reports the mean accuracy over episodes and its
 * 95 % interval. The two paths (means and scores) are
 * latent-prototype-reference.c and latent-prototype-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-prototype"

#include "latent-prototype.h"
#include "latent-prototype-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latent-classifiers.h"
#include "latent-json.h"

#define CPU_REFERENCE N_("CPU reference")
/* Tags the episodes' random stream apart from the split's, which is drawn
 * from the same seed. */
#define EPISODE_STREAM 0x45504953u   /* "EPIS" */

static const char * const distance_choices[] = { "euclidean", "cosine", "dot", NULL };
static const char * const distance_labels[] = { N_("Euclidean"), N_("Cosine"), N_("Dot product"), NULL };

static const char * const classifier_choices[] = { "prototypes", "matching", NULL };
static const char * const classifier_labels[] = { N_("Class means"), N_("Matching network"), NULL };

const guint latent_prototype_curve_shots[LATENT_PROTOTYPE_CURVE_SHOTS] = { 1, 2, 5, 10, 20 };

/* The parameters, read once (latent_params_read). */
typedef struct {
  const char *classifier;
  const char *distance;
  gint64      ways;
  gint64      shots;
  gint64      queries;
  gint64      episodes;
  gboolean    curve;
  double      test;
} PrototypeParams;

/* Euclidean by default: it is scikit-learn's NearestCentroid, and Snell et
 * al. found it better than cosine for prototypes that are class means. */
static const LatentParamSpec prototype_params[] = {
  { .name = "classifier", LATENT_PARAM_CHOICE_AT (PrototypeParams, classifier),
    .label = N_("Episode classifier"),
    .tooltip = N_("How an episode classifies its queries: by the nearest class mean of the support rows "
                  "(prototypical networks), or by attention over every support row, a softmax of the "
                  "query's similarity to each, summed by class (matching networks)"),
    .default_choice = "prototypes",
    .choices = classifier_choices,
    .choice_labels = classifier_labels },
  { .name = "distance", LATENT_PARAM_CHOICE_AT (PrototypeParams, distance),
    .label = N_("Distance"),
    .tooltip = N_("Euclidean: the nearest class mean. Cosine: the class mean at the smallest angle, "
                  "whatever the lengths of the rows. Dot product: the largest x · p, which favours long "
                  "prototypes (matching networks' other similarity)"),
    .default_choice = "euclidean",
    .choices = distance_choices,
    .choice_labels = distance_labels },
  { .name = "ways", LATENT_PARAM_INT_AT (PrototypeParams, ways),
    .label = N_("Classes per episode"),
    .tooltip = N_("N of an N-way episode: how many classes each episode draws; no more than the classes "
                  "that have enough test rows"),
    .min = 2, .max = 10000, .default_value = 5 },
  { .name = "shots", LATENT_PARAM_INT_AT (PrototypeParams, shots),
    .label = N_("Examples per class"),
    .tooltip = N_("K of a K-shot episode: the labelled rows of each class whose mean is its prototype"),
    .min = 1, .max = 100000, .default_value = 5 },
  { .name = "queries", LATENT_PARAM_INT_AT (PrototypeParams, queries),
    .label = N_("Queries per class"),
    .tooltip = N_("The rows of each class an episode classifies with its prototypes"),
    .min = 1, .max = 100000, .default_value = 15 },
  { .name = "episodes", LATENT_PARAM_INT_AT (PrototypeParams, episodes),
    .label = N_("Episodes"),
    .tooltip = N_("Few-shot episodes drawn from the test rows, one a step; 0 runs the nearest class mean only"),
    .min = 0, .max = 1000000, .default_value = 100,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPISODES },
  { .name = "curve", LATENT_PARAM_BOOL_AT (PrototypeParams, curve),
    .label = N_("Shots curve"),
    .tooltip = N_("Every episode also classifies its queries from 1, 2, 5, 10 and 20 examples per class, "
                  "by the class means, by matching networks' attention and by logistic regression trained "
                  "on those examples: accuracy against the number of examples (needs 20 more test rows "
                  "per class than queries)"),
    .default_value = FALSE },
  { .name = "test", LATENT_PARAM_DOUBLE_AT (PrototypeParams, test),
    .label = N_("Test share"),
    .tooltip = N_("The share of the rows held out to test on, when the data has no test set of its own"),
    .min = 0, .max = 1, .default_value = 0.2,
    .role = LATENT_PARAM_ROLE_HELD_OUT },
};

static const LatentAlgorithm prototype_algorithm;

static void
prototype_free (gpointer data)
{
  LatentPrototype *self = data;

  if (self == NULL)
    return;
  g_clear_pointer (&self->pcl, latent_prototype_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->split, latent_split_free);
  g_clear_pointer (&self->episode_accuracy, g_array_unref);
  g_free (self->present);
  g_free (self->prototypes);
  g_free (self->test_predictions);
  g_free (self->by_class);
  g_free (self->class_start);
  g_free (self->eligible);
  g_free (self->episode_classes);
  g_free (self->support_rows);
  g_free (self->episode_prototypes);
  g_free (self->query_rows);
  g_free (self->query_predictions);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->note);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentPrototype, prototype_free)

/* The darktable policy: the run goes on from where it is on the reference
 * path, and says so. Nothing lives only on the device, so nothing is lost. */
static void
fall_back (LatentPrototype *self,
           const GError    *error)
{
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->pcl, latent_prototype_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

/* A failure on the device other than a cancel moves the run to the
 * reference path; FALSE only for a cancel, which goes to @error. */
static gboolean
survive (LatentPrototype  *self,
         GError          **local_error,
         GError          **error)
{
  if (g_error_matches (*local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (local_error));
      return FALSE;
    }
  fall_back (self, *local_error);
  g_clear_error (local_error);
  return TRUE;
}

static gboolean
compute_means (LatentPrototype  *self,
               LatentDataset    *dataset,
               const gint32     *rows,
               const gint32     *slots,
               guint             n,
               guint             n_slots,
               float            *means,
               GCancellable     *cancellable,
               GError          **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->pcl &&
      !latent_prototype_cl_means (self->pcl, dataset, rows, slots, n, n_slots, means, cancellable, &local_error) &&
      !survive (self, &local_error, error))
    return FALSE;
  if (self->pcl == NULL)
    latent_prototype_reference_means (dataset, rows, slots, n, n_slots, means);
  return TRUE;
}

static gboolean
classify (LatentPrototype  *self,
          LatentDataset    *dataset,
          const gint32     *rows,
          guint             n,
          const float      *prototypes,
          guint             n_slots,
          gint32           *slot_of_row,
          GCancellable     *cancellable,
          GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  guint rechecked = 0;

  if (self->pcl &&
      !latent_prototype_cl_classify (self->pcl, dataset, rows, n, prototypes, n_slots, slot_of_row,
                                     &rechecked, cancellable, &local_error) &&
      !survive (self, &local_error, error))
    return FALSE;
  if (self->pcl == NULL)
    latent_prototype_reference_classify (dataset, rows, n, prototypes, n_slots, self->distance, slot_of_row);
  else if (rechecked > 0)
    g_debug ("%u of %u rows were close calls, decided in double", rechecked, n);
  return TRUE;
}

static int
compare_descending (const void *a,
                    const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x < y) - (x > y);
}

/* The test rows class by class, and the classes with enough of them for
 * an episode; lowers ways, then queries (with a note) to what the test
 * rows allow, and refuses when not even two classes have more rows than
 * shots (an episode of one class has nothing to tell apart). */
static gboolean
prepare_episodes (LatentPrototype  *self,
                  GError          **error)
{
  const LatentSplit *split = self->split;
  const gint32 *labels = latent_dataset_get_labels (split->test);
  g_autofree guint *fill = g_new0 (guint, self->n_classes);
  g_autofree guint *sorted = g_new0 (guint, self->n_classes);
  guint ways, queries, need;

  self->class_start = g_new0 (guint, self->n_classes + 1);
  for (guint i = 0; i < split->n_test; i++)
    self->class_start[labels[split->test_rows[i]] + 1]++;
  for (guint c = 0; c < self->n_classes; c++)
    self->class_start[c + 1] += self->class_start[c];
  self->by_class = g_new (gint32, MAX (split->n_test, 1u));
  for (guint i = 0; i < split->n_test; i++)
    {
      gint32 c = labels[split->test_rows[i]];

      self->by_class[self->class_start[c] + fill[c]++] = split->test_rows[i];
    }
  /* Small test data (Iris holds out 10 rows a class) still has episodes:
   * fewer ways, then fewer queries, as many as the classes' rows allow. */
  for (guint c = 0; c < self->n_classes; c++)
    sorted[c] = self->class_start[c + 1] - self->class_start[c];
  qsort (sorted, self->n_classes, sizeof (guint), compare_descending);
  ways = MIN (self->ways, self->n_classes);
  while (ways >= 2 && sorted[ways - 1] <= self->pool_shots)
    ways--;
  if (self->episodes > 0 && ways < 2)
    {
      /* Translators: shots, the test data's name, the test rows of its
       * second-largest class. */
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("shots = %u: an episode needs two classes with more test rows than that, "
                     "but in “%s” the second largest has %u; lower shots, or set episodes = 0"),
                   self->pool_shots, latent_dataset_get_name (split->test), self->n_classes > 1 ? sorted[1] : 0);
      return FALSE;
    }
  queries = ways >= 2 ? MIN (self->queries, sorted[ways - 1] - self->pool_shots) : self->queries;
  if (self->episodes > 0 && ways < self->ways)
    {
      g_autofree char *why = ways == self->n_classes
        /* Translators: the number of classes in the data. */
        ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the data has %u class",
                                        "the data has %u classes", ways), ways)
        /* Translators: a number of classes, then shots. */
        : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "only %u class has more test rows than shots = %u",
                                        "only %u classes have more test rows than shots = %u", ways),
                           ways, self->pool_shots);

      /* Translators: ways as asked, as run, then why. */
      self->note = g_strdup_printf (_("ways = %u lowered to %u: %s. "), self->ways, ways, why);
      self->ways = ways;
    }
  if (self->episodes > 0 && queries < self->queries)
    {
      g_autofree char *before = g_steal_pointer (&self->note);

      /* Translators: queries as asked, as run, the test rows of the smallest
       * class in the episodes, shots; then any note before. */
      self->note = g_strdup_printf (_("%squeries = %u lowered to %u: the smallest class in the episodes "
                                      "has %u test rows, %u of them shots. "),
                                    before ? before : "", self->queries, queries,
                                    sorted[ways - 1], self->pool_shots);
      self->queries = queries;
    }
  need = self->pool_shots + self->queries;
  self->eligible = g_new (gint32, self->n_classes);
  for (guint c = 0; c < self->n_classes; c++)
    if (self->class_start[c + 1] - self->class_start[c] >= need)
      self->eligible[self->n_eligible++] = c;
  return TRUE;
}

/* The nearest class mean: prototypes from every training row, then the
 * predictions for the test rows and the accuracy on the training rows. */
static gboolean
fit (LatentPrototype  *self,
     GError          **error)
{
  const LatentSplit *split = self->split;
  const gint32 *train_labels = latent_dataset_get_labels (split->train);
  const guint d = self->d;
  g_autofree gint32 *slot_of_class = g_new (gint32, self->n_classes);
  g_autofree gint32 *slots = g_new (gint32, split->n_train);
  g_autofree guint *counts = g_new0 (guint, self->n_classes);
  g_autofree float *means = NULL;
  g_autofree gint32 *train_slots = g_new (gint32, split->n_train);
  g_autofree gint32 *train_predictions = g_new (gint32, split->n_train);
  g_autoptr(GString) absent = g_string_new (NULL);
  g_autoptr(LatentRows) rows = NULL;
  gint64 t0, t1, t2;

  for (guint i = 0; i < split->n_train; i++)
    counts[train_labels[split->train_rows[i]]]++;
  self->present = g_new (gint32, self->n_classes);
  for (guint c = 0; c < self->n_classes; c++)
    {
      slot_of_class[c] = counts[c] ? (gint32) self->n_present : -1;
      if (counts[c])
        self->present[self->n_present++] = c;
      else
        {
          const char *name = latent_dataset_get_class_name (split->train, c);

          if (absent->len)
            g_string_append (absent, ", ");
          if (name)
            g_string_append (absent, name);
          else
            g_string_append_printf (absent, "%u", c);
        }
    }
  if (absent->len)
    {
      g_autofree char *old = g_steal_pointer (&self->note);

      /* Translators: class names or numbers, "2, 5". */
      self->note = g_strdup_printf (_("No training rows of class %s: never predicted. %s"),
                                    absent->str, old ? old : "");
    }
  for (guint i = 0; i < split->n_train; i++)
    slots[i] = slot_of_class[train_labels[split->train_rows[i]]];

  means = g_new (float, (gsize) self->n_present * d);
  t0 = g_get_monotonic_time ();
  /* The class means are a pass over the training dataset's rows, in the
   * chunks its source gives; the device takes them from its own copy of
   * every row, which only one chunk of them all matches. In chunks, the
   * run stays on the host. */
  rows = latent_algorithm_new_rows (split->train);
  if (self->pcl != NULL && !latent_rows_is_whole (rows, split->train))
    {
      g_clear_pointer (&self->pcl, latent_prototype_cl_free);
      g_clear_object (&self->runtime);
      g_free (self->device);
      self->device = g_strdup (_(CPU_REFERENCE));
    }
  if (self->pcl != NULL)
    {
      if (!compute_means (self, split->train, split->train_rows, slots, split->n_train, self->n_present,
                          means, NULL, error))
        return FALSE;
    }
  else
    {
      g_autofree gint32 *slot_of_row = g_new (gint32, latent_rows_get_n_rows (rows));

      for (guint r = 0; r < latent_rows_get_n_rows (rows); r++)
        slot_of_row[r] = -1;
      for (guint i = 0; i < split->n_train; i++)
        slot_of_row[split->train_rows[i]] = slots[i];
      if (!latent_prototype_reference_means_rows (rows, slot_of_row, self->n_present, means, NULL, error))
        return FALSE;
    }
  self->prototypes = g_new0 (float, (gsize) self->n_classes * d);
  for (guint s = 0; s < self->n_present; s++)
    memcpy (self->prototypes + (gsize) self->present[s] * d, means + (gsize) s * d, d * sizeof (float));

  self->test_predictions = g_new (gint32, MAX (split->n_test, 1u));
  t1 = g_get_monotonic_time ();
  if (!classify (self, split->test, split->test_rows, split->n_test, means, self->n_present,
                 self->test_predictions, NULL, error))
    return FALSE;
  t2 = g_get_monotonic_time ();
  if (!classify (self, split->train, split->train_rows, split->n_train, means, self->n_present,
                 train_slots, NULL, error))
    return FALSE;
  g_debug ("%s: class means of %u rows %.1f ms, %u test rows %.1f ms, %u training rows %.1f ms",
           self->device, split->n_train, (t1 - t0) / 1e3, split->n_test, (t2 - t1) / 1e3,
           split->n_train, (g_get_monotonic_time () - t2) / 1e3);
  for (guint i = 0; i < split->n_test; i++)
    self->test_predictions[i] = self->present[self->test_predictions[i]];
  for (guint i = 0; i < split->n_train; i++)
    train_predictions[i] = self->present[train_slots[i]];
  self->test_accuracy = latent_classify_accuracy (split->test, split->test_rows, self->test_predictions,
                                                  split->n_test);
  self->train_accuracy = latent_classify_accuracy (split->train, split->train_rows, train_predictions,
                                                   split->n_train);
  return TRUE;
}

static gpointer
prototype_init (LatentDataset  *dataset,
                LatentParams   *params,
                guint64         seed,
                LatentCl       *cl,
                GCancellable   *cancellable,
                GError        **error)
{
  g_autoptr(LatentPrototype) self = g_new0 (LatentPrototype, 1);
  g_autoptr(GError) local_error = NULL;
  PrototypeParams p;

  latent_params_read (params, &p);
  self->algorithm = &prototype_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  if (!(self->split = latent_split_new (dataset, p.test, seed, error)))
    return NULL;
  self->d = latent_dataset_get_n_cols (dataset);
  self->n_classes = self->split->n_classes;
  self->distance = g_str_equal (p.distance, "cosine") ? LATENT_PROTOTYPE_COSINE
                   : g_str_equal (p.distance, "dot") ? LATENT_PROTOTYPE_DOT : LATENT_PROTOTYPE_EUCLIDEAN;
  self->ways = p.ways;
  self->shots = p.shots;
  self->queries = p.queries;
  self->episodes = p.episodes;
  self->matching = g_str_equal (p.classifier, "matching");
  self->curve = p.curve;
  self->pool_shots = p.curve ? MAX (self->shots, latent_prototype_curve_shots[LATENT_PROTOTYPE_CURVE_SHOTS - 1])
                             : self->shots;
  if (!prepare_episodes (self, error))
    return NULL;
  self->n_curve = self->curve ? LATENT_PROTOTYPE_CURVE_SHOTS : 0;
  self->episode_accuracy = g_array_new (FALSE, FALSE, sizeof (double));
  self->episode_mean = NAN;
  self->episode_ci95 = NAN;

  /* The device holds every row, which a streamed dataset never is. */
  if (cl && !latent_dataset_is_streamed (dataset))
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->pcl = latent_prototype_cl_new (self, cl, &local_error);
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (_(CPU_REFERENCE));

  if (!fit (self, error))
    return NULL;
  self->finished = self->episodes == 0;
  return g_steal_pointer (&self);
}

static int
compare_classes (const void *a,
                 const void *b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;

  return (x > y) - (x < y);
}

/* Episode @index: its classes (ascending), pool_shots support rows of each
 * (the episode's shots are the first of them) and its queries, drawn from a
 * stream of its own (the seed and the index), so an episode is the same
 * whatever the path and whatever ran before it. */
static void
draw_episode (LatentPrototype *self,
              guint            index,
              gint32          *classes,
              gint32          *support,
              gint32          *queries)
{
  const guint32 words[4] = { self->seed & 0xffffffffu, self->seed >> 32, index, EPISODE_STREAM };
  g_autoptr(GRand) rand = g_rand_new_with_seed_array (words, 4);
  g_autofree gint32 *pick = g_memdup2 (self->eligible, self->n_eligible * sizeof (gint32));
  const guint take = self->pool_shots + self->queries;

  /* Partial Fisher–Yates: ways distinct classes, then take rows of each. */
  for (guint w = 0; w < self->ways; w++)
    {
      guint j = g_rand_int_range (rand, w, self->n_eligible);
      gint32 t = pick[w];

      pick[w] = pick[j];
      pick[j] = t;
    }
  memcpy (classes, pick, self->ways * sizeof (gint32));
  qsort (classes, self->ways, sizeof (gint32), compare_classes);
  for (guint w = 0; w < self->ways; w++)
    {
      const guint start = self->class_start[classes[w]];
      const guint count = self->class_start[classes[w] + 1] - start;
      g_autofree gint32 *pool = g_memdup2 (self->by_class + start, count * sizeof (gint32));

      for (guint i = 0; i < take; i++)
        {
          guint j = g_rand_int_range (rand, i, count);
          gint32 t = pool[i];

          pool[i] = pool[j];
          pool[j] = t;
        }
      memcpy (support + (gsize) w * self->pool_shots, pool, self->pool_shots * sizeof (gint32));
      memcpy (queries + (gsize) w * self->queries, pool + self->pool_shots, self->queries * sizeof (gint32));
    }
}

/* The mean of the episodes' accuracies and the half-width of its normal
 * 95 % interval, 1.96 s / √n (NaN for one episode: no spread to tell),
 * with @accuracy the newest. Welford's running mean and sum of squares:
 * going over every past episode at each step made a run of 10⁶ episodes
 * take twenty minutes (issue 35). */
static void
update_interval (LatentPrototype *self,
                 double           accuracy)
{
  const guint n = self->episode_accuracy->len;
  const double before = n > 1 ? self->episode_mean : 0;

  if (n == 1)
    self->episode_m2 = 0;
  self->episode_mean = before + (accuracy - before) / n;
  self->episode_m2 += (accuracy - before) * (accuracy - self->episode_mean);
  self->episode_ci95 = n > 1 ? 1.96 * sqrt (self->episode_m2 / (n - 1)) / sqrt (n) : NAN;
}

/* The first @shots support rows of each class of the pool. */
static void
take_shots (LatentPrototype *self,
            const gint32    *pool,
            guint            shots,
            gint32          *support)
{
  for (guint w = 0; w < self->ways; w++)
    memcpy (support + (gsize) w * shots, pool + (gsize) w * self->pool_shots, shots * sizeof (gint32));
}

/* The rows' values, one after another. */
static float *
gather_rows (LatentDataset *dataset,
             const gint32  *rows,
             guint          n)
{
  const guint d = latent_dataset_get_n_cols (dataset);
  float *x = g_new (float, (gsize) MAX (n, 1u) * d);

  for (guint i = 0; i < n; i++)
    memcpy (x + (gsize) i * d, latent_dataset_get_row (dataset, rows[i]), d * sizeof (float));
  return x;
}

/* Matching networks' prediction (as a slot, the episode's class index) for
 * every query from @shots support rows of each class: every query's score
 * against every support row, on the device or in double, then the
 * attention on the host; where the device's float scores leave the top two
 * classes within LATENT_PROTOTYPE_CLOSE, the query is scored again in
 * double, so both paths decide alike. */
static gboolean
match (LatentPrototype  *self,
       LatentDataset    *dataset,
       const gint32     *support,
       guint             shots,
       const gint32     *queries,
       guint             n_queries,
       gint32           *slot_of_row,
       GCancellable     *cancellable,
       GError          **error)
{
  const guint n_support = self->ways * shots, d = self->d;
  g_autofree float *vectors = gather_rows (dataset, support, n_support);
  g_autofree float *device = g_new (float, (gsize) MAX (n_queries, 1u) * n_support);
  g_autofree double *scores = g_new (double, n_support);
  g_autoptr(GError) local_error = NULL;
  gboolean on_device = self->pcl != NULL;

  if (on_device &&
      !latent_prototype_cl_scores (self->pcl, dataset, queries, n_queries, vectors, n_support, device, cancellable,
                                   &local_error))
    {
      if (!survive (self, &local_error, error))
        return FALSE;
      on_device = FALSE;
    }
  for (guint i = 0; i < n_queries; i++)
    {
      double weight, runner_up;
      gboolean exact = !on_device;

      if (on_device)
        {
          for (guint j = 0; j < n_support; j++)
            scores[j] = device[(gsize) i * n_support + j];
          slot_of_row[i] = latent_prototype_attend (scores, self->ways, shots, &weight, &runner_up);
          exact = weight - runner_up <= LATENT_PROTOTYPE_CLOSE;
        }
      if (exact)
        {
          latent_prototype_scores (latent_dataset_get_row (dataset, queries[i]), d, vectors, n_support,
                                   self->distance, scores);
          slot_of_row[i] = latent_prototype_attend (scores, self->ways, shots, &weight, &runner_up);
        }
    }
  return TRUE;
}

/* The episode's queries from @shots support rows of each class, by the
 * class means or by attention: their slots, and the support's means into
 * @prototypes (ways × d) when not NULL. */
static gboolean
classify_queries (LatentPrototype  *self,
                  gboolean          matching,
                  const gint32     *support,
                  guint             shots,
                  const gint32     *queries,
                  guint             n_queries,
                  gint32           *slot_of_row,
                  float            *prototypes,
                  GCancellable     *cancellable,
                  GError          **error)
{
  LatentDataset *test = self->split->test;
  const guint ways = self->ways, n_support = ways * shots;
  g_autofree gint32 *slots = g_new (gint32, n_support);
  g_autofree float *means = prototypes ? NULL : g_new (float, (gsize) ways * self->d);

  for (guint i = 0; i < n_support; i++)
    slots[i] = i / shots;
  /* Attention needs no means, unless the episode figure shows them. */
  if ((!matching || prototypes) &&
      !compute_means (self, test, support, slots, n_support, ways, prototypes ? prototypes : means, cancellable,
                      error))
    return FALSE;
  return matching ? match (self, test, support, shots, queries, n_queries, slot_of_row, cancellable, error)
                  : classify (self, test, queries, n_queries, prototypes ? prototypes : means, ways, slot_of_row,
                              cancellable, error);
}

static double
share_right (LatentPrototype *self,
             const gint32    *classes,
             const gint32    *queries,
             const gint32    *slots,
             guint            n)
{
  const gint32 *labels = latent_dataset_get_labels (self->split->test);
  guint right = 0;

  for (guint i = 0; i < n; i++)
    right += classes[slots[i]] == labels[queries[i]];
  return n ? (double) right / n : NAN;
}

/* One episode's points of the shots curve: for each support size that
 * fits, the share of the queries each method gets right, into the running
 * means. */
static gboolean
add_to_curve (LatentPrototype  *self,
              const gint32     *classes,
              const gint32     *pool,
              const gint32     *queries,
              guint             n_queries,
              GCancellable     *cancellable,
              GError          **error)
{
  LatentDataset *test = self->split->test;
  const guint n = self->episode_accuracy->len;
  g_autofree gint32 *slots = g_new (gint32, n_queries);
  g_autofree gint32 *support = g_new (gint32, (gsize) self->ways * self->pool_shots);
  g_autofree gint32 *y = g_new (gint32, (gsize) self->ways * self->pool_shots);
  g_autofree float *q = gather_rows (test, queries, n_queries);

  for (guint k = 0; k < self->n_curve; k++)
    {
      const guint shots = latent_prototype_curve_shots[k], n_support = self->ways * shots;
      double accuracy[LATENT_PROTOTYPE_CURVE_METHODS];
      g_autofree float *x = NULL;

      take_shots (self, pool, shots, support);
      for (guint m = 0; m < 2; m++)
        {
          if (!classify_queries (self, m == 1, support, shots, queries, n_queries, slots, NULL, cancellable, error))
            return FALSE;
          accuracy[m] = share_right (self, classes, queries, slots, n_queries);
        }
      x = gather_rows (test, support, n_support);
      for (guint i = 0; i < n_support; i++)
        y[i] = i / shots;
      latent_prototype_support_lr (x, y, n_support, self->d, self->ways, q, n_queries, slots);
      accuracy[2] = share_right (self, classes, queries, slots, n_queries);
      for (guint m = 0; m < LATENT_PROTOTYPE_CURVE_METHODS; m++)
        {
          const guint at = m * LATENT_PROTOTYPE_CURVE_SHOTS + k;
          const double before = n > 1 ? self->curve_mean[at] : 0;

          if (n == 1)
            self->curve_m2[at] = 0;
          self->curve_mean[at] = before + (accuracy[m] - before) / n;
          self->curve_m2[at] += (accuracy[m] - before) * (accuracy[m] - self->curve_mean[at]);
        }
    }
  return TRUE;
}

static gboolean
prototype_step (gpointer       data,
                GCancellable  *cancellable,
                GError       **error)
{
  LatentPrototype *self = data;
  const guint ways = self->ways, n_support = ways * self->shots, n_queries = ways * self->queries;
  g_autofree gint32 *classes = g_new (gint32, ways);
  g_autofree gint32 *pool = g_new (gint32, (gsize) ways * self->pool_shots);
  g_autofree gint32 *support = g_new (gint32, n_support);
  g_autofree gint32 *queries = g_new (gint32, n_queries);
  g_autofree gint32 *predicted = g_new (gint32, n_queries);
  g_autofree float *prototypes = g_new (float, (gsize) ways * self->d);
  double accuracy;

  g_return_val_if_fail (!self->finished, FALSE);

  draw_episode (self, self->episode_accuracy->len, classes, pool, queries);
  take_shots (self, pool, self->shots, support);
  if (!classify_queries (self, self->matching, support, self->shots, queries, n_queries, predicted, prototypes,
                         cancellable, error))
    return FALSE;
  accuracy = share_right (self, classes, queries, predicted, n_queries);
  for (guint i = 0; i < n_queries; i++)
    predicted[i] = classes[predicted[i]];
  g_array_append_val (self->episode_accuracy, accuracy);
  update_interval (self, accuracy);
  if (self->curve && !add_to_curve (self, classes, pool, queries, n_queries, cancellable, error))
    return FALSE;

  g_free (self->episode_classes);
  self->episode_classes = g_steal_pointer (&classes);
  g_free (self->support_rows);
  self->support_rows = g_steal_pointer (&support);
  g_free (self->episode_prototypes);
  self->episode_prototypes = g_steal_pointer (&prototypes);
  g_free (self->query_rows);
  self->query_rows = g_steal_pointer (&queries);
  g_free (self->query_predictions);
  self->query_predictions = g_steal_pointer (&predicted);
  self->finished = self->episode_accuracy->len >= self->episodes;
  return TRUE;
}

static double
prototype_objective (gpointer data)
{
  LatentPrototype *self = data;

  /* None before the first episode: the test accuracy of every class's mean
   * is another number, and the curve would plot it as episode 0. */
  return self->episode_accuracy->len > 0 ? self->episode_mean : NAN;
}

static gboolean
prototype_converged (gpointer data)
{
  return ((LatentPrototype *) data)->finished;
}

static LatentSnapshot *
prototype_snapshot (gpointer data)
{
  LatentPrototype *self = data;
  LatentSnapshot *snap = latent_snapshot_new (&prototype_algorithm, self->dataset, self->params);
  const guint d = self->d, done = self->episode_accuracy->len;

  snap->seed = self->seed;
  snap->device = g_strdup (self->device);
  snap->iteration = done;
  snap->converged = self->finished;
  snap->final = self->finished;
  snap->objective = prototype_objective (self);
  snap->classifier.cosine = self->distance == LATENT_PROTOTYPE_COSINE;
  snap->classifier.dot_product = self->distance == LATENT_PROTOTYPE_DOT;
  snap->n_rows = latent_dataset_get_n_rows (self->dataset);
  snap->n_cols = d;
  snap->classifier.n_classes = self->n_classes;
  snap->classifier.means = g_memdup2 (self->prototypes, (gsize) self->n_classes * d * sizeof (float));
  latent_classify_judge (snap, self->split, self->test_predictions);
  snap->classifier.train_accuracy = self->train_accuracy;

  snap->classifier.n_episodes = done;
  snap->classifier.episode_mean_accuracy = self->episode_mean;
  snap->classifier.episode_ci95 = self->episode_ci95;
  if (done > 0)
    {
      snap->classifier.episode_accuracy = g_memdup2 (self->episode_accuracy->data, done * sizeof (double));
      snap->classifier.n_ways = self->ways;
      snap->classifier.n_shots = self->shots;
      snap->classifier.n_queries = self->ways * self->queries;
      snap->classifier.episode_classes = g_memdup2 (self->episode_classes, self->ways * sizeof (gint32));
      snap->classifier.support_rows = g_memdup2 (self->support_rows, (gsize) self->ways * self->shots * sizeof (gint32));
      snap->classifier.episode_prototypes = g_memdup2 (self->episode_prototypes, (gsize) self->ways * d * sizeof (float));
      snap->classifier.query_rows = g_memdup2 (self->query_rows, snap->classifier.n_queries * sizeof (gint32));
      snap->classifier.query_predictions = g_memdup2 (self->query_predictions, snap->classifier.n_queries * sizeof (gint32));
    }
  if (self->n_curve > 0 && done > 0)
    {
      const guint k = self->n_curve;

      snap->classifier.n_curve_shots = k;
      snap->classifier.curve_shots = g_memdup2 (latent_prototype_curve_shots, k * sizeof (guint));
      snap->classifier.curve_accuracy = g_new (double, LATENT_PROTOTYPE_CURVE_METHODS * k);
      snap->classifier.curve_ci95 = g_new (double, LATENT_PROTOTYPE_CURVE_METHODS * k);
      for (guint m = 0; m < LATENT_PROTOTYPE_CURVE_METHODS; m++)
        for (guint j = 0; j < k; j++)
          {
            const guint at = m * LATENT_PROTOTYPE_CURVE_SHOTS + j;

            snap->classifier.curve_accuracy[m * k + j] = self->curve_mean[at];
            snap->classifier.curve_ci95[m * k + j] = done > 1 ? 1.96 * sqrt (self->curve_m2[at] / (done - 1)) / sqrt (done)
                                                              : NAN;
          }
    }
  if (self->note || self->fallback)
    snap->message = g_strconcat (self->note ? self->note : "", self->fallback ? self->fallback : "", NULL);
  return snap;
}

static void
prototype_write_json (LatentSnapshot *snap,
                      JsonBuilder    *b)
{
  const LatentClassifierPart *part = &snap->classifier;

  PrototypeParams p;

  latent_params_read (snap->params, &p);
  latent_classifiers_write_json (snap, b);
  json_builder_set_member_name (b, "classifier");
  json_builder_add_string_value (b, p.classifier);
  json_builder_set_member_name (b, "distance");
  json_builder_add_string_value (b, p.distance);
  if (part->n_curve_shots > 0)
    {
      static const char * const methods[] = { "prototypes", "matching", "logistic_regression" };
      const guint k = part->n_curve_shots;

      json_builder_set_member_name (b, "shots_curve");
      json_builder_begin_object (b);
      latent_json_add_uint_vector_member (b, "shots", part->curve_shots, k);
      for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
        {
          g_autofree char *ci = g_strconcat (methods[m], "_ci95", NULL);

          latent_json_add_vector_member (b, methods[m], part->curve_accuracy + m * k, k);
          latent_json_add_vector_member (b, ci, part->curve_ci95 + m * k, k);
        }
      json_builder_end_object (b);
    }
  latent_json_add_matrix_member (b, "prototypes", part->means, part->n_classes, snap->n_cols);

  json_builder_set_member_name (b, "episodes");
  json_builder_add_int_value (b, part->n_episodes);
  latent_json_add_vector_member (b, "episode_accuracy", part->episode_accuracy, part->n_episodes);
  latent_json_add_number_member (b, "episode_mean_accuracy", part->episode_mean_accuracy);
  latent_json_add_number_member (b, "episode_ci95", part->episode_ci95);
  if (part->n_episodes == 0)
    return;
  /* The last episode, as the episode figure shows it. */
  json_builder_set_member_name (b, "ways");
  json_builder_add_int_value (b, part->n_ways);
  json_builder_set_member_name (b, "shots");
  json_builder_add_int_value (b, part->n_shots);
  json_builder_set_member_name (b, "queries");
  json_builder_add_int_value (b, part->n_queries / part->n_ways);
  latent_json_add_int_vector_member (b, "episode_classes", part->episode_classes, part->n_ways);
  latent_json_add_int_vector_member (b, "support_rows", part->support_rows, part->n_ways * part->n_shots);
  latent_json_add_int_vector_member (b, "query_rows", part->query_rows, part->n_queries);
  latent_json_add_int_vector_member (b, "query_predictions", part->query_predictions, part->n_queries);
}

static const char * const prototype_figures[] = { "prototypes", "episode", "curves", "shots", "confusion", NULL };

/* Arithmetic both paths share: latent-prototype-reference.c and latent-prototype-cl.c. */

void
latent_prototype_scores (const float            *x,
                         guint                   d,
                         const float            *prototypes,
                         guint                   n_slots,
                         LatentPrototypeDistance distance,
                         double                 *scores)
{
  double x_norm = 0;

  if (distance == LATENT_PROTOTYPE_COSINE)
    {
      for (guint f = 0; f < d; f++)
        x_norm += (double) x[f] * x[f];
      x_norm = sqrt (x_norm);
    }
  for (guint c = 0; c < n_slots; c++)
    {
      const float *p = prototypes + (gsize) c * d;
      double s = 0, p_norm = 0;

      if (distance == LATENT_PROTOTYPE_DOT)
        {
          for (guint f = 0; f < d; f++)
            s += (double) x[f] * p[f];
          scores[c] = s;
        }
      else if (distance == LATENT_PROTOTYPE_COSINE)
        {
          for (guint f = 0; f < d; f++)
            {
              s += (double) x[f] * p[f];
              p_norm += (double) p[f] * p[f];
            }
          p_norm = sqrt (p_norm);
          /* A zero row or prototype has no direction: no similarity. */
          scores[c] = x_norm > 0 && p_norm > 0 ? s / (x_norm * p_norm) : 0;
        }
      else
        {
          for (guint f = 0; f < d; f++)
            {
              double u = (double) x[f] - p[f];
              s += u * u;
            }
          scores[c] = -s;
        }
    }
}

guint
latent_prototype_attend (const double *scores,
                         guint         ways,
                         guint         shots,
                         double       *weight,
                         double       *runner_up)
{
  const guint n = ways * shots;
  g_autofree double *by_class = g_new0 (double, ways);
  double top = -INFINITY, sum = 0;
  guint best = 0;

  for (guint i = 0; i < n; i++)
    top = MAX (top, scores[i]);
  for (guint i = 0; i < n; i++)
    {
      const double e = exp (scores[i] - top);

      by_class[i / shots] += e;
      sum += e;
    }
  *runner_up = 0;
  for (guint c = 1; c < ways; c++)
    if (by_class[c] > by_class[best])
      best = c;
  for (guint c = 0; c < ways; c++)
    if (c != best)
      *runner_up = MAX (*runner_up, by_class[c] / sum);
  *weight = by_class[best] / sum;
  return best;
}

void
latent_prototype_support_lr (const float  *x,
                             const gint32 *y,
                             guint         n,
                             guint         d,
                             guint         ways,
                             const float  *q,
                             guint         m,
                             gint32       *predicted)
{
  const double l2 = 1e-3;
  const gsize size = (gsize) ways * (d + 1);   /* each class: d weights, then its bias */
  g_autofree double *w = g_new0 (double, size);
  g_autofree double *prev = g_new0 (double, size);
  g_autofree double *look = g_new0 (double, size);
  g_autofree double *grad = g_new (double, size);
  g_autofree double *p = g_new (double, ways);
  double largest = 0, step;

  /* The softmax's curvature is at most ½ a row's squared length (with the
   * bias's 1): a safe step for every iteration. */
  for (guint i = 0; i < n; i++)
    {
      double norm = 1;

      for (guint a = 0; a < d; a++)
        norm += (double) x[(gsize) i * d + a] * x[(gsize) i * d + a];
      largest = MAX (largest, norm);
    }
  step = 1 / (0.5 * largest + l2);
  for (guint t = 1; t <= 100; t++)
    {
      const double mu = (t - 1.0) / (t + 2.0);

      for (gsize k = 0; k < size; k++)
        {
          look[k] = w[k] + mu * (w[k] - prev[k]);
          grad[k] = (k % (d + 1)) < d ? l2 * look[k] : 0;
        }
      for (guint i = 0; i < n; i++)
        {
          const float *xi = x + (gsize) i * d;
          double top = -INFINITY, sum = 0;

          for (guint c = 0; c < ways; c++)
            {
              const double *wc = look + (gsize) c * (d + 1);
              double s = wc[d];

              for (guint a = 0; a < d; a++)
                s += wc[a] * xi[a];
              p[c] = s;
              top = MAX (top, s);
            }
          for (guint c = 0; c < ways; c++)
            sum += (p[c] = exp (p[c] - top));
          for (guint c = 0; c < ways; c++)
            {
              const double e = (p[c] / sum - (c == (guint) y[i])) / n;
              double *gc = grad + (gsize) c * (d + 1);

              for (guint a = 0; a < d; a++)
                gc[a] += e * xi[a];
              gc[d] += e;
            }
        }
      memcpy (prev, w, size * sizeof (double));
      for (gsize k = 0; k < size; k++)
        w[k] = look[k] - step * grad[k];
    }
  for (guint i = 0; i < m; i++)
    {
      const float *qi = q + (gsize) i * d;
      double best = -INFINITY;

      predicted[i] = 0;
      for (guint c = 0; c < ways; c++)
        {
          const double *wc = w + (gsize) c * (d + 1);
          double s = wc[d];

          for (guint a = 0; a < d; a++)
            s += wc[a] * qi[a];
          if (s > best)
            {
              best = s;
              predicted[i] = c;
            }
        }
    }
}

guint
latent_prototype_best (const double *scores,
                       guint         n_slots)
{
  guint best = 0;

  /* Only a strictly higher score replaces the best: ties stay with the
   * lower slot. */
  for (guint c = 1; c < n_slots; c++)
    if (scores[c] > scores[best])
      best = c;
  return best;
}

static const LatentAlgorithm prototype_algorithm = {
  .id = "prototype",
  .title = N_("Nearest prototype"),
  .short_title = N_("Prototypes"),
  .objective_name = N_("mean episode accuracy"),
  .pace = 10,
  .pace_unit = N_("episodes/s"),
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED,
  .figures = prototype_figures,
  .params = prototype_params,
  .n_params = G_N_ELEMENTS (prototype_params),
  .init = prototype_init,
  .step = prototype_step,
  .snapshot = prototype_snapshot,
  .objective = prototype_objective,
  .converged = prototype_converged,
  .free = prototype_free,
  .write_json = prototype_write_json,
};

const LatentAlgorithm *
latent_prototype_get_algorithm (void)
{
  return &prototype_algorithm;
}
