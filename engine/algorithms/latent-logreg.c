/* latent-logreg.c — multinomial logistic regression: parameters, the split,
 * the standardisation and the epochs, L-BFGS, snapshots and results
 *
 * Softmax regression with an L2 penalty on the weights, trained by L-BFGS
 * on all rows (the default: one step is one iteration, and an epoch) or by
 * mini-batch gradient descent (momentum or Adam: one step is one
 * mini-batch). Every epoch ends by predicting the test rows, and the run
 * stops when the training objective stops falling by tol, or at its epoch
 * budget. The math of a step is in latent-logreg-private.h; its two paths
 * are latent-logreg-reference.c and latent-logreg-cl.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-logreg"

#include "latent-logreg.h"
#include "latent-logreg-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "latent-classifiers.h"
#include "latent-mpi.h"
#include "latent-json.h"

#define CPU_REFERENCE N_("CPU reference")
/* Weights at most: 256 MiB of float. */
#define MAX_WEIGHTS ((guint64) 1 << 26)

/* Mini-batch runs stop after this many epochs in a row that did not lower
 * the best epoch loss by tol: one epoch's mean is noisy (scikit-learn's
 * SGDClassifier waits as long, n_iter_no_change). */
#define PATIENCE 5
/* L-BFGS's sufficient decrease (Armijo's c₁) and the step halvings, at
 * most, before an iteration gives up: the objective no longer falls
 * within float precision. */
#define ARMIJO 1e-4
#define MAX_BACKTRACKS 30
/* A fall under tol in one iteration is L-BFGS-B's own test (its factr).
 * Seen on a 2-core Xeon: digits (1,400 rows) converge in 72 iterations
 * (0.975 test accuracy, scikit-learn's default 0.972), Fashion-MNIST in
 * 247 (0.840, scikit-learn's 0.843); the budget only stops a run that
 * would not. */
#define TOL_DEFAULT 1e-5
#define EPOCHS_DEFAULT 1000

static const char * const optimizer_choices[] = { "lbfgs", "momentum", "adam", NULL };
static const char * const optimizer_labels[] = { N_("L-BFGS (all rows)"), N_("Momentum"), N_("Adam"), NULL };

/* The parameters, read once (latent_params_read). */
typedef struct {
  double      l2;
  gint64      batch;
  double      learning_rate;
  double      tol;
  gint64      epochs;
  const char *optimizer;
  double      momentum;
  gboolean    standardise;
  gboolean    shuffle;
  double      test;
} LogregParams;

/* Defaults: L-BFGS to a tolerance, as scikit-learn's LogisticRegression();
 * within a point of its test accuracy on digits and Fashion-MNIST. */
