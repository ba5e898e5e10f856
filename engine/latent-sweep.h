/* latent-sweep.h — one model per K, scored by BIC and AIC, to choose K
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-algorithm.h"

G_BEGIN_DECLS

typedef struct {
  guint  k;
  guint  iterations;
  gboolean converged;
  double log_likelihood;   /* mean per row */
  double bic;
  double aic;
} LatentSweepPoint;

typedef struct {
  GArray *points;          /* LatentSweepPoint, by K */
  guint   best_bic;        /* index of the smallest BIC */
  guint   best_aic;
  /* What every fit shared, for a reader of the result (NULL, 0 where a
   * sweep was put together by hand). */
  LatentParams *params;    /* the other parameters, as given */
  const char   *swept;     /* the name of the parameter swept ("k") */
  guint64       seed;
  guint         max_k;     /* the largest K the data would take */
} LatentSweep;

/* "k=1..12" (or "1..12", or "3") into a range of parameter @name (the
 * parameter whose role is LATENT_PARAM_ROLE_SWEEP), within its bounds in @params; errors name it. */
gboolean     latent_sweep_parse_range (LatentParams           *params,
                                       const char             *name,
                                       const char             *text,
                                       guint                  *first,
                                       guint                  *last,
                                       GError                **error);
/* Fits the algorithm (which must report BIC) for K = first … last with the
 * other parameters as given. progress (may be NULL) hears of each K. */
LatentSweep *latent_sweep_run         (const LatentAlgorithm  *algorithm,
                                       LatentDataset          *dataset,
                                       LatentParams           *params,
                                       guint64                 seed,
                                       LatentCl               *cl,
                                       guint                   first,
                                       guint                   last,
                                       void                  (*progress) (const LatentSweepPoint *point,
                                                                          gpointer                user_data),
                                       gpointer                user_data,
                                       GCancellable           *cancellable,
                                       GError                **error);
/* The parameters every fit shared, translated: "Covariance full ·
 * Tolerance 0.001 · … · seed 0"; NULL when the sweep does not know them. */
char        *latent_sweep_describe_fits (const LatentSweep    *self);
/* When the best K by BIC is an end of the range tried (and the range could
 * go further that way), a sentence suggesting a wider one; else NULL. */
char        *latent_sweep_describe_edge (const LatentSweep    *self);
void         latent_sweep_free        (LatentSweep            *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSweep, latent_sweep_free)

G_END_DECLS
