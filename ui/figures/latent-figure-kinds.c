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
#include "latent-registry.h"

#include <glib/gi18n-lib.h>
#include <math.h>

G_DEFINE_QUARK (latent-figure-error-quark, latent_figure_error)

/* What the data must be for a kind, beyond the algorithm offering it. */
typedef gboolean (*AppliesFunc) (LatentSnapshot  *snapshot,
                                 GError         **error);

static gboolean applies_images (LatentSnapshot *snapshot, GError **error);
static gboolean applies_with_data (LatentSnapshot *snapshot, GError **error);
static gboolean applies_biplot (LatentSnapshot *snapshot, GError **error);
static gboolean applies_regions (LatentSnapshot *snapshot, GError **error);
static gboolean applies_segments (LatentSnapshot *snapshot, GError **error);

static gboolean
is_classifier (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_CLASSIFIER;
}

/* Weights and curves are an autoencoder's or a classifier's: one name,
 * two figures, by the family that made the snapshot. */
static void
draw_weights (LatentSnapshot          *snapshot,
              const LatentFigureStyle *style,
              cairo_t                 *cr,
              double                   top,
              int                      width,
              int                      height)
{
  if (is_classifier (snapshot))
    _latent_figure_class_weights_draw (snapshot, style, cr, top, width, height);
  else
    _latent_figure_weights_draw (snapshot, style, cr, top, width, height);
}

static void
draw_curves (LatentSnapshot          *snapshot,
             const LatentFigureStyle *style,
             cairo_t                 *cr,
             double                   top,
             int                      width,
             int                      height)
{
  if (is_classifier (snapshot))
    _latent_figure_classifier_curves_draw (snapshot, style, cr, top, width, height);
  else
    _latent_figure_curves_draw (snapshot, style, cr, top, width, height);
}

/* A linear model's components: images where the rows are images, a heat
 * map of the loadings otherwise. */
static void
draw_components (LatentSnapshot          *snapshot,
                 const LatentFigureStyle *style,
                 cairo_t                 *cr,
                 double                   top,
                 int                      width,
                 int                      height)
{
  /* Images of image rows; a heat map of loadings otherwise. */
  cairo_save (cr);
  if (!_latent_figure_linear_has_components (snapshot))
    _latent_figure_message (cr, style, width, height, _("No components in this snapshot yet"));
  else if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    _latent_figure_component_tiles_draw (snapshot, style, cr, top, width, height);
  else
    _latent_figure_loadings_draw (snapshot, style, cr, top, width, height);
  cairo_restore (cr);
}

static const struct {
  const char           *name;      /* latent-cli --figure, PNG metadata */
  const char           *title;     /* for a person */
  LatentFigureDrawFunc  draw;
  AppliesFunc           applies;   /* NULL: any data */
  /* Few algorithms offer the kind: asked of another, it names those that
   * do rather than saying the one asked does not. */
  gboolean              only_some;
} kinds[LATENT_FIGURE_N_KINDS] = {
  [LATENT_FIGURE_AUTO] = { "auto", N_("Automatic") },
  [LATENT_FIGURE_SCATTER] = { "scatter", N_("Scatter"), _latent_figure_scatter_draw },
  [LATENT_FIGURE_IMAGES] = { "images", N_("Images"), _latent_figure_images_draw, applies_images },
  [LATENT_FIGURE_SCREE] = { "scree", N_("Scree plot"), _latent_figure_scree_draw,
                            applies_with_data, TRUE },
  [LATENT_FIGURE_COMPONENTS] = { "components", N_("Components"), draw_components,
                                 applies_with_data, TRUE },
  [LATENT_FIGURE_BIPLOT] = { "biplot", N_("Biplot"), _latent_figure_biplot_draw,
                             applies_biplot, TRUE },
  [LATENT_FIGURE_RECONSTRUCTIONS] = { "reconstructions", N_("Reconstructions"),
                                      _latent_figure_reconstructions_draw, applies_with_data, TRUE },
  [LATENT_FIGURE_SAMPLES] = { "samples", N_("Samples"), _latent_figure_samples_draw,
                              applies_with_data, TRUE },
  [LATENT_FIGURE_DOTS] = { "dots", N_("Component dot products"), _latent_figure_dots_draw,
                           applies_with_data, TRUE },
  [LATENT_FIGURE_WEIGHTS] = { "weights", N_("Weights"), draw_weights,
                              applies_with_data, TRUE },
  [LATENT_FIGURE_WINNERS] = { "winners", N_("Weights by wins"), _latent_figure_winners_draw,
                              applies_with_data, TRUE },
  [LATENT_FIGURE_CURVES] = { "curves", N_("Training curves"), draw_curves, NULL, TRUE },
  [LATENT_FIGURE_FILTER] = { "filter", N_("Filter"), _latent_figure_filter_draw, NULL, TRUE },
  [LATENT_FIGURE_KERNEL] = { "kernel", N_("Kernel"), _latent_figure_kernel_draw, NULL, TRUE },
  [LATENT_FIGURE_CONFUSION] = { "confusion", N_("Confusion matrix"), _latent_figure_confusion_draw,
                                applies_with_data, TRUE },
  [LATENT_FIGURE_REGIONS] = { "regions", N_("Decision regions"), _latent_figure_regions_draw,
                              applies_regions, TRUE },
  [LATENT_FIGURE_PROTOTYPES] = { "prototypes", N_("Class means"), _latent_figure_prototypes_draw,
                                 applies_with_data, TRUE },
  [LATENT_FIGURE_EPISODE] = { "episode", N_("Episode"), _latent_figure_episode_draw, applies_with_data, TRUE },
  [LATENT_FIGURE_SEGMENTS] = { "segments", N_("Segments"), _latent_figure_segments_draw, applies_segments, TRUE },
};

