/* latent-figure-kinds.c — the dispatcher: which figures there are, which
 * of them fit a snapshot, and drawing one
 *
 * Which kinds an algorithm has comes from its figures list; what this file
 * adds is what the data allow (images need rows that are images, a biplot
 * few columns). The table below is the one place a kind is named, titled
 * and drawn.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-kinds"

#include "latent-figure-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

G_DEFINE_QUARK (latent-figure-error-quark, latent_figure_error)

/* What the data must be for a kind, beyond the algorithm offering it. */
typedef gboolean (*AppliesFunc) (LatentSnapshot  *snapshot,
                                 GError         **error);

static gboolean applies_images (LatentSnapshot *snapshot, GError **error);
static gboolean applies_with_data (LatentSnapshot *snapshot, GError **error);
static gboolean applies_biplot (LatentSnapshot *snapshot, GError **error);

static const struct {
  const char           *name;      /* latent-cli --figure, PNG metadata */
  const char           *title;     /* for a person */
  LatentFigureDrawFunc  draw;
  AppliesFunc           applies;   /* NULL: any data */
  /* Why the kind does not apply to an algorithm that does not offer it;
   * %s is the kind's title. */
  const char           *only_for;
} kinds[LATENT_FIGURE_N_KINDS] = {
  [LATENT_FIGURE_AUTO] = { "auto", N_("Automatic") },
  [LATENT_FIGURE_SCATTER] = { "scatter", N_("Scatter"), _latent_figure_scatter_draw },
  [LATENT_FIGURE_IMAGES] = { "images", N_("Images"), _latent_figure_images_draw, applies_images },
/* Translators: the first %s is a figure, such as "Scree plot". */
#define LINEAR_ONLY N_("%s: only for PCA, probabilistic PCA and factor analysis")
  [LATENT_FIGURE_SCREE] = { "scree", N_("Scree plot"), _latent_figure_scree_draw,
                            applies_with_data, LINEAR_ONLY },
  [LATENT_FIGURE_COMPONENTS] = { "components", N_("Components"), _latent_figure_components_draw,
                                 applies_with_data, LINEAR_ONLY },
  [LATENT_FIGURE_BIPLOT] = { "biplot", N_("Biplot"), _latent_figure_biplot_draw,
                             applies_biplot, LINEAR_ONLY },
  [LATENT_FIGURE_RECONSTRUCTIONS] = { "reconstructions", N_("Reconstructions"),
                                      _latent_figure_reconstructions_draw, applies_with_data, LINEAR_ONLY },
  [LATENT_FIGURE_SAMPLES] = { "samples", N_("Samples"), _latent_figure_samples_draw,
                              applies_with_data, LINEAR_ONLY },
  [LATENT_FIGURE_DOTS] = { "dots", N_("Component dot products"), _latent_figure_dots_draw,
                           applies_with_data, LINEAR_ONLY },
#undef LINEAR_ONLY
/* Translators: the first %s is a figure, such as "Kernel". */
#define FILTER_ONLY N_("%s: only for a convolution filter")
  [LATENT_FIGURE_FILTER] = { "filter", N_("Filter"), _latent_figure_filter_draw, NULL, FILTER_ONLY },
  [LATENT_FIGURE_KERNEL] = { "kernel", N_("Kernel"), _latent_figure_kernel_draw, NULL, FILTER_ONLY },
#undef FILTER_ONLY
};

gboolean
_latent_figure_is_linear (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_LINEAR;
}

gboolean
_latent_figure_dataset_has_image_rows (LatentDataset *dataset)
{
  guint w, h, c;
  gboolean single;

  if (dataset == NULL || !latent_dataset_get_image_shape (dataset, &w, &h, &c, &single))
    return FALSE;
  return !single && (guint64) w * h * c == latent_dataset_get_n_cols (dataset);
}

static gboolean
offers (LatentSnapshot   *snapshot,
        LatentFigureKind  kind)
{
  return latent_algorithm_offers_figure (snapshot->algorithm, kinds[kind].name);
}

