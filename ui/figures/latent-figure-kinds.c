/* latent-figure-kinds.c — which figures there are, their names, and which
 * of them fit a snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-kinds"

#include "latent-figure.h"

#include <glib/gi18n-lib.h>

static const struct {
  const char *name;     /* latent-cli --figure, PNG metadata */
  const char *title;    /* for a person */
} kinds[LATENT_FIGURE_N_KINDS] = {
  [LATENT_FIGURE_AUTO] = { "auto", N_("Automatic") },
  [LATENT_FIGURE_SCATTER] = { "scatter", N_("Scatter") },
  [LATENT_FIGURE_IMAGES] = { "images", N_("Images") },
  [LATENT_FIGURE_SCREE] = { "scree", N_("Scree plot") },
  [LATENT_FIGURE_COMPONENTS] = { "components", N_("Components") },
  [LATENT_FIGURE_BIPLOT] = { "biplot", N_("Biplot") },
  [LATENT_FIGURE_RECONSTRUCTIONS] = { "reconstructions", N_("Reconstructions") },
  [LATENT_FIGURE_SAMPLES] = { "samples", N_("Samples") },
  [LATENT_FIGURE_DOTS] = { "dots", N_("Component dot products") },
  [LATENT_FIGURE_FILTER] = { "filter", N_("Filter") },
  [LATENT_FIGURE_KERNEL] = { "kernel", N_("Kernel") },
};

gboolean
_latent_figure_is_linear (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_LINEAR;
}

static gboolean
is_linear_kind (LatentFigureKind kind)
{
  return kind >= LATENT_FIGURE_SCREE && kind <= LATENT_FIGURE_DOTS;
}

static gboolean
is_filter_kind (LatentFigureKind kind)
{
  return kind == LATENT_FIGURE_FILTER || kind == LATENT_FIGURE_KERNEL;
}

LatentFigureKind
latent_figure_resolve_kind (LatentSnapshot   *snapshot,
                            LatentFigureKind  kind)
{
  gboolean images, linear;

  g_return_val_if_fail (snapshot != NULL, LATENT_FIGURE_SCATTER);

  images = _latent_figure_dataset_has_image_rows (snapshot->dataset);
  linear = _latent_figure_is_linear (snapshot);
  /* A filtered image has its own figures; the others say why not. */
  if (kind == LATENT_FIGURE_AUTO && latent_figure_is_filter (snapshot))
    return LATENT_FIGURE_FILTER;
  switch (kind)
    {
    case LATENT_FIGURE_AUTO:
      if (linear)
        return images ? LATENT_FIGURE_COMPONENTS : LATENT_FIGURE_SCATTER;
      return images ? LATENT_FIGURE_IMAGES : LATENT_FIGURE_SCATTER;
    case LATENT_FIGURE_IMAGES:
      /* Rows that are not images can only be shown as points; the images of
       * a linear model are its components. */
      if (!images)
        return LATENT_FIGURE_SCATTER;
      return linear ? LATENT_FIGURE_COMPONENTS : LATENT_FIGURE_IMAGES;
    case LATENT_FIGURE_N_KINDS:
      return LATENT_FIGURE_SCATTER;
    default:
      return kind;
    }
}

const char *
latent_figure_kind_to_string (LatentFigureKind kind)
{
  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, NULL);
  return kinds[kind].name;
}

gboolean
latent_figure_kind_from_string (const char       *name,
                                LatentFigureKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < LATENT_FIGURE_N_KINDS; i++)
    if (g_ascii_strcasecmp (name, kinds[i].name) == 0)
      {
        if (kind)
          *kind = i;
        return TRUE;
      }
  return FALSE;
}

char *
latent_figure_kind_dup_names (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < LATENT_FIGURE_N_KINDS; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", kinds[i].name);
  return g_string_free (s, FALSE);
}

const char *
latent_figure_kind_get_title (LatentFigureKind  kind,
                              LatentSnapshot   *snapshot)
{
  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, NULL);

  if (kind == LATENT_FIGURE_SCATTER && snapshot != NULL && _latent_figure_is_linear (snapshot))
    return _("Projection");
  /* A factor model's loadings are read as a table more than as images. */
  if (kind == LATENT_FIGURE_COMPONENTS && snapshot != NULL && _latent_figure_is_linear (snapshot)
      && !_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return _("Loadings");
  return _(kinds[kind].title);
}

gboolean
latent_figure_kind_applies (LatentSnapshot    *snapshot,
                            LatentFigureKind   kind,
                            GError           **error)
{
  gboolean linear, images;
  guint n_cols;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (kind == LATENT_FIGURE_AUTO)
    return TRUE;
  if (latent_figure_is_filter (snapshot) != is_filter_kind (kind))
    {
      if (is_filter_kind (kind))
        /* Translators: the first %s is a figure, such as "Kernel". */
        g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                     _("%s: only for a convolution filter"), latent_figure_kind_get_title (kind, snapshot));
      else
        /* Translators: the first %s is a figure, such as "Scatter". */
        g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                     _("%s: not for a convolution filter, whose figures are the filter and the kernel"),
                     latent_figure_kind_get_title (kind, snapshot));
      return FALSE;
    }
  if (kind == LATENT_FIGURE_SCATTER || is_filter_kind (kind))
    return TRUE;
  if (snapshot->dataset == NULL)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("No data"));
      return FALSE;
    }

  linear = _latent_figure_is_linear (snapshot);
  images = _latent_figure_dataset_has_image_rows (snapshot->dataset);
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (kind == LATENT_FIGURE_IMAGES)
    {
      if (images)
        return TRUE;
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("The rows of this dataset are not images"));
      return FALSE;
    }

  g_assert (is_linear_kind (kind));
  if (!linear)
    {
      /* Translators: the first %s is a figure, such as "Scree plot". */
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("%s: only for PCA, probabilistic PCA and factor analysis"),
                   latent_figure_kind_get_title (kind, snapshot));
      return FALSE;
    }
  if (kind == LATENT_FIGURE_BIPLOT && n_cols > LATENT_FIGURE_BIPLOT_MAX_COLS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: one arrow per column is readable up to %u columns; this dataset has %u"),
                   LATENT_FIGURE_BIPLOT_MAX_COLS, n_cols);
      return FALSE;
    }
  if (kind == LATENT_FIGURE_BIPLOT && (n_cols < 2 || (snapshot->components && snapshot->n_components < 2)))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: needs two components or more"));
      return FALSE;
    }
  return TRUE;
}

guint
latent_figure_list_kinds (LatentSnapshot   *snapshot,
                          LatentFigureKind *out)
{
  guint n = 0;

  g_return_val_if_fail (snapshot != NULL, 0);
  g_return_val_if_fail (out != NULL, 0);

  /* A kind that resolves to another (images of a linear model are its
   * components) would be offered twice. */
  for (LatentFigureKind kind = LATENT_FIGURE_SCATTER; kind < LATENT_FIGURE_N_KINDS; kind++)
    if (latent_figure_resolve_kind (snapshot, kind) == kind
        && latent_figure_kind_applies (snapshot, kind, NULL))
      out[n++] = kind;
  return n;
}
