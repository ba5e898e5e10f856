/* latent-umap-reference.c — UMAP's reference path in double: a and b, the
 * fuzzy graph and its schedule, an epoch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-umap"

#include "latent-umap-private.h"
#include "latent-embedding-input.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define FIT_POINTS 300
/* umap-learn's smooth_knn_dist: its tolerance, steps and floor on σ. */
#define SIGMA_TOLERANCE 1e-5
#define SIGMA_STEPS 64
#define MIN_SIGMA_SCALE 1e-3

void
latent_umap_fit_ab (double  spread,
                    double  min_dist,
                    double *a,
                    double *b)
{
  double x[FIT_POINTS], t[FIT_POINTS], p[2] = { 1, 1 }, lambda = 1e-3;

  for (guint i = 0; i < FIT_POINTS; i++)
    {
      x[i] = 3 * spread * i / (FIT_POINTS - 1);
      t[i] = x[i] < min_dist ? 1 : exp (-(x[i] - min_dist) / spread);
    }
  /* Levenberg–Marquardt on the two parameters. */
  for (guint step = 0; step < 200; step++)
    {
      double jtj[3] = { 0, 0, 0 }, jtr[2] = { 0, 0 }, cost = 0, trial[2], trial_cost = 0, det;

      for (guint i = 1; i < FIT_POINTS; i++)
        {
          double u = pow (x[i], 2 * p[1]), f = 1 / (1 + p[0] * u), r = f - t[i];
          double da = -u * f * f, db = -p[0] * u * 2 * log (x[i]) * f * f;

          cost += r * r;
          jtj[0] += da * da;
          jtj[1] += da * db;
          jtj[2] += db * db;
          jtr[0] += da * r;
          jtr[1] += db * r;
        }
      det = (jtj[0] * (1 + lambda)) * (jtj[2] * (1 + lambda)) - jtj[1] * jtj[1];
      if (det == 0)
        break;
      trial[0] = p[0] - (jtj[2] * (1 + lambda) * jtr[0] - jtj[1] * jtr[1]) / det;
      trial[1] = p[1] - (jtj[0] * (1 + lambda) * jtr[1] - jtj[1] * jtr[0]) / det;
      if (trial[0] <= 0 || trial[1] <= 0)
        {
          lambda *= 10;
          continue;
        }
      for (guint i = 1; i < FIT_POINTS; i++)
        {
          double r = 1 / (1 + trial[0] * pow (x[i], 2 * trial[1])) - t[i];
          trial_cost += r * r;
        }
      if (trial_cost < cost)
        {
          gboolean done = fabs (trial[0] - p[0]) < 1e-10 * p[0] && fabs (trial[1] - p[1]) < 1e-10 * p[1];

          p[0] = trial[0];
          p[1] = trial[1];
          lambda = MAX (lambda / 10, 1e-12);
          if (done)
            break;
        }
      else
        lambda *= 10;
    }
  *a = p[0];
  *b = p[1];
}

/* Row @i's memberships of its m neighbours (distances @d, nearest first). */
static void
memberships (const double *d,
             guint         m,
             double        target,
             double        floor_sigma,
             float        *w)
{
  double rho = 0, lo = 0, hi = INFINITY, sigma = 1, mean = 0;

  for (guint j = 0; j < m; j++)
    if (d[j] > 0)
      {
        rho = d[j];
        break;
      }
  for (guint j = 0; j < m; j++)
    mean += d[j];
  mean /= m;
  for (guint step = 0; step < SIGMA_STEPS; step++)
    {
      double sum = 0;

      for (guint j = 0; j < m; j++)
        sum += d[j] - rho > 0 ? exp (-(d[j] - rho) / sigma) : 1;
      if (fabs (sum - target) < SIGMA_TOLERANCE)
        break;
      if (sum > target)
        {
          hi = sigma;
          sigma = (lo + hi) / 2;
        }
      else
        {
          lo = sigma;
          sigma = isinf (hi) ? sigma * 2 : (lo + hi) / 2;
        }
    }
  sigma = MAX (sigma, MIN_SIGMA_SCALE * (rho > 0 ? mean : floor_sigma));
  for (guint j = 0; j < m; j++)
    w[j] = d[j] - rho > 0 ? exp (-(d[j] - rho) / sigma) : 1;
}