static const LatentParamSpec logreg_params[] = {
  { .name = "l2", LATENT_PARAM_DOUBLE_AT (LogregParams, l2),
    .label = N_("L2 penalty"),
    .tooltip = N_("Strength λ of the penalty λ/2 · (sum of the squared weights) added to the mean "
                  "cross-entropy; the biases are not penalised. Larger values give smaller, smoother weights"),
    .min = 0, .max = 1000, .default_value = 1e-4 },
  { .name = "batch", LATENT_PARAM_INT_AT (LogregParams, batch),
    .label = N_("Mini-batch"),
    .tooltip = N_("Training rows per step; all rows: one step per epoch, plain gradient descent"),
    .min = 0, .max = 1 << 30, .default_value = 256,
    .applies_when = "optimizer=momentum|adam",
    .zero_label = N_("All rows") },
  { .name = "learning-rate", LATENT_PARAM_DOUBLE_AT (LogregParams, learning_rate),
    .label = N_("Learning rate"),
    .tooltip = N_("Step size of the optimiser (Adam wants about 0.001 to 0.01)"),
    .min = 0, .max = 100, .default_value = 0.01,
    .applies_when = "optimizer=momentum|adam" },
  { .name = "tol", LATENT_PARAM_DOUBLE_AT (LogregParams, tol),
    .label = N_("Tolerance"),
    .tooltip = N_("Stop when an epoch lowers the training objective by less than this, relative to it "
                  "(mini-batches: five epochs in a row); 0 trains every epoch"),
    .min = 0, .max = 1, .default_value = TOL_DEFAULT,
    .role = LATENT_PARAM_ROLE_TOLERANCE },
  { .name = "epochs", LATENT_PARAM_INT_AT (LogregParams, epochs),
    .label = N_("Epochs"),
    .tooltip = N_("Passes over the training rows at most (an L-BFGS iteration is one)"),
    .min = 1, .max = 1000000, .default_value = EPOCHS_DEFAULT,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPOCHS },
  { .name = "optimizer", LATENT_PARAM_CHOICE_AT (LogregParams, optimizer),
    .label = N_("Optimiser"),
    .tooltip = N_("L-BFGS, a quasi-Newton method on all rows at once, or mini-batch gradient descent "
                  "with momentum, or Adam"),
    .default_choice = "lbfgs",
    .choices = optimizer_choices,
    .choice_labels = optimizer_labels },
  { .name = "momentum", LATENT_PARAM_DOUBLE_AT (LogregParams, momentum),
    .label = N_("Momentum"),
    .tooltip = N_("Momentum optimiser: the share of the last step kept"),
    .min = 0, .max = 0.999, .default_value = 0.9,
    .applies_when = "optimizer=momentum" },
  { .name = "standardise", LATENT_PARAM_BOOL_AT (LogregParams, standardise),
    .label = N_("Standardise"),
    .tooltip = N_("Shift and scale every column to mean 0 and standard deviation 1 over the training rows "
                  "before learning (a constant column is only shifted); the weights shown are in the data's units"),
    .default_value = TRUE },
  { .name = "shuffle", LATENT_PARAM_BOOL_AT (LogregParams, shuffle),
    .label = N_("Shuffle"),
    .tooltip = N_("Draw the mini-batches at random from the seed, anew every epoch; off: in row order"),
    .default_value = TRUE,
    .applies_when = "optimizer=momentum|adam" },
  { .name = "test", LATENT_PARAM_DOUBLE_AT (LogregParams, test),
    .label = N_("Test share"),
    .tooltip = N_("When the data has no test set: the share of its rows held out, drawn from the seed, "
                  "to measure the accuracy on rows the model does not learn from"),
    .min = 0, .max = 0.95, .default_value = 0.2,
    .role = LATENT_PARAM_ROLE_HELD_OUT },
};

static const LatentAlgorithm logreg_algorithm;

static gboolean
is_lbfgs (const LogregParams *p)
{
  return g_str_equal (p->optimizer, "lbfgs");
}

static guint
batch_rows (const LogregParams *p,
            guint               n_train)
{
  const guint batch = is_lbfgs (p) ? 0 : p->batch;

  /* A batch larger than the data is all of it: Iris's 120 training rows
   * with the default of 256 are one step an epoch, not an error. */
  return batch == 0 ? n_train : MIN (batch, n_train);
}

static gboolean
logreg_check (LatentDataset  *dataset,
              LatentParams   *params,
              GError        **error)
{
  g_autoptr(LatentSplit) split = NULL;
  const guint d = latent_dataset_get_n_cols (dataset);
  LogregParams p;

  latent_params_read (params, &p);
  /* The split says what is wrong with the labels or the test share. */
  if (!(split = latent_split_new (dataset, p.test, 0, error)))
    return FALSE;
  if ((guint64) split->n_classes * d > MAX_WEIGHTS)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%u classes × %u columns of “%s” are more than %u weights"),
                   split->n_classes, d, latent_dataset_get_name (dataset), (guint) MAX_WEIGHTS);
      return FALSE;
    }
  /* At least one pair of steps in L-BFGS's memory. */
  if (is_lbfgs (&p) &&
      2 * ((guint64) split->n_classes * d + split->n_classes) * sizeof (double) > LATENT_LOGREG_LBFGS_BYTES)
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("%u classes × %u columns of “%s” are too many weights for L-BFGS’s memory: "
                     "choose optimizer = momentum or adam"),
                   split->n_classes, d, latent_dataset_get_name (dataset));
      return FALSE;
    }
  if (!is_lbfgs (&p) && !(p.learning_rate > 0))
    {
      g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_PARAMETER,
                   _("learning-rate must be positive"));
      return FALSE;
    }
  return TRUE;
}

