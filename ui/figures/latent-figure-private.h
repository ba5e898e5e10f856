/* latent-figure-private.h — what the figures share and views never call
 *
 * Drawing helpers and what a snapshot is called (latent-figure-draw.c), the
 * figure kinds' rows and their dispatcher (latent-figure-kinds.c), image tiles
 * (latent-figure-tiles.c) and the scatter's extras for other figures
 * (latent-figure-scatter.c). Figure files include this header; it includes
 * no figure file's header.
 *
 * Calls go one way, so no two files call each other: latent-figure-draw.c
 * and latent-palette.c call no other figure file; the tiles call them; the
 * figures call those three (the biplot also the scatter's extras, the filter
 * figure the kernel figure's helpers); the dispatcher (latent-figure-kinds.c)
 * calls the figures; export calls the dispatcher and the sweep. The
 * autoencoder's weights also draw the heat map of the linear matrices.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-figure.h"
#include "latent-family.h"

G_BEGIN_DECLS

/* Text and colour (latent-figure-draw.c) ----------------------------------- */

cairo_t         *_latent_figure_measure_context (const LatentFigureStyle *style);
void             _latent_figure_set_font       (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   scale,
                                                gboolean                 bold);
void             _latent_figure_paint_background (cairo_t               *cr,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height);
/* The source set to background + (foreground − background) × strength. */
void             _latent_figure_set_color_mix  (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   strength);
double           _latent_figure_text_width     (cairo_t                 *cr,
                                                const char              *text);
/* Text at the current point, in the current source and font, as
 * cairo_show_text () draws it; kept as text in SVG (latent-figure-text.c). */
void             _latent_figure_show_text      (cairo_t                 *cr,
                                                const char              *text);
/* The same over a halo: the glyphs' outline stroked @halo_width wide. */
void             _latent_figure_show_halo_text (cairo_t                 *cr,
                                                const char              *text,
                                                double                   r,
                                                double                   g,
                                                double                   b,
                                                double                   alpha,
                                                double                   halo_width);
/* On @surface (an SVG surface), text is appended to @elements as SVG
 * <text> elements instead of drawn ... */
void             _latent_figure_keep_text      (cairo_surface_t         *surface,
                                                GString                 *elements);
/* ... which go on top of the finished document @svg. FALSE when @svg has
 * no end tag. */
gboolean         _latent_figure_insert_text    (GByteArray              *svg,
                                                GString                 *elements);
/* A label in the current source over a halo of the background. */
void             _latent_figure_halo_text      (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   x,
                                                double                   y,
                                                const char              *text);
/* @message centred in the figure, wrapped to its width. */
void             _latent_figure_message        (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                const char              *message);

/* What a snapshot is, and its names (latent-figure-draw.c) ----------------- */

/* The snapshot's results are a linear model's (PCA, PPCA, FA). */
gboolean         _latent_figure_is_linear      (LatentSnapshot          *snapshot);
gboolean         _latent_figure_dataset_has_image_rows (LatentDataset  *dataset);

/* A linear model's share of the variance along component @index, NaN if unknown. */
double           _latent_figure_linear_ratio   (LatentSnapshot          *snapshot,
                                                guint                    index);
/* Factor analysis: its components are called factors. */
gboolean         _latent_figure_linear_is_fa   (LatentSnapshot          *snapshot);
/* Asked to whiten its coordinates (unit variance along each axis): only
 * PCA has the parameter. */
gboolean         _latent_figure_linear_whitened (LatentSnapshot         *snapshot);
/* The snapshot's components fit its dataset: n_components rows of n_cols. */
gboolean         _latent_figure_linear_has_components (LatentSnapshot   *snapshot);
/* "PC 1", "W 1" (PPCA) or "Factor 1" (FA). */
char            *_latent_figure_linear_component_name (LatentSnapshot   *snapshot,
                                                guint                    index);
