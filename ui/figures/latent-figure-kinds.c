/* latent-figure-kinds.c — the dispatcher: which figures there are, which
 * of them fit a snapshot, and drawing one
 *
 * Which kinds an algorithm has comes from its figures list; what a kind
 * needs of the data (images need rows that are images, a biplot few
 * columns), its title and its drawing come from the figure file that draws
 * it (LatentFigureKindRow); this file picks the row and resolves AUTO.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-kinds"

#include "latent-figure-private.h"
#include "latent-figure-enum-types.h"
#include "latent-figure-kind-files.h"
#include "latent-registry.h"

#include <glib/gi18n-lib.h>
#include <math.h>

G_DEFINE_QUARK (latent-figure-error-quark, latent_figure_error)

static gboolean
is_classifier (LatentSnapshot *snapshot)
{
  return latent_snapshot_get_family (snapshot) == LATENT_FAMILY_CLASSIFIER;
}

/* Every figure file's rows (latent-figure-private.h), in ui/meson.build's order. */
#define DECLARE_ROWS(file) extern const LatentFigureKindRow _latent_figure_##file##_kinds[];
LATENT_FIGURE_KIND_FILES (DECLARE_ROWS)
#define LIST_ROWS(file) _latent_figure_##file##_kinds,
static const LatentFigureKindRow *const files[] = { LATENT_FIGURE_KIND_FILES (LIST_ROWS) };

/* The row that draws @kind for @snapshot's family: the family's own, else
 * one for any family; with @snapshot NULL, or no row for its family, the
 * first listed. NULL for a kind no file draws (AUTO). */
static const LatentFigureKindRow *
find_row (LatentFigureKind  kind,
          LatentSnapshot   *snapshot)
{
  const LatentFigureKindRow *first = NULL, *any = NULL;

  for (guint f = 0; f < G_N_ELEMENTS (files); f++)
    for (const LatentFigureKindRow *row = files[f]; row->kind != LATENT_FIGURE_AUTO; row++)
      {
        if (row->kind != kind)
          continue;
        if (snapshot != NULL && row->per_family && row->family == latent_snapshot_get_family (snapshot))
          return row;
        if (first == NULL)
          first = row;
        if (any == NULL && !row->per_family)
          any = row;
      }
  return any != NULL ? any : first;
}

static gboolean
offers (LatentSnapshot   *snapshot,
        LatentFigureKind  kind)
{
  return latent_algorithm_offers_figure (snapshot->algorithm, latent_figure_kind_to_string (kind));
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
    if (!g_str_equal (figures[i], latent_figure_kind_to_string (LATENT_FIGURE_SCATTER))
        && !g_str_equal (figures[i], latent_figure_kind_to_string (LATENT_FIGURE_IMAGES))
        && (!g_str_equal (figures[i], latent_figure_kind_to_string (LATENT_FIGURE_SEGMENTS)) || _latent_figure_has_segments (snapshot)))
      return TRUE;
  return FALSE;
}

/* The algorithm's first figure that fits the data (a network's decision
 * regions need two columns; on images its units come first), the one a
 * person sees unless the data are images; the first, if none fits. */
static LatentFigureKind
first_kind (LatentSnapshot *snapshot)
{
  const char * const *figures = snapshot->algorithm->figures;
  LatentFigureKind kind, first = LATENT_FIGURE_SCATTER;

  for (guint i = 0; figures != NULL && figures[i] != NULL; i++)
    if (latent_figure_kind_from_string (figures[i], &kind) && kind != LATENT_FIGURE_AUTO)
      {
        if (i == 0)
          first = kind;
        if (latent_figure_kind_applies (snapshot, kind, NULL))
          return kind;
      }
  return first;
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
  /* Kept for the program's life: the nicks are the names. */
  static GEnumClass *klass;

  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, NULL);

  if (g_once_init_enter (&klass))
    g_once_init_leave (&klass, g_type_class_ref (LATENT_TYPE_FIGURE_KIND));
  return g_enum_get_value (klass, kind)->value_nick;
}

gboolean
latent_figure_kind_from_string (const char       *name,
                                LatentFigureKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < LATENT_FIGURE_N_KINDS; i++)
    if (g_ascii_strcasecmp (name, latent_figure_kind_to_string (i)) == 0)
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
  const LatentFigureKindRow *row;

  g_return_val_if_fail (kind < LATENT_FIGURE_N_KINDS, NULL);

  if (kind == LATENT_FIGURE_SCATTER && snapshot != NULL && _latent_figure_is_linear (snapshot))
    return _("Projection");
  /* A factor model's loadings are read as a table more than as images. */
  if (kind == LATENT_FIGURE_COMPONENTS && snapshot != NULL && _latent_figure_is_linear (snapshot)
      && !_latent_figure_dataset_has_image_rows (snapshot->dataset))
    return _("Loadings");
  if (kind == LATENT_FIGURE_AUTO)
    return _("Automatic");
  row = find_row (kind, snapshot);
  /* Every kind but AUTO has a row in some figure file. */
  g_return_val_if_fail (row != NULL, NULL);
  return _(row->title);
}

gboolean
_latent_figure_applies_with_data (LatentSnapshot  *snapshot,
                                  GError         **error)
{
  if (snapshot->dataset != NULL)
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND, _("No data"));
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
    if (latent_algorithm_offers_figure (all[i], latent_figure_kind_to_string (kind)))
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
    {
      const LatentFigureKindRow *row = find_row (kind, snapshot);

      return row->applies == NULL || row->applies (snapshot, error);
    }

  title = latent_figure_kind_get_title (kind, snapshot);
  if (error != NULL && find_row (kind, snapshot)->only_some)
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
  const LatentFigureKindRow *row;

  g_return_val_if_fail (snapshot != NULL, FALSE);

  kind = latent_figure_resolve_kind (snapshot, kind);
  if (!latent_figure_kind_applies (snapshot, kind, NULL))
    return FALSE;
  row = find_row (kind, snapshot);
  return row->uses_axes != NULL && row->uses_axes (snapshot);
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

gint64
latent_figure_tile_pick (LatentSnapshot          *snapshot,
                         LatentFigureKind         kind,
                         const LatentFigureStyle *style,
                         int                      width,
                         int                      height,
                         double                   x,
                         double                   y,
                         int                      size,
                         char                   **text,
                         cairo_surface_t        **image)
{
  const LatentFigureKindRow *row;

  g_return_val_if_fail (snapshot != NULL && style != NULL, -1);

  if (kind <= LATENT_FIGURE_AUTO || kind >= LATENT_FIGURE_N_KINDS
      || !latent_figure_kind_applies (snapshot, kind, NULL))
    return -1;
  row = find_row (kind, snapshot);
  if (row == NULL || row->pick == NULL)
    return -1;
  return row->pick (snapshot, kind, style, _latent_figure_header (NULL, snapshot, style, width, NULL), width, height,
                    x, y, size, text, image);
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
    find_row (kind, snapshot)->draw (snapshot, style, cr, top, width, height);
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