static gboolean
offers (LatentSnapshot   *snapshot,
        LatentFigureKind  kind)
{
  return latent_algorithm_offers_figure (snapshot->algorithm, kinds[kind].name);
}

/* A model whose images are its components (or an autoencoder's, its
 * weights; prototypes, their class means) shows them for IMAGES. */
static gboolean
offers_images (LatentSnapshot *snapshot)
{
  return offers (snapshot, LATENT_FIGURE_IMAGES) || offers (snapshot, LATENT_FIGURE_COMPONENTS)
         || offers (snapshot, LATENT_FIGURE_WEIGHTS) || offers (snapshot, LATENT_FIGURE_PROTOTYPES);
}

gboolean
_latent_figure_names_kind (LatentSnapshot *snapshot)
{
  const char * const *figures = snapshot->algorithm->figures;

  /* Segments are a clustering's only for the pixels of one image. */
  for (guint i = 0; figures != NULL && figures[i] != NULL; i++)
    if (!g_str_equal (figures[i], kinds[LATENT_FIGURE_SCATTER].name)
        && !g_str_equal (figures[i], kinds[LATENT_FIGURE_IMAGES].name)
        && (!g_str_equal (figures[i], kinds[LATENT_FIGURE_SEGMENTS].name) || _latent_figure_has_segments (snapshot)))
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
      /* Image rows are best seen as images, where the algorithm has them;
       * a classifier is first seen learning, whatever its rows. */
      if (images && offers_images (snapshot) && !is_classifier (snapshot))
        return latent_figure_resolve_kind (snapshot, LATENT_FIGURE_IMAGES);
      /* One image's pixels, clustered: the image in its clusters' colours. */
      if (offers (snapshot, LATENT_FIGURE_SEGMENTS) && _latent_figure_has_segments (snapshot))
        return LATENT_FIGURE_SEGMENTS;
      return first_kind (snapshot);
    case LATENT_FIGURE_IMAGES:
      /* Rows that are not images can only be shown as points; the images of
       * a linear model are its components, an autoencoder's its weights. */
      if (!images)
        return LATENT_FIGURE_SCATTER;
      if (!offers (snapshot, LATENT_FIGURE_IMAGES) && offers (snapshot, LATENT_FIGURE_COMPONENTS))
        return LATENT_FIGURE_COMPONENTS;
      if (!offers (snapshot, LATENT_FIGURE_IMAGES) && offers (snapshot, LATENT_FIGURE_PROTOTYPES))
        return LATENT_FIGURE_PROTOTYPES;
      if (!offers (snapshot, LATENT_FIGURE_IMAGES) && offers (snapshot, LATENT_FIGURE_WEIGHTS))
        return LATENT_FIGURE_WEIGHTS;
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
  if (kind == LATENT_FIGURE_WEIGHTS && snapshot != NULL && is_classifier (snapshot))
    return _("Class weights");
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
  guint n_cols, n_components;

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
  if (n_cols < 2 || (latent_family_components (snapshot, &n_components) && n_components < 2))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: needs two components or more"));
      return FALSE;
    }
  return TRUE;
}