/* "PC 1 · 29.1 %", or the name alone without a ratio. */
char            *_latent_figure_linear_component_caption (LatentSnapshot *snapshot,
                                                guint                    index);
/* "Component 1 (72.8 %)", "Factor 2 (…)": axis @axis of the latent space;
 * @whitened adds so when the snapshot's coordinates are whitened. */
char            *_latent_figure_linear_axis_label (LatentSnapshot       *snapshot,
                                                guint                    axis,
                                                gboolean                 whitened);

/* A classifier's snapshot with its classes and n_classes rows of
 * components that fit its dataset. */
gboolean         _latent_figure_classifier_has_model (LatentSnapshot    *snapshot);
/* The true class of test row @i (an index into test_rows), −1 unknown. */
gint32           _latent_figure_test_label     (LatentSnapshot          *snapshot,
                                                guint                    i);
/* A legend's swatch and name, drawn left to right from (x, baseline);
 * returns the x after it, or @x unchanged when it would pass @right. */
double           _latent_figure_legend_entry   (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   x,
                                                double                   baseline,
                                                double                   right,
                                                double                   r,
                                                double                   g,
                                                double                   b,
                                                const char              *name);
/* A cross (×) of @size centred on (x, y), in the current source. */
void             _latent_figure_cross          (cairo_t                 *cr,
                                                double                   x,
                                                double                   y,
                                                double                   size,
                                                double                   line);

/* Headers (latent-figure-draw.c) ------------------------------------------- */

/* A bold title and up to two lines under it (NULL ones left out), each cut
 * to the width; returns the y below them. Draws only when @cr is not NULL,
 * so layout code can ask for the height alone. */
/* Values in [0, 1] (@channels of them a pixel: grey, grey and alpha, RGB,
 * RGBA) as an image surface; NULL where Cairo cannot make one. */
cairo_surface_t *_latent_figure_values_surface (const float *values,
                                                guint        width,
                                                guint        height,
                                                guint        channels);
double           _latent_figure_heading        (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                const char              *title,
                                                const char              *line,
                                                const char              *second_line);
/* A snapshot's heading: @figure (the figure's name, or NULL), the run's
 * title, the dataset line and the metrics line. Its height does not depend
 * on @figure. */
double           _latent_figure_header         (cairo_t                 *cr,
                                                LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                const char              *figure);

/* Axes (latent-figure-draw.c) ---------------------------------------------- */

/* Round tick values for an axis from lo to hi, about @target of them. */
#define _LATENT_FIGURE_MAX_TICKS 16
typedef struct {
  double values[_LATENT_FIGURE_MAX_TICKS];
  guint  n;
  int    decimals;
} LatentFigureTicks;

void             _latent_figure_nice_ticks     (double                   lo,
                                                double                   hi,
                                                double                   target,
                                                LatentFigureTicks       *ticks);
/* "−1.5", "2e+06": a typographic minus, exponents past a million. */
void             _latent_figure_format_tick    (double                   value,
                                                int                      decimals,
                                                char                    *buf,
                                                gsize                    size);

/* One side of a plot's frame: marks at positions along it, each labelled. */
typedef struct {
  guint               n;
  const double       *at;       /* n positions in figure units, unrounded */
  const char * const *labels;   /* n labels (a NULL one is left out), or NULL */
  gboolean            grid;     /* a faint line across the plot at each mark */
  const char         *title;    /* what the axis shows, or NULL */
  double              room;     /* right side: the width its labels were
                                 * given; its title stands beyond it */
} LatentFigureAxis;

/* A plot's frame and the axes on three of its sides. */
typedef struct {
  double           x, y, width, height;  /* the plot, inside its frame */
  double           tick;                 /* the marks' length; 0 draws none */
  double           label_scale;          /* tick labels' font size, × the style's */
  double           label_rise;           /* left and right labels' baseline below
                                          * their mark, × the font size */
  LatentFigureAxis left, right, bottom;
} LatentFigureAxes;

/* Fills @axes with the usual plot: marks of f × 0.4, labels at 0.9 of the
 * font, no sides. */