/* A model whose images are its components shows them for IMAGES. */
static gboolean
offers_images (LatentSnapshot *snapshot)
{
  return offers (snapshot, LATENT_FIGURE_IMAGES) || offers (snapshot, LATENT_FIGURE_COMPONENTS);
}

gboolean
_latent_figure_names_kind (LatentSnapshot *snapshot)
{
  const char * const *figures = snapshot->algorithm->figures;

  for (guint i = 0; figures != NULL && figures[i] != NULL; i++)
    if (!g_str_equal (figures[i], kinds[LATENT_FIGURE_SCATTER].name)
        && !g_str_equal (figures[i], kinds[LATENT_FIGURE_IMAGES].name))
      return TRUE;
  return FALSE;
}

/* The algorithm's first figure, the one a person sees unless the data are images. */
static LatentFigureKind
first_kind (LatentSnapshot *snapshot)
{
  const char * const *figures = snapshot->algorithm->figures;
  LatentFigureKind kind;

  if (figures != NULL && figures[0] != NULL && latent_figure_kind_from_string (figures[0], &kind)
      && kind != LATENT_FIGURE_AUTO)
    return kind;
  return LATENT_FIGURE_SCATTER;
}

LatentFigureKind
latent_figure_resolve_kind (LatentSnapshot   *snapshot,
                            LatentFigureKind  kind)
{
  gboolean images;

  g_return_val_if_fail (snapshot != NULL, LATENT_FIGURE_SCATTER);

  images = _latent_figure_dataset_has_image_rows (snapshot->dataset);
  /* A filtered image has its own figures; the others say why not. */
  if (kind == LATENT_FIGURE_AUTO && latent_figure_is_filter (snapshot))
    return LATENT_FIGURE_FILTER;
  switch (kind)
    {
    case LATENT_FIGURE_AUTO:
      /* Image rows are best seen as images, where the algorithm has them. */
      if (images && offers_images (snapshot))
        return latent_figure_resolve_kind (snapshot, LATENT_FIGURE_IMAGES);
      return first_kind (snapshot);
    case LATENT_FIGURE_IMAGES:
      /* Rows that are not images can only be shown as points; the images of
       * a linear model are its components. */
      if (!images)
        return LATENT_FIGURE_SCATTER;
      if (!offers (snapshot, LATENT_FIGURE_IMAGES) && offers (snapshot, LATENT_FIGURE_COMPONENTS))
        return LATENT_FIGURE_COMPONENTS;
      return LATENT_FIGURE_IMAGES;
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

static gboolean
applies_with_data (LatentSnapshot  *snapshot,
                   GError         **error)
{
  if (snapshot->dataset != NULL)
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("No data"));
  return FALSE;
}

static gboolean
applies_images (LatentSnapshot  *snapshot,
                GError         **error)
{
  if (!applies_with_data (snapshot, error))
    return FALSE;
  if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               _("The rows of this dataset are not images"));
  return FALSE;
}

static gboolean
applies_biplot (LatentSnapshot  *snapshot,
                GError         **error)
{
  guint n_cols;

  if (!applies_with_data (snapshot, error))
    return FALSE;
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (n_cols > LATENT_FIGURE_BIPLOT_MAX_COLS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: one arrow per column is readable up to %u columns; this dataset has %u"),
                   LATENT_FIGURE_BIPLOT_MAX_COLS, n_cols);
      return FALSE;
    }
  if (n_cols < 2 || (snapshot->components && snapshot->n_components < 2))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: needs two components or more"));
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_figure_kind_applies (LatentSnapshot    *snapshot,
                            LatentFigureKind   kind,
                            GError           **error)
{
  const char *title;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (kind == LATENT_FIGURE_AUTO)
    return TRUE;
  if (kind == LATENT_FIGURE_IMAGES ? offers_images (snapshot) : offers (snapshot, kind))
    return kinds[kind].applies == NULL || kinds[kind].applies (snapshot, error);

  title = latent_figure_kind_get_title (kind, snapshot);
  if (latent_figure_is_filter (snapshot))
    /* Translators: the first %s is a figure, such as "Scatter". */
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                 _("%s: not for a convolution filter, whose figures are the filter and the kernel"), title);
  else if (kinds[kind].only_for != NULL)
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _(kinds[kind].only_for), title);
  else
    /* Translators: a figure, then an algorithm: "Images: not offered by k-means". */
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("%s: not offered by %s"),
                 title, _(snapshot->algorithm->short_title));
  return FALSE;
}