/* Decision regions colour the plane of the data: two columns, no fewer
 * and no more (a projection's regions would not be the model's). */
static gboolean
applies_regions (LatentSnapshot  *snapshot,
                 GError         **error)
{
  guint n_cols;

  if (!applies_with_data (snapshot, error))
    return FALSE;
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (n_cols == 2)
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               g_dngettext (GETTEXT_PACKAGE,
                            "Decision regions: need data of 2 columns; this dataset has %u column",
                            "Decision regions: need data of 2 columns; this dataset has %u columns", n_cols),
               n_cols);
  return FALSE;
}

static gboolean
applies_segments (LatentSnapshot  *snapshot,
                  GError         **error)
{
  if (_latent_figure_has_segments (snapshot))
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               _("Segments: need clusters of one image's pixels (open a PNG)"));
  return FALSE;
}

/* "PCA, probabilistic PCA and factor analysis": the algorithms that offer
 * @kind, by their short titles; NULL when none does. */
static char *
dup_offered_by (LatentFigureKind kind)
{
  const LatentAlgorithm * const *all = latent_registry_list ();
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  char *list;

  for (guint i = 0; all[i] != NULL; i++)
    if (latent_algorithm_offers_figure (all[i], kinds[kind].name))
      g_ptr_array_add (titles, (gpointer) _(all[i]->short_title));
  if (titles->len == 0)
    return NULL;
  if (titles->len == 1)
    return g_strdup (g_ptr_array_index (titles, 0));
  /* Translators: the last two of a list of algorithms, such as
   * "probabilistic PCA and factor analysis"; any before them come with ", ". */
  list = g_strdup_printf (_("%s and %s"), (char *) g_ptr_array_index (titles, titles->len - 2),
                          (char *) g_ptr_array_index (titles, titles->len - 1));
  for (guint i = titles->len - 2; i-- > 0;)
    {
      char *longer = g_strconcat (g_ptr_array_index (titles, i), ", ", list, NULL);

      g_free (list);
      list = longer;
    }
  return list;
}

gboolean
latent_figure_kind_applies (LatentSnapshot    *snapshot,
                            LatentFigureKind   kind,
                            GError           **error)
{
  g_autofree char *offered_by = NULL;
  const char *title;

  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (kind == LATENT_FIGURE_AUTO)
    return TRUE;
  if (kind == LATENT_FIGURE_IMAGES ? offers_images (snapshot) : offers (snapshot, kind))
    return kinds[kind].applies == NULL || kinds[kind].applies (snapshot, error);

  title = latent_figure_kind_get_title (kind, snapshot);
  if (error != NULL && kinds[kind].only_some)
    offered_by = dup_offered_by (kind);
  if (latent_figure_is_filter (snapshot))
    /* Translators: the first %s is a figure, such as "Scatter". */
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                 _("%s: not for a convolution filter, whose figures are the filter and the kernel"), title);
  else if (offered_by != NULL)
    /* Translators: a figure, then the algorithms that offer it: "Scree plot:
     * only for PCA, probabilistic PCA and factor analysis". */
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("%s: only for %s"), title, offered_by);
  else
    /* Translators: a figure, then an algorithm: "Images: not offered by k-means". */
    g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("%s: not offered by %s"),
                 title, _(snapshot->algorithm->short_title));
  return FALSE;
}

gboolean
latent_figure_kind_uses_axes (LatentSnapshot   *snapshot,
                              LatentFigureKind  kind)
{
  g_return_val_if_fail (snapshot != NULL, FALSE);

  kind = latent_figure_resolve_kind (snapshot, kind);
  if (!latent_figure_kind_applies (snapshot, kind, NULL))
    return FALSE;
  /* A linear model's scatter is its own projection, not the data's view;
   * an episode of images (or none yet) plots no rows. */
  if (kind == LATENT_FIGURE_EPISODE)
    return _latent_figure_episode_plots_rows (snapshot);
  return kind == LATENT_FIGURE_SCATTER && !_latent_figure_is_linear (snapshot);
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