void             _latent_figure_axes_init      (LatentFigureAxes        *axes,
                                                const LatentFigureStyle *style,
                                                double                   x,
                                                double                   y,
                                                double                   width,
                                                double                   height);
/* The faint lines across the plot, under what it shows. */
void             _latent_figure_draw_grid      (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                const LatentFigureAxes  *axes);
/* The frame, the marks, their labels and the axes' titles: the left title
 * reads upwards by the figure's left edge, the right one downwards. */
void             _latent_figure_draw_axes      (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                const LatentFigureAxes  *axes);
/* How a tick's value is written, as _latent_figure_format_tick () does. */
typedef void (*LatentFigureTickFormat) (double  value,
                                        int     decimals,
                                        char   *buf,
                                        gsize   size);
/* The labels of @ticks, each written by @format (NULL:
 * _latent_figure_format_tick ()); free with g_strfreev (). */
GStrv            _latent_figure_tick_labels    (const LatentFigureTicks *ticks,
                                                LatentFigureTickFormat   format);

/* Kinds and the dispatcher (latent-figure-kinds.c) ------------------------- */

/* What a figure draws below the header the dispatcher drew, at @top; only
 * called when the kind applies to the snapshot. */
typedef void (*LatentFigureDrawFunc) (LatentSnapshot          *snapshot,
                                      const LatentFigureStyle *style,
                                      cairo_t                 *cr,
                                      double                   top,
                                      int                      width,
                                      int                      height);

/* The tile of a figure of tiles under figure position (@x, @y), -1 for
 * none; for a tile, @text (may be NULL) gets what it is ("cluster 3 · n =
 * 412") and @image (may be NULL) the tile's image @size pixels on its
 * longer side, each value a block of pixels. Laid out as @kind's draw
 * lays it out under @top; one function serves a file's kinds. */
typedef gint64 (*LatentFigurePickFunc) (LatentSnapshot          *snapshot,
                                        LatentFigureKind         kind,
                                        const LatentFigureStyle *style,
                                        double                   top,
                                        int                      width,
                                        int                      height,
                                        double                   x,
                                        double                   y,
                                        int                      size,
                                        char                   **text,
                                        cairo_surface_t        **image);

/* What the data must be for a kind, beyond the algorithm offering it. */
typedef gboolean (*LatentFigureAppliesFunc) (LatentSnapshot  *snapshot,
                                             GError         **error);

/* A kind as a figure file draws it. Each file in ui/meson.build's
 * figure_kind_files exports its rows as _latent_figure_<file>_kinds, ended
 * by a row of kind AUTO, and the dispatcher walks them; so a new kind is
 * its enum value, its file and that list's line. A kind drawn differently
 * by two families (weights, curves) has a row per family; its name is its
 * enum value's nick (latent-figure-enum-types.h). */
typedef struct {
  LatentFigureKind         kind;
  const char              *title;       /* N_(): for a person */
  LatentFigureDrawFunc     draw;
  LatentFigureAppliesFunc  applies;     /* NULL: any data */
  LatentFigurePickFunc     pick;        /* NULL: no tiles to pick */
  /* Few algorithms offer the kind: asked of another, it names those that
   * do rather than saying the one asked does not. */
  gboolean                 only_some;
  /* Whether the figure plots the rows on two of the data's columns, which
   * Across and Up then choose; NULL: it does not. */
  gboolean               (*uses_axes) (LatentSnapshot *snapshot);
  /* The row is the kind of that family's snapshots only. */
  gboolean                 per_family;
  LatentFamily             family;
} LatentFigureKindRow;

/* Background, header, then the kind's figure or why it does not apply; the
 * kind as it is, unresolved (latent_figure_render () resolves it first). */
