/* latent-algorithm.c — the registry of algorithms
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-algorithm"

#include "latent-algorithm.h"

#include <glib/gi18n-lib.h>

#include "latent-convolve.h"
#include "latent-gmm.h"
#include "latent-kmeans.h"
#include "latent-linear.h"

G_DEFINE_QUARK (latent-algorithm-error-quark, latent_algorithm_error)

const LatentAlgorithm * const *
latent_algorithm_list (void)
{
  static const LatentAlgorithm *algorithms[7];

  if (algorithms[0] == NULL)
    {
      algorithms[0] = latent_kmeans_get_algorithm ();
      algorithms[1] = latent_gmm_get_algorithm ();
      algorithms[2] = latent_pca_get_algorithm ();
      algorithms[3] = latent_ppca_get_algorithm ();
      algorithms[4] = latent_fa_get_algorithm ();
      algorithms[5] = latent_convolve_get_algorithm ();
    }
  return algorithms;
}

const LatentAlgorithm *
latent_algorithm_lookup (const char  *id,
                         GError     **error)
{
  const LatentAlgorithm * const *all = latent_algorithm_list ();
  g_autoptr(GString) known = g_string_new (NULL);

  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; all[i]; i++)
    {
      if (g_str_equal (all[i]->id, id))
        return all[i];
      g_string_append_printf (known, "%s%s", i ? ", " : "", all[i]->id);
    }
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_UNKNOWN,
               _("unknown algorithm “%s” (known: %s)"), id, known->str);
  return NULL;
}

LatentParams *
latent_algorithm_new_params (const LatentAlgorithm *algorithm)
{
  g_return_val_if_fail (algorithm != NULL, NULL);
  return latent_params_new (algorithm->params, algorithm->n_params);
}