guint
latent_figure_list_kinds (LatentSnapshot   *snapshot,
                          LatentFigureKind *out)
{
  const char * const *figures;
  guint n = 0;

  g_return_val_if_fail (snapshot != NULL, 0);
  g_return_val_if_fail (out != NULL, 0);

  /* In the algorithm's order. A kind that resolves to another (images of a
   * linear model are its components) would be offered twice. */
  figures = snapshot->algorithm->figures;
  for (guint i = 0; figures != NULL && figures[i] != NULL; i++)
    {
      LatentFigureKind kind;

      if (latent_figure_kind_from_string (figures[i], &kind) && kind != LATENT_FIGURE_AUTO
          && latent_figure_resolve_kind (snapshot, kind) == kind
          && latent_figure_kind_applies (snapshot, kind, NULL))
        out[n++] = kind;
    }
  return n;
}

char *
latent_figure_dup_title (LatentSnapshot *snapshot)
{
  GString *s;

  g_return_val_if_fail (snapshot != NULL, NULL);

  s = g_string_new (_(snapshot->algorithm->short_title));
  if (latent_figure_is_filter (snapshot))
    {
      g_autofree char *filter = latent_figure_filter_describe (snapshot);
      guint passes = _latent_figure_filter_passes (snapshot);

      if (filter)
        g_string_append_printf (s, " · %s", filter);
      /* Every pass is an iteration; "converged" would say nothing more. */
      if (passes > 0)
        g_string_append_printf (s, _(" · pass %u of %u"), snapshot->iteration, passes);
      else
        g_string_append_printf (s, _(" · pass %u"), snapshot->iteration);
      return g_string_free (s, FALSE);
    }
  if (snapshot->k > 0)
    g_string_append_printf (s, " · K = %u", snapshot->k);
  else if (snapshot->components != NULL && snapshot->n_components > 0 && latent_algorithm_has_flag (snapshot->algorithm, LATENT_ALGORITHM_FACTORS))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u factor", " · %u factors",
                                            snapshot->n_components),
                            snapshot->n_components);
  else if (snapshot->components != NULL && snapshot->n_components > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, " · %u component", " · %u components",
                                            snapshot->n_components),
                            snapshot->n_components);
  g_string_append_printf (s, _(" · iteration %u"), snapshot->iteration);
  if (snapshot->converged)
    g_string_append (s, _(" · converged"));
  return g_string_free (s, FALSE);
}


void
_latent_figure_render_kind (LatentSnapshot          *snapshot,
                            LatentFigureKind         kind,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            int                      width,
                            int                      height)
{
  g_autoptr(GError) error = NULL;
  gboolean applies;
  double top;

  g_return_if_fail (kind > LATENT_FIGURE_AUTO && kind < LATENT_FIGURE_N_KINDS);

  applies = latent_figure_kind_applies (snapshot, kind, &error);
  cairo_save (cr);
  _latent_figure_paint_background (cr, style, width, height);
  /* A figure that does not apply says which it is, whatever the algorithm. */
  top = _latent_figure_header (cr, snapshot, style, width,
                               !applies || _latent_figure_names_kind (snapshot)
                               ? latent_figure_kind_get_title (kind, snapshot) : NULL);
  if (!applies)
    _latent_figure_message (cr, style, width, height, error->message);
  else
    kinds[kind].draw (snapshot, style, cr, top, width, height);
  cairo_restore (cr);
}

void
latent_figure_render (LatentSnapshot          *snapshot,
                      LatentFigureKind         kind,
                      const LatentFigureStyle *style,
                      cairo_t                 *cr,
                      int                      width,
                      int                      height)
{
  g_return_if_fail (snapshot != NULL);
  g_return_if_fail (style != NULL);
  g_return_if_fail (cr != NULL);

  _latent_figure_render_kind (snapshot, latent_figure_resolve_kind (snapshot, kind), style, cr, width, height);
}
