/* latent-registry.c — the list of algorithms
 *
 * Adding an algorithm: its header and its getter here (see
 * docs/ARCHITECTURE.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-registry"

#include "latent-registry.h"

#include <glib/gi18n-lib.h>

#include "latent-convolve.h"
#include "latent-gmm.h"
#include "latent-kmeans.h"
#include "latent-linear.h"
#include "latent-logreg.h"
#include "latent-prototype.h"
#include "latent-wta.h"

/* In the order a person is offered them. */
static const LatentAlgorithm *(*const getters[]) (void) = {
  latent_kmeans_get_algorithm,
  latent_gmm_get_algorithm,
  latent_pca_get_algorithm,
  latent_ppca_get_algorithm,
  latent_fa_get_algorithm,
  latent_wta_get_algorithm,
  latent_logreg_get_algorithm,
  latent_convolve_get_algorithm,
  latent_prototype_get_algorithm,
};

const LatentAlgorithm * const *
latent_registry_list (void)
{
  /* Sized by the list above, and one NULL to end it. */
  static const LatentAlgorithm *algorithms[G_N_ELEMENTS (getters) + 1];
  static gsize filled;

  if (g_once_init_enter (&filled))
    {
      for (guint i = 0; i < G_N_ELEMENTS (getters); i++)
        algorithms[i] = getters[i] ();
      g_once_init_leave (&filled, 1);
    }
  return algorithms;
}

/* "kmeans, gmm, …", for messages. */
static char *
dup_ids (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  GString *ids = g_string_new (NULL);

  for (guint i = 0; all[i]; i++)
    g_string_append_printf (ids, "%s%s", i ? ", " : "", all[i]->id);
  return g_string_free (ids, FALSE);
}

const LatentAlgorithm *
latent_registry_lookup (const char  *id,
                        GError     **error)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autofree char *known = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; all[i]; i++)
    if (g_str_equal (all[i]->id, id))
      return all[i];
  known = dup_ids ();
  g_set_error (error, LATENT_ALGORITHM_ERROR, LATENT_ALGORITHM_ERROR_UNKNOWN,
               _("unknown algorithm “%s” (known: %s)"), id, known);
  return NULL;
}