void             _latent_figure_render_kind    (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
/* Whether figure titles name the figure: the algorithm offers more than the
 * scatter and the images of its data, so a person needs telling which. */
gboolean         _latent_figure_names_kind     (LatentSnapshot          *snapshot);
/* The kinds that need only data ("No data" otherwise). */
gboolean         _latent_figure_applies_with_data (LatentSnapshot       *snapshot,
                                                   GError              **error);

/* A linear model's loadings as a heat map (latent-figure-linear-matrices.c),
 * which its components figure draws for rows that are not images. */
void             _latent_figure_loadings_draw (LatentSnapshot          *snapshot,
                                               const LatentFigureStyle *style,
                                               cairo_t                 *cr,
                                               double                   top,
                                               int                      width,
                                               int                      height);
/* A matrix of values as a heat map on the diverging map, labelled rows and
 * columns, values printed where they fit, a colour bar and a note
 * (latent-figure-linear-matrices.c). */
typedef struct {
  guint         rows, cols;
  const double *values;       /* rows × cols */
  double        scale;        /* |value| at the ends of the colour map */
  const double *row_scales;   /* rows: each row's own scale instead, or NULL */
  char        **row_labels;
  char        **col_labels;
  int           decimals;     /* printed in the cells; −1 for none */
  char         *bar_low, *bar_high;
  const char   *note;         /* a line under the matrix, or NULL */
  double        min_cell_width; /* cells flatter than square, up to this wide
                                 * where there is room (many rows); 0: square */
} LatentFigureHeatmap;

/* FALSE, drawing nothing, when the cells would be under a pixel; @cells
 * (or NULL) gets the first cell's x, y and every cell's width and height.
 * With @cr NULL it only lays out: @cells then gets the room of each cell
 * before it is made square, however small, and FALSE means no room at all. */
gboolean         _latent_figure_heatmap_draw   (cairo_t                   *cr,
                                                const LatentFigureStyle   *style,
                                                const LatentFigureHeatmap *hm,
                                                double                     top,
                                                int                        width,
                                                int                        height,
                                                double                    *cells);
/* The snapshot clusters the pixels of one image (labels and means of its
 * channels), so the segments figure can draw it. */
gboolean         _latent_figure_has_segments (LatentSnapshot          *snapshot);

/* Titles (latent-figure-sweep.c) ------------------------------------------- */

/* "Model selection: BIC and AIC by K", translated. */
const char      *_latent_figure_sweep_title    (void);

/* Image tiles (latent-figure-tiles.c) -------------------------------------- */

/* A grid of cells, each @per_cell framed images side by side over a caption. */
typedef struct {
  guint  cols, rows;
  guint  per_cell;
  double tile_w, tile_h;   /* one image inside its frame */
  double frame;            /* frame line width */
  double inner;            /* between the images of one cell */
  double caption;          /* height under each cell, 0 when there is no room */
  double x0, y0;           /* top-left of the first image */
  double pitch_x, pitch_y; /* from one cell to the next */
} LatentFigureTileGrid;

/* The largest tiles for @n_cells cells of img_w × img_h images in the
 * rectangle; FALSE when they would be a pixel or less. */
gboolean         _latent_figure_tile_grid      (const LatentFigureStyle *style,
                                                guint                    img_w,
                                                guint                    img_h,
                                                guint                    n_cells,
                                                guint                    per_cell,
                                                double                   x,
                                                double                   y,
                                                double                   width,
                                                double                   height,
                                                LatentFigureTileGrid    *grid);
/* The cell (of the first @n_cells) whose first image lies under (@x, @y),
 * or -1. */
gint64           _latent_figure_tile_at        (const LatentFigureTileGrid *grid,
                                                guint                    n_cells,
                                                double                   x,
                                                double                   y);
/* @tile (img_w × img_h, taken) scaled to @size pixels on its longer side,
 * each value a block of pixels: what a small tile cannot show. */
cairo_surface_t *_latent_figure_enlarge_tile   (cairo_surface_t         *tile,
                                                int                      size);
/* Top-left of image @image (0 … per_cell − 1) of cell @cell. */
void             _latent_figure_tile_origin    (const LatentFigureTileGrid *grid,
                                                guint                    cell,
                                                guint                    image,
                                                double                  *x,
                                                double                  *y);
/* One range for a set of images (each n_values long), from their usual
 * scales (0–1, 0–255) so it does not jump between iterations. */
void             _latent_figure_image_range    (const float * const     *images,
                                                guint                    n_images,
                                                gsize                    n_values,
                                                double                  *lo,
                                                double                  *hi);
/* Grey (one or two channels) or colour, lo → black, hi → white. */
cairo_surface_t *_latent_figure_grey_tile      (const float             *values,
                                                guint                    width,
                                                guint                    height,
                                                guint                    channels,
                                                double                   lo,
                                                double                   hi);
/* −scale … 0 … +scale through the diverging map; channels are averaged. */
cairo_surface_t *_latent_figure_diverging_tile (const float             *values,
                                                guint                    width,
                                                guint                    height,
                                                guint                    channels,
                                                double                   scale,
                                                gboolean                 dark);
/* The image scaled into (x, y, w, h) without smoothing (smoothed when it
 * shrinks), framed in the current source colour (no frame when @frame is 0). */
void             _latent_figure_draw_tile      (cairo_t                 *cr,
                                                cairo_surface_t         *image,
                                                double                   x,
                                                double                   y,
                                                double                   width,
                                                double                   height,
                                                double                   frame);
/* Centred under a tile; @short_text replaces @text when it is too wide. */
void             _latent_figure_tile_caption   (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   x,
                                                double                   baseline,
                                                double                   width,
                                                const char              *text,
                                                const char              *short_text);
/* The diverging map as a bar, low end at the left (or bottom), with the
 * three labels at its ends and middle. */
void             _latent_figure_colorbar       (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   x,
                                                double                   y,
                                                double                   width,
                                                double                   height,
                                                const char              *low,
                                                const char              *middle,
                                                const char              *high);

/* The scatter with more on it (latent-figure-scatter.c), for the figures of
 * PCA, PPCA and FA --------------------------------------------------------- */

typedef struct {
  double x, y, width, height;      /* the plot, in figure units */
  double xmin, xmax, ymin, ymax;   /* the data window it shows */
} LatentFigurePlot;

typedef void (*LatentFigureOverlay) (cairo_t                 *cr,
                                     const LatentFigureStyle *style,
                                     const LatentFigurePlot  *plot,
                                     gpointer                 data);

typedef struct {
  const float         *points;     /* n_rows × 2, instead of the rows' coordinates */
  const float         *extra;      /* n_extra × 2, crosses the window also holds */
  guint                n_extra;
  const char          *extra_name; /* their legend entry */
  LatentFigureOverlay  overlay;    /* drawn last, clipped to the plot */
  gpointer             overlay_data;
} LatentScatterExtras;

/* The scatter below a header already drawn. */
void             _latent_figure_scatter_draw_extras (LatentSnapshot      *snapshot,
                                                const LatentFigureStyle *style,
                                                const LatentScatterExtras *extras,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);

/* "10,000,000 points as density (counts per pixel)": how a scatter of @n
 * points drawn as a density says so. */
char            *_latent_figure_density_note   (guint                    n);
/* How many density images have been binned in this process: tests check
 * that a draw with a fitting one bins none. */
guint            _latent_figure_density_n_binned (void);

/* Export (latent-figure-export.c) ----------------------------------------- */

/* Which of @extensions (".png", …, NULL-ended) @path's name ends in, in
 * any case; −1 when none. */
int              _latent_figure_extension_index (const char         *path,
                                                 const char * const *extensions);
/* @surface (ARGB32) as latent_figure_export () writes a PNG, with only
 * "Software" for metadata: through a temporary file beside @path, renamed. */
gboolean         _latent_figure_save_png_image (cairo_surface_t         *surface,
                                                const char              *path,
                                                GError                 **error);

G_END_DECLS
