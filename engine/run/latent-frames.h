/* latent-frames.h — the snapshots a run's timeline can go back to
 *
 * A run hands over a snapshot now and then; LatentFrames keeps them, in
 * iteration order, within a byte budget, and finds the one to show for an
 * iteration. It knows no widget: a timeline binds to its properties, and a
 * test drives it without a display.
 *
 * Over the budget, the oldest frames after the first go: the initial state
 * and the newest frame always stay, whatever they weigh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* Snapshots kept for the timeline, by the memory their copies take. */
#define LATENT_FRAMES_DEFAULT_BUDGET ((guint64) 96 << 20)

#define LATENT_TYPE_FRAMES (latent_frames_get_type ())
G_DECLARE_FINAL_TYPE (LatentFrames, latent_frames, LATENT, FRAMES, GObject)

/* Properties, each notified when it changes:
 *   n-frames (guint)          — frames kept;
 *   newest-iteration (guint)  — the last frame's iteration, 0 when none;
 *   bytes (guint64)           — what the frames kept weigh
 *                               (latent_snapshot_get_size ());
 *   budget (guint64)          — the most bytes kept while more than two
 *                               frames are; writable;
 *   follow (gboolean)         — whoever shows the frames shows the newest,
 *                               as each arrives; TRUE again after a clear
 *                               or a truncation. */
LatentFrames    *latent_frames_new                  (void);

/* Keeps a reference to @frame, the newest, then drops the oldest but the
 * first while the frames weigh more than the budget. */
void             latent_frames_add                  (LatentFrames   *self,
                                                     LatentSnapshot *frame);
/* Drops every frame. */
void             latent_frames_clear                (LatentFrames   *self);
/* Drops the frames from @iteration on: going on from there, a new run
 * brings them again. */
void             latent_frames_truncate             (LatentFrames   *self,
                                                     guint           iteration);

guint            latent_frames_get_n_frames         (LatentFrames   *self);
/* The frame at @index, oldest first; NULL past the end. */
LatentSnapshot  *latent_frames_get                  (LatentFrames   *self,
                                                     guint           index);
/* The frames, oldest first, for as long as nothing is added or dropped. */
LatentSnapshot **latent_frames_peek                 (LatentFrames   *self,
                                                     guint          *n_frames);
LatentSnapshot  *latent_frames_get_newest           (LatentFrames   *self);
guint            latent_frames_get_newest_iteration (LatentFrames   *self);
guint64          latent_frames_get_bytes            (LatentFrames   *self);
guint64          latent_frames_get_budget           (LatentFrames   *self);
/* A lower budget drops frames at once, as latent_frames_add () would. */
void             latent_frames_set_budget           (LatentFrames   *self,
                                                     guint64         budget);
gboolean         latent_frames_get_follow           (LatentFrames   *self);
void             latent_frames_set_follow           (LatentFrames   *self,
                                                     gboolean        follow);

/* The frame to show for @iteration: the newest not after it, or the first
 * when all are after it; NULL when there are none. */
LatentSnapshot  *latent_frames_at                   (LatentFrames   *self,
                                                     guint           iteration);
/* How many frames come before @iteration: the index of the first frame at
 * or after it (n-frames when none is). */
guint            latent_frames_index_of             (LatentFrames   *self,
                                                     guint           iteration);
/* The frame kept before @iteration, or NULL. */
LatentSnapshot  *latent_frames_before               (LatentFrames   *self,
                                                     guint           iteration);
/* The first frame kept after @iteration, or NULL. */
LatentSnapshot  *latent_frames_after                (LatentFrames   *self,
                                                     guint           iteration);

G_END_DECLS
