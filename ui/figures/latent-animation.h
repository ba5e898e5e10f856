/* latent-animation.h — a run's frames recorded as an animation
 *
 * The format comes from the file's name:
 *
 *   .webm  VP8 in WebM, encoded by GStreamer (appsrc ! videoconvert !
 *          vp8enc ! webmmux ! filesink); width and height must be even.
 *   .gif   an animated GIF89a that loops, with one palette of at most 256
 *          colours chosen from all its frames (Latent's own encoder); its
 *          delays are in hundredths of a second, and viewers slow down
 *          those under two: at most LATENT_ANIMATION_MAX_GIF_FPS.
 *   .png   a numbered sequence beside the name: for "run.png" the files
 *          run-0001.png, run-0002.png, …, each as latent_figure_export ()
 *          writes a PNG (the same pixels).
 *
 * Frames are Cairo image surfaces of exactly the animation's size, given
 * one at a time, so a recording never keeps a run's snapshots. WebM and
 * GIF are written to a temporary file beside the name and renamed by
 * latent_animation_finish (): freed unfinished, nothing is left.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "latent-figure.h"

G_BEGIN_DECLS

typedef enum {
  LATENT_ANIMATION_WEBM,
  LATENT_ANIMATION_GIF,
  LATENT_ANIMATION_PNG,
} LatentAnimationFormat;

#define LATENT_ANIMATION_MAX_FPS 120
/* An animation's frames are whole images in memory, several at once while
 * encoding: at most this many pixels a side (VP8's own limit is 16383). */
#define LATENT_ANIMATION_MAX_SIDE 4096
#define LATENT_ANIMATION_MAX_GIF_FPS 50

typedef struct _LatentAnimation LatentAnimation;

/* The format @path's ending names; LATENT_FIGURE_ERROR_FORMAT naming
 * @path otherwise. */
gboolean          latent_animation_format_from_path (const char             *path,
                                                     LatentAnimationFormat  *format,
                                                     GError                **error);
/* What latent_animation_new () would refuse without touching the disk:
 * the name's ending (LATENT_FIGURE_ERROR_FORMAT), the size
 * (LATENT_FIGURE_ERROR_SIZE: LATENT_FIGURE_MIN_SIZE to
 * LATENT_ANIMATION_MAX_SIDE, even for WebM) and the frame rate (1 to
 * LATENT_ANIMATION_MAX_FPS, to LATENT_ANIMATION_MAX_GIF_FPS for GIF; also
 * LATENT_FIGURE_ERROR_SIZE). */
gboolean          latent_animation_check      (const char              *path,
                                               int                      width,
                                               int                      height,
                                               int                      fps,
                                               GError                 **error);
/* Checks as above, then opens the file (WebM, GIF) or checks that the
 * sequence's folder takes files (PNG); a G_IO_ERROR naming @path when it
 * cannot, LATENT_FIGURE_ERROR_ENCODE when GStreamer lacks an element. */
LatentAnimation  *latent_animation_new        (const char              *path,
                                               int                      width,
                                               int                      height,
                                               int                      fps,
                                               GError                 **error);
/* @image: CAIRO_FORMAT_ARGB32 or RGB24 of the animation's size. Shown for
 * 1 / fps s. After an error the animation takes no more frames. */
gboolean          latent_animation_add_frame  (LatentAnimation         *self,
                                               cairo_surface_t         *image,
                                               GError                 **error);
/* The figure of @snapshot drawn at the animation's size by the renderer
 * of latent_figure_export_scaled () (latent_figure_render_image (), laid
 * out at 1 / @scale of the size; 0 or 1: at the size), added. */
gboolean          latent_animation_add_snapshot (LatentAnimation       *self,
                                               LatentSnapshot          *snapshot,
                                               LatentFigureKind         kind,
                                               const LatentFigureStyle *style,
                                               double                   scale,
                                               GError                 **error);
/* Ends the stream (for WebM, waits until GStreamer has written all of it)
 * and puts the file in place. An animation of no frame is an error. */
gboolean          latent_animation_finish     (LatentAnimation         *self,
                                               GError                 **error);
void              latent_animation_free       (LatentAnimation         *self);

LatentAnimationFormat latent_animation_get_format (LatentAnimation     *self);
guint             latent_animation_get_n_frames (LatentAnimation       *self);
int               latent_animation_get_fps    (LatentAnimation         *self);
/* n_frames / fps, in seconds. */
double            latent_animation_get_duration (LatentAnimation       *self);
/* The @index-th file (from 1) of the PNG sequence named @path:
 * "run.png", 3 → "run-0003.png". */
char             *latent_animation_dup_frame_path (const char          *path,
                                               guint                    index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentAnimation, latent_animation_free)

G_END_DECLS