/* Paced in epochs: as many a second on 1,000 rows as on 60,000. */
static guint
logreg_pace_steps (gpointer data)
{
  return ((LatentLogreg *) data)->steps_per_epoch;
}

static void
logreg_free (gpointer data)
{
  LatentLogreg *self = data;

  g_clear_pointer (&self->lcl, latent_logreg_cl_free);
  g_clear_object (&self->runtime);
  g_clear_object (&self->dataset);
  g_clear_pointer (&self->params, latent_params_unref);
  g_clear_pointer (&self->rows, latent_rows_unref);
  g_clear_pointer (&self->test_source, latent_rows_unref);
  g_clear_pointer (&self->split, latent_split_free);
  g_free (self->device);
  g_free (self->fallback);
  g_free (self->mean);
  g_free (self->scale);
  g_free (self->order);
  g_free (self->w);
  g_free (self->b);
  g_free (self->vw);
  g_free (self->vb);
  g_free (self->sw);
  g_free (self->sb);
  g_free (self->test_predictions);
  g_free (self->lb_x);
  g_free (self->lb_g);
  g_free (self->lb_p);
  g_free (self->lb_xt);
  g_free (self->lb_gt);
  g_free (self->lb_alpha);
  g_free (self->lb_s);
  g_free (self->lb_y);
  g_free (self->lb_rho);
  latent_training_log_clear (&self->log);
  g_free (self);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentLogreg, logreg_free)

static void
fall_back (LatentLogreg *self,
           const GError *error)
{
  /* The model comes back from the device if it still answers; if not, the
   * run goes on from the last copy read. */
  if (self->lcl)
    latent_logreg_cl_read (self->lcl, TRUE, NULL);
  g_free (self->fallback);
  self->fallback = latent_cl_fall_back (self->runtime, self->algorithm->id, error);
  g_clear_pointer (&self->lcl, latent_logreg_cl_free);
  g_clear_object (&self->runtime);
  g_free (self->device);
  self->device = g_strdup (_(CPU_REFERENCE));
}

/* Predicts the test rows on whichever path runs: test_predictions and
 * test_loss. */