gboolean
latent_umap_graph (const gint32    *index,
                   const float     *dist2,
                   guint            n,
                   guint            k,
                   guint            epochs,
                   double           negative_rate,
                   LatentUmapGraph *graph,
                   GError         **error)
{
  const guint m = k - 1;
  g_autofree guint64 *start = NULL;
  g_autofree LatentEmbeddingEntry *entries = NULL;
  g_autofree float *w = latent_algorithm_alloc ((guint64) n * m, sizeof (float), _("the graph"), error);
  g_autofree double *d = w ? latent_algorithm_alloc ((guint64) n * m, sizeof (double), _("the graph"), error) : NULL;
  double global_mean = 0, w_max = 0;
  guint64 kept = 0;

  if (d == NULL)
    return FALSE;
  for (gsize e = 0; e < (gsize) n * m; e++)
    {
      d[e] = sqrt (dist2[e]);
      global_mean += d[e];
    }
  global_mean /= (double) n * m;
  for (guint i = 0; i < n; i++)
    memberships (d + (gsize) i * m, m, log2 (k), global_mean, w + (gsize) i * m);

  if (!latent_embedding_both_ways (index, w, n, m, &start, &entries, error))
    return FALSE;
  latent_umap_graph_clear (graph);
  graph->n = n;
  graph->row_start = g_new (guint64, (gsize) n + 1);
  graph->cols = g_new (gint32, start[n]);
  graph->w = g_new (float, start[n]);
  for (guint i = 0; i < n; i++)
    {
      graph->row_start[i] = kept;
      for (guint64 e = start[i]; e < start[i + 1]; e++)
        {
          double v = entries[e].value;

          /* The fuzzy union: a + b − ab where both directions were kept. */
          if (e + 1 < start[i + 1] && entries[e + 1].col == entries[e].col)
            {
              double u = entries[++e].value;
              v = v + u - v * u;
            }
          graph->cols[kept] = entries[e].col;
          graph->w[kept] = v;
          w_max = MAX (w_max, v);
          kept++;
        }
    }
  graph->row_start[n] = kept;

  /* Edges too weak to be sampled in the epochs go. */
  {
    guint64 out = 0;

    for (guint i = 0; i < n; i++)
      {
        guint64 from = graph->row_start[i], to = graph->row_start[i + 1];

        graph->row_start[i] = out;
        for (guint64 e = from; e < to; e++)
          if (graph->w[e] >= w_max / epochs)
            {
              graph->cols[out] = graph->cols[e];
              graph->w[out] = graph->w[e];
              out++;
            }
      }
    graph->row_start[n] = out;
    graph->n_edges = out;
  }
  graph->every = g_new (float, MAX (graph->n_edges, 1));
  graph->next = g_new (float, MAX (graph->n_edges, 1));
  graph->next_negative = g_new (float, MAX (graph->n_edges, 1));
  for (guint64 e = 0; e < graph->n_edges; e++)
    {
      graph->every[e] = w_max / graph->w[e];
      graph->next[e] = graph->every[e];
      graph->next_negative[e] = graph->every[e] / negative_rate;
    }
  return TRUE;
}

void
latent_umap_graph_clear (LatentUmapGraph *graph)
{
  g_clear_pointer (&graph->row_start, g_free);
  g_clear_pointer (&graph->cols, g_free);
  g_clear_pointer (&graph->w, g_free);
  g_clear_pointer (&graph->every, g_free);
  g_clear_pointer (&graph->next, g_free);
  g_clear_pointer (&graph->next_negative, g_free);
  graph->n = 0;
  graph->n_edges = 0;
}

static inline double
clip (double v)
{
  return CLAMP (v, -4.0, 4.0);
}

void
latent_umap_reference_epoch (LatentUmap *self)
{
  const LatentUmapGraph *g = &self->graph;
  const guint n = self->n, epoch = self->epoch;
  const double a = self->a, b = self->b, gamma = self->repulsion;
  const double alpha = self->learning_rate * (1 - (double) epoch / self->epochs);
  const double *y = self->y;
  const gboolean measure = latent_umap_measures (epoch, self->epochs);
  double ce = 0;

  for (guint i = 0; i < n; i++)
    {
      double move[2] = { 0, 0 };

      for (guint64 e = g->row_start[i]; e < g->row_start[i + 1]; e++)
        {
          const gint32 j = g->cols[e];
          double d0 = y[2 * i] - y[2 * j], d1 = y[2 * i + 1] - y[2 * j + 1], d2 = d0 * d0 + d1 * d1;
          double pb = d2 > 0 ? pow (d2, b) : 0, v = 1 / (1 + a * pb), w = g->w[e];
          double every_negative, due;
          guint n_negative;

          v = CLAMP (v, 1e-12, 1 - 1e-12);
          if (measure)
            ce += w * log (w / v) + (w < 1 ? (1 - w) * log ((1 - w) / (1 - v)) : 0);
          if (g->next[e] > epoch)
            continue;
          if (d2 > 0)
            {
              double coeff = -2 * a * b * pb / d2 / (1 + a * pb);

              move[0] += clip (coeff * d0) * alpha;
              move[1] += clip (coeff * d1) * alpha;
            }
          g->next[e] += g->every[e];
          every_negative = g->every[e] / self->negative_rate;
          due = (epoch - g->next_negative[e]) / every_negative;
          n_negative = due > 0 ? (guint) due : 0;
          for (guint s = 0; s < n_negative; s++)
            {
              guint k = latent_umap_negative (self->hash_seed, e, epoch, s, n);
              double e0 = y[2 * i] - y[2 * k], e1 = y[2 * i + 1] - y[2 * k + 1], f2 = e0 * e0 + e1 * e1;

              if (f2 > 0)
                {
                  double coeff = 2 * gamma * b / ((0.001 + f2) * (1 + a * pow (f2, b)));

                  move[0] += clip (coeff * e0) * alpha;
                  move[1] += clip (coeff * e1) * alpha;
                }
            }
          g->next_negative[e] += n_negative * every_negative;
        }
      self->y_next[2 * i] = y[2 * i] + move[0];
      self->y_next[2 * i + 1] = y[2 * i + 1] + move[1];
    }
  if (measure)
    self->cross_entropy = ce / 2;
  memcpy (self->y, self->y_next, 2 * (gsize) n * sizeof (double));
}
