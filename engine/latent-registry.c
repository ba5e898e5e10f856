/* latent-registry.c — the list of algorithms
 *
 * The algorithms are listed in engine/meson.build (latent-families.h's
 * LATENT_ALGORITHM_LIST), in the order a person is offered them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-registry"

#include "latent-registry.h"

#include <glib/gi18n-lib.h>

#define DECLARE_GETTER(id) const LatentAlgorithm *latent_##id##_get_algorithm (void);
LATENT_ALGORITHM_LIST (DECLARE_GETTER)
#define LIST_GETTER(id) latent_##id##_get_algorithm,
static const LatentAlgorithm *(*const getters[]) (void) = { LATENT_ALGORITHM_LIST (LIST_GETTER) };

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