static gboolean
evaluate_test (LatentLogreg  *self,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->lcl && !latent_logreg_cl_test (self->lcl, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  return self->lcl != NULL || latent_logreg_reference_test (self, error);
}

static gpointer
logreg_init (LatentDataset  *dataset,
             LatentParams   *params,
             guint64         seed,
             LatentCl       *cl,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(LatentLogreg) self = NULL;
  g_autoptr(GError) local_error = NULL;
  LogregParams p;
  gsize cd;

  if (!logreg_check (dataset, params, error))
    return NULL;
  latent_params_read (params, &p);

  self = g_new0 (LatentLogreg, 1);
  self->algorithm = &logreg_algorithm;
  self->dataset = g_object_ref (dataset);
  self->params = latent_params_ref (params);
  self->seed = seed;
  if (!(self->split = latent_split_new (dataset, p.test, seed, error)))
    return NULL;
  self->rows = latent_rows_new_for_dataset (self->split->train, 0);
  self->test_source = self->split->test == self->split->train ? latent_rows_ref (self->rows)
                      : latent_rows_new_for_dataset (self->split->test, 0);
  self->n_train = self->split->n_train;
  self->n_test = self->split->n_test;
  self->c = self->split->n_classes;
  self->d = latent_dataset_get_n_cols (dataset);
  self->batch = batch_rows (&p, self->n_train);
  self->steps_per_epoch = (self->n_train + self->batch - 1) / self->batch;
  self->adam = g_str_equal (p.optimizer, "adam");
  self->lbfgs = is_lbfgs (&p);
  self->tol = p.tol;
  /* One batch of all rows is the same sum in any order. */
  self->shuffle = p.shuffle && self->steps_per_epoch > 1;
  self->learning_rate = p.learning_rate;
  self->momentum = p.momentum;
  self->l2 = p.l2;
  self->epochs = p.epochs;

  self->mean = g_new (float, self->d);
  self->scale = g_new (float, self->d);
  if (!latent_split_standardise (self->split, self->rows, p.standardise, self->mean, self->scale, error))
    return NULL;
  self->order = g_memdup2 (self->split->train_rows, self->n_train * sizeof (gint32));
  if (self->shuffle)
    latent_classify_shuffle (self->order, self->n_train, self->seed + 1);

  /* W = 0: every class equally likely, the loss log C. */
  cd = (gsize) self->c * self->d;
  self->w = g_new0 (float, cd);
  self->b = g_new0 (float, self->c);
  self->vw = g_new0 (float, cd);
  self->vb = g_new0 (float, self->c);
  if (self->adam)
    {
      self->sw = g_new0 (float, cd);
      self->sb = g_new0 (float, self->c);
    }
  self->n_params = cd + self->c;
  if (self->lbfgs)
    {
      const gsize n = self->n_params;

      self->lb_pairs = CLAMP (LATENT_LOGREG_LBFGS_BYTES / (2 * n * sizeof (double)), 1, LATENT_LOGREG_LBFGS_PAIRS);
      self->lb_x = g_new0 (double, n);
      self->lb_g = g_new0 (double, n);
      self->lb_p = g_new0 (double, n);
      self->lb_xt = g_new0 (double, n);
      self->lb_gt = g_new0 (double, n);
      self->lb_alpha = g_new0 (double, self->lb_pairs);
      self->lb_s = g_new0 (double, self->lb_pairs * n);
      self->lb_y = g_new0 (double, self->lb_pairs * n);
      self->lb_rho = g_new0 (double, self->lb_pairs);
    }
  self->lb_f = NAN;
  latent_training_log_init (&self->log);
  self->test_predictions = g_new0 (gint32, self->n_test);
  self->test_loss = NAN;

  /* The device keeps its own copy of every row, which only sources of one
   * chunk of them all give; in chunks, the run stays on the host. So does
   * one rank of several, which computes its share of every batch. */
  self->shared = latent_mpi_size () > 1;
  if (cl && !self->shared && latent_rows_is_whole (self->rows, self->split->train) &&
      latent_rows_is_whole (self->test_source, self->split->test))
    {
      self->runtime = g_object_ref (cl);
      self->device = latent_cl_describe (cl);
      self->lcl = latent_logreg_cl_new (self, cl, &local_error);
      if (self->lcl && !latent_logreg_cl_set_order (self->lcl, &local_error))
        g_clear_pointer (&self->lcl, latent_logreg_cl_free);
      if (local_error)
        fall_back (self, local_error);
    }
  else
    self->device = g_strdup (_(CPU_REFERENCE));
  /* The starting model's predictions, for the snapshot of iteration 0. */
  if (!evaluate_test (self, NULL, error))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
end_epoch (LatentLogreg  *self,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  const LatentSplit *split = self->split;

  if (!evaluate_test (self, cancellable, error))
    return FALSE;
  /* L-BFGS's objective only falls, so its best is the last epoch's. */
  if (latent_training_log_end_epoch (&self->log, self->n_train, self->test_loss,
                                     latent_classify_accuracy (split->test, split->test_rows, self->test_predictions,
                                                               self->n_test),
                                     self->tol, LATENT_STOP_RELATIVE, self->lbfgs ? 1 : PATIENCE))
    self->converged = TRUE;
  if (self->shuffle && self->log.epoch < self->epochs && !self->converged)
    {
      latent_classify_shuffle (self->order, self->n_train, self->seed + 1 + self->log.epoch);
      if (self->lcl && !latent_logreg_cl_set_order (self->lcl, &local_error))
        fall_back (self, local_error);
    }
  return TRUE;
}

static double
dot (const double *a,
     const double *b,
     gsize         n)
{
  double sum = 0;

  for (gsize i = 0; i < n; i++)
    sum += a[i] * b[i];
  return sum;
}

/* @x into the model the paths read, and back rounded to its floats, so
 * that the steps L-BFGS remembers are the ones the paths took. */
static void
set_point (LatentLogreg *self,
           double       *x)
{
  const gsize cd = (gsize) self->c * self->d;

  for (gsize i = 0; i < cd; i++)
    x[i] = self->w[i] = x[i];
  for (guint k = 0; k < self->c; k++)
    x[cd + k] = self->b[k] = x[cd + k];
}

/* The objective and gradient at @x, on whichever path runs. */
static gboolean
evaluate (LatentLogreg  *self,
          double        *x,
          double        *g,
          double        *loss,
          guint         *right,
          GCancellable  *cancellable,
          GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  set_point (self, x);
  if (self->lcl && !latent_logreg_cl_evaluate (self->lcl, loss, right, g, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
      /* The fall-back read back the device's model: the host's point stands. */
      set_point (self, x);
    }
  return self->lcl != NULL || latent_logreg_reference_evaluate (self, g, loss, right, error);
}

/* The direction −H g of the two-loop recursion over the pairs kept,
 * newest first, then oldest first; H₀ is sᵀy / yᵀy of the newest pair. */
static void
lbfgs_direction (LatentLogreg *self)
{
  const gsize n = self->n_params;
  const guint m = self->lb_pairs;
  double *q = self->lb_p;

  memcpy (q, self->lb_g, n * sizeof (double));
  for (guint j = 0; j < self->lb_count; j++)
    {
      const guint i = (self->lb_head + m - 1 - j) % m;
      const double *s = self->lb_s + i * n, *y = self->lb_y + i * n;
      const double a = self->lb_rho[i] * dot (s, q, n);

      self->lb_alpha[i] = a;
      for (gsize t = 0; t < n; t++)
        q[t] -= a * y[t];
    }
  if (self->lb_count > 0)
    {
      const guint i = (self->lb_head + m - 1) % m;
      const double *y = self->lb_y + i * n;
      const double gamma = 1 / (self->lb_rho[i] * dot (y, y, n));

      for (gsize t = 0; t < n; t++)
        q[t] *= gamma;
    }
  for (guint j = self->lb_count; j-- > 0;)
    {
      const guint i = (self->lb_head + m - 1 - j) % m;
      const double *s = self->lb_s + i * n, *y = self->lb_y + i * n;
      const double beta = self->lb_rho[i] * dot (y, q, n);

      for (gsize t = 0; t < n; t++)
        q[t] += (self->lb_alpha[i] - beta) * s[t];
    }
  for (gsize t = 0; t < n; t++)
    q[t] = -q[t];
}

/* One L-BFGS iteration on all rows: the direction, a backtracking line
 * search to a sufficient decrease (Armijo), and the new pair. Its loss and
 * right predictions are the new point's. A search that finds no decrease
 * leaves the point where it was and counts as converged: the objective
 * no longer falls within the paths' float precision. */
static gboolean
lbfgs_step (LatentLogreg  *self,
            double        *loss,
            guint         *right,
            GCancellable  *cancellable,
            GError       **error)
{
  const gsize n = self->n_params;
  const guint m = self->lb_pairs;
  double gtp, alpha, f = NAN;
  gboolean accepted = FALSE;

  if (isnan (self->lb_f))
    {
      if (!evaluate (self, self->lb_x, self->lb_g, &self->lb_f, right, cancellable, error))
        return FALSE;
      self->log.best_loss = self->lb_f;
    }
  lbfgs_direction (self);
  gtp = dot (self->lb_g, self->lb_p, n);
  if (!(gtp < 0))
    {
      /* The pairs no longer describe the curvature here: steepest descent. */
      self->lb_count = 0;
      for (gsize t = 0; t < n; t++)
        self->lb_p[t] = -self->lb_g[t];
      gtp = -dot (self->lb_g, self->lb_g, n);
    }
  /* The first step is one unit long; later ones trust the curvature. */
  alpha = self->lb_count == 0 && gtp < 0 ? MIN (1.0, 1 / sqrt (-gtp)) : 1.0;
  for (guint tries = 0; gtp < 0 && tries <= MAX_BACKTRACKS; tries++)
    {
      for (gsize t = 0; t < n; t++)
        self->lb_xt[t] = self->lb_x[t] + alpha * self->lb_p[t];
      if (!evaluate (self, self->lb_xt, self->lb_gt, &f, right, cancellable, error))
        {
          set_point (self, self->lb_x);
          return FALSE;
        }
      if (f <= self->lb_f + ARMIJO * alpha * gtp)
        {
          accepted = TRUE;
          break;
        }
      /* The minimum of the parabola through f, its slope and the trial,
       * kept within a tenth and a half of the step; halved if the trial
       * overflowed. */
      if (isfinite (f))
        alpha = CLAMP (-gtp * alpha * alpha / (2 * (f - self->lb_f - gtp * alpha)), 0.1 * alpha, 0.5 * alpha);
      else
        alpha *= 0.5;
    }
  if (!accepted)
    {
      self->converged = TRUE;
      /* Back to the point, on the device too, with its own predictions. */
      return evaluate (self, self->lb_x, self->lb_gt, loss, right, cancellable, error);
    }

  {
    /* The pair, into the ring's next slot; kept only where the curvature
     * is positive (sᵀy > 0), as H must stay positive definite. */
    double *s = self->lb_s + self->lb_head * n, *y = self->lb_y + self->lb_head * n, *swap;
    double sy;

    for (gsize t = 0; t < n; t++)
      {
        s[t] = self->lb_xt[t] - self->lb_x[t];
        y[t] = self->lb_gt[t] - self->lb_g[t];
      }
    sy = dot (s, y, n);
    if (sy > 1e-10 * dot (y, y, n))
      {
        self->lb_rho[self->lb_head] = 1 / sy;
        self->lb_head = (self->lb_head + 1) % m;
        self->lb_count = MIN (self->lb_count + 1, m);
      }
    swap = self->lb_x;
    self->lb_x = self->lb_xt;
    self->lb_xt = swap;
    swap = self->lb_g;
    self->lb_g = self->lb_gt;
    self->lb_gt = swap;
  }
  self->lb_f = f;
  *loss = f;
  return TRUE;
}

/* One momentum or Adam step on the mini-batch order[first ..+ rows). */
static gboolean
minibatch_step (LatentLogreg  *self,
                guint          first,
                guint          rows,
                double        *loss,
                guint         *right,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  self->adam_t++;
  if (self->lcl &&
      !latent_logreg_cl_step (self->lcl, first, rows, loss, right, cancellable, &local_error))
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          self->adam_t--;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      fall_back (self, local_error);
    }
  if (self->lcl == NULL && !latent_logreg_reference_step (self, first, rows, loss, right, error))
    {
      self->adam_t--;
      return FALSE;
    }
  return TRUE;
}

static gboolean
logreg_step (gpointer       data,
             GCancellable  *cancellable,
             GError       **error)
{
  LatentLogreg *self = data;
  const guint first = (self->iteration % self->steps_per_epoch) * self->batch;
  const guint rows = MIN (self->batch, self->n_train - first);
  double loss = NAN;
  guint right = 0;

  g_return_val_if_fail (!self->finished, FALSE);

  if (!(self->lbfgs ? lbfgs_step (self, &loss, &right, cancellable, error)
                    : minibatch_step (self, first, rows, &loss, &right, cancellable, error)))
    return FALSE;

  if (!latent_training_log_step (&self->log, self->iteration, loss, rows, right, self->learning_rate, error))
    {
      self->finished = TRUE;
      return FALSE;
    }
  self->iteration++;
  if (self->iteration % self->steps_per_epoch == 0 && !end_epoch (self, cancellable, error))
    return FALSE;
  self->finished = self->converged || self->log.epoch >= self->epochs;
  return TRUE;
}

/* L-BFGS steps over all the rows: what it records is the training loss. */
static const char *
logreg_objective_name (LatentParams *params)
{
  LogregParams p;

  latent_params_read (params, &p);
  return is_lbfgs (&p) ? N_("training loss") : NULL;
}

static double
logreg_objective (gpointer data)
{
  return ((LatentLogreg *) data)->log.loss;
}

static gboolean
logreg_converged (gpointer data)
{
  return ((LatentLogreg *) data)->finished;
}

static LatentSnapshot *
logreg_snapshot (gpointer data)
{
  LatentLogreg *self = data;
  LatentSnapshot *snap = latent_snapshot_new (self->algorithm, self->dataset, self->params);
  const guint c = self->c, d = self->d;
  g_autoptr(GError) local_error = NULL;

  /* L-BFGS's point is the host's; the device may hold a rejected trial. */
  if (self->lcl && !self->lbfgs && !latent_logreg_cl_read (self->lcl, FALSE, &local_error))
    fall_back (self, local_error);
  snap->seed = self->seed;
  snap->iteration = self->iteration;
  snap->converged = self->converged;
  snap->final = self->finished;
  snap->objective = self->log.loss;
  snap->n_rows = latent_dataset_get_n_rows (self->dataset);
  snap->n_cols = d;

  /* In data units: w · (x − mean) · scale + b = (w · scale) · x + b − (w · scale) · mean. */
  snap->classifier.n_classes = c;
  snap->classifier.class_weights = g_new (float, (gsize) c * d);
  snap->classifier.class_bias = g_new (float, c);
  for (guint k = 0; k < c; k++)
    {
      double shift = 0;

      for (guint a = 0; a < d; a++)
        {
          const float w = self->w[(gsize) k * d + a] * self->scale[a];

          snap->classifier.class_weights[(gsize) k * d + a] = w;
          shift += (double) w * self->mean[a];
        }
      snap->classifier.class_bias[k] = self->b[k] - shift;
    }
  snap->classifier.input_offset = g_memdup2 (self->mean, sizeof (float) * d);
  snap->classifier.input_scale = g_memdup2 (self->scale, sizeof (float) * d);

  latent_training_log_fill (&self->log, self->steps_per_epoch, snap);
  /* The last epoch's test side (the starting model's before the first). */
  latent_classify_judge (snap, self->split, self->test_predictions);
  snap->classifier.test_loss = self->test_loss;
  snap->device = g_strdup (self->device);
  snap->message = g_strdup (self->fallback);
  return snap;
}

/* The model in data units (enough to score rows without the standardising),
 * the standardisation it folds in, and the epochs' curves. */
static void
logreg_write_json (LatentSnapshot *snap,
                   JsonBuilder    *b)
{
  const LatentClassifierPart *part = &snap->classifier;
  const guint c = part->n_classes, d = snap->n_cols;

  latent_classifiers_write_json (snap, b);
  latent_json_add_matrix_member (b, "weights", part->class_weights, c, d);
  latent_json_add_float_vector_member (b, "bias", part->class_bias, c);
  latent_json_add_float_vector_member (b, "standardise_mean", part->input_offset, d);
  latent_json_add_float_vector_member (b, "standardise_scale", part->input_scale, d);
  latent_json_add_number_member (b, "epochs_done", part->epochs.n_epochs);
  latent_json_add_number_member (b, "steps_per_epoch", part->epochs.steps_per_epoch);
  latent_json_add_vector_member (b, "train_loss", part->epochs.train_loss, part->epochs.n_epochs);
  latent_json_add_vector_member (b, "test_loss", part->epochs.held_out_loss, part->epochs.n_epochs);
  latent_json_add_number_member (b, "final_test_loss", part->test_loss);
}

static const char * const logreg_figures[] = { "curves", "confusion", "weights", "regions", NULL };

static const LatentAlgorithm logreg_algorithm = {
  .id = "logreg",
  .title = N_("Logistic regression"),
  .short_title = N_("Logistic regression"),
  .objective_name = N_("mini-batch loss"),  /* the last step's; the epoch's is a metric */
  .pace = 20,
  .pace_unit = N_("epochs/s"),
  .objective_name_for = logreg_objective_name,
  .family = LATENT_FAMILY_CLASSIFIER,
  .flags = LATENT_ALGORITHM_SUPERVISED | LATENT_ALGORITHM_SHARES,
  .figures = logreg_figures,
  .params = logreg_params,
  .n_params = G_N_ELEMENTS (logreg_params),
  .check = logreg_check,
  /* The batch is clamped to the training rows, not refused. */
  .max_int = latent_algorithm_no_max_int,
  .init = logreg_init,
  .step = logreg_step,
  .snapshot = logreg_snapshot,
  .objective = logreg_objective,
  .converged = logreg_converged,
  .free = logreg_free,
  .pace_steps = logreg_pace_steps,
  .write_json = logreg_write_json,
};

const LatentAlgorithm *
latent_logreg_get_algorithm (void)
{
  return &logreg_algorithm;
}
