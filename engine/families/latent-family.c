/* latent-family.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-family"

#include "latent-family.h"

#include <math.h>

/* The families' classes, from engine/meson.build's list (latent-families.h). */
#define DECLARE_CLASS(NAME, field, Part, klass) extern const LatentFamilyClass klass;
LATENT_FAMILY_LIST (DECLARE_CLASS)
#define LIST_CLASS(NAME, field, Part, klass) &klass,
static const LatentFamilyClass *const families[] = { LATENT_FAMILY_LIST (LIST_CLASS) };

const LatentFamilyClass *
latent_family_class (LatentFamily family)
{
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (families[i]->family == family)
      return families[i];
  g_return_val_if_reached (NULL);
}

static const LatentFamilyClass *
class_of (LatentSnapshot *snapshot)
{
  return latent_family_class (latent_snapshot_get_family (snapshot));
}

void
latent_family_init_parts (LatentSnapshot *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (families[i]->init_part)
      families[i]->init_part (self);
}

void
latent_family_clear_parts (LatentSnapshot *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (families[i]->clear_part)
      families[i]->clear_part (self);
}

void
latent_family_transfer_parts (LatentSnapshot *self,
                              LatentCodec    *codec)
{
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (families[i]->transfer_part)
      families[i]->transfer_part (self, codec);
}

gsize
latent_family_get_parts_size (LatentSnapshot *self)
{
  gsize size = 0;

  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (families[i]->get_part_size)
      size += families[i]->get_part_size (self);
  return size;
}

void
latent_family_describe_objective (LatentSnapshot *snapshot,
                                  GString        *text)
{
  if (isfinite (snapshot->objective))
    g_string_append_printf (text, " · %s %.6g",
                            latent_algorithm_objective_name (snapshot->algorithm, snapshot->params),
                            snapshot->objective);
}

void
latent_family_describe_header (LatentSnapshot *snapshot,
                               GString        *text)
{
  const LatentFamilyClass *klass;

  g_return_if_fail (snapshot != NULL && text != NULL);

  klass = class_of (snapshot);
  if (klass->describe_header)
    klass->describe_header (snapshot, text);
}

char *
latent_family_describe_metrics (LatentSnapshot *snapshot)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const LatentFamilyClass *klass;

  g_return_val_if_fail (snapshot != NULL, NULL);

  klass = class_of (snapshot);
  if (klass->describe_metrics)
    klass->describe_metrics (snapshot, text);
  if (text->len > 0 && text->str[text->len - 1] == '\n')
    g_string_truncate (text, text->len - 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const float *
latent_family_components (LatentSnapshot *snapshot,
                          guint          *n)
{
  const LatentFamilyClass *klass;
  const float *rows = NULL;
  guint count = 0;

  g_return_val_if_fail (snapshot != NULL, NULL);

  klass = class_of (snapshot);
  if (klass->components)
    rows = klass->components (snapshot, &count);
  if (n)
    *n = count;
  return rows;
}

const LatentExamples *
latent_family_examples (LatentSnapshot *snapshot)
{
  static const LatentExamples none;
  const LatentFamilyClass *klass;

  g_return_val_if_fail (snapshot != NULL, &none);

  klass = class_of (snapshot);
  return klass->examples ? klass->examples (snapshot) : &none;
}

const LatentEpochs *
latent_family_epochs (LatentSnapshot *snapshot)
{
  static const LatentEpochs none;
  const LatentFamilyClass *klass;

  g_return_val_if_fail (snapshot != NULL, &none);

  klass = class_of (snapshot);
  return klass->epochs ? klass->epochs (snapshot) : &none;
}

gboolean
latent_family_has_encoder (LatentSnapshot *snapshot)
{
  const LatentFamilyClass *klass;

  g_return_val_if_fail (snapshot != NULL, FALSE);

  klass = class_of (snapshot);
  return klass->has_encoder ? klass->has_encoder (snapshot) : FALSE;
}
