/* latent-frames.c — the snapshots a run's timeline can go back to
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-frames"

#include "latent-frames.h"

struct _LatentFrames
{
  GObject    parent_instance;

  GPtrArray *frames;    /* LatentSnapshot, by iteration */
  guint64    bytes;
  guint64    budget;
  gboolean   follow;
};

G_DEFINE_TYPE (LatentFrames, latent_frames, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_N_FRAMES,
  PROP_NEWEST_ITERATION,
  PROP_BYTES,
  PROP_BUDGET,
  PROP_FOLLOW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What a change of the frames may have changed; callers freeze
 * notifications around it, so that a change says so once. */
typedef struct {
  guint   n_frames;
  guint   newest;
  guint64 bytes;
} Seen;

static Seen
seen (LatentFrames *self)
{
  return (Seen) { self->frames->len, latent_frames_get_newest_iteration (self), self->bytes };
}

static void
notify_changes (LatentFrames *self,
                Seen          before)
{
  Seen now = seen (self);

  if (now.n_frames != before.n_frames)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_FRAMES]);
  if (now.newest != before.newest)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEWEST_ITERATION]);
  if (now.bytes != before.bytes)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BYTES]);
}

/* Over budget: drop the oldest, but keep the initial state (the first
 * frame) and the newest, which is what a timeline shows while following. */
static void
drop_over_budget (LatentFrames *self)
{
  while (self->bytes > self->budget && self->frames->len > 2)
    {
      self->bytes -= latent_snapshot_get_size (g_ptr_array_index (self->frames, 1));
      g_ptr_array_remove_index (self->frames, 1);
    }
}

static void
latent_frames_finalize (GObject *object)
{
  LatentFrames *self = LATENT_FRAMES (object);

  g_clear_pointer (&self->frames, g_ptr_array_unref);
  G_OBJECT_CLASS (latent_frames_parent_class)->finalize (object);
}

static void
latent_frames_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  LatentFrames *self = LATENT_FRAMES (object);

  switch (prop_id)
    {
    case PROP_N_FRAMES:
      g_value_set_uint (value, self->frames->len);
      break;
    case PROP_NEWEST_ITERATION:
      g_value_set_uint (value, latent_frames_get_newest_iteration (self));
      break;
    case PROP_BYTES:
      g_value_set_uint64 (value, self->bytes);
      break;
    case PROP_BUDGET:
      g_value_set_uint64 (value, self->budget);
      break;
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_frames_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  LatentFrames *self = LATENT_FRAMES (object);

  switch (prop_id)
    {
    case PROP_BUDGET:
      latent_frames_set_budget (self, g_value_get_uint64 (value));
      break;
    case PROP_FOLLOW:
      latent_frames_set_follow (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_frames_class_init (LatentFramesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = latent_frames_finalize;
  object_class->get_property = latent_frames_get_property;
  object_class->set_property = latent_frames_set_property;

  properties[PROP_N_FRAMES] =
    g_param_spec_uint ("n-frames", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEWEST_ITERATION] =
    g_param_spec_uint ("newest-iteration", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BYTES] =
    g_param_spec_uint64 ("bytes", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUDGET] =
    g_param_spec_uint64 ("budget", NULL, NULL, 0, G_MAXUINT64, LATENT_FRAMES_DEFAULT_BUDGET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
latent_frames_init (LatentFrames *self)
{
  self->frames = g_ptr_array_new_with_free_func ((GDestroyNotify) latent_snapshot_unref);
  self->budget = LATENT_FRAMES_DEFAULT_BUDGET;
  self->follow = TRUE;
}

LatentFrames *
latent_frames_new (void)
{
  return g_object_new (LATENT_TYPE_FRAMES, NULL);
}

void
latent_frames_add (LatentFrames   *self,
                   LatentSnapshot *frame)
{
  Seen before;

  g_return_if_fail (LATENT_IS_FRAMES (self));
  g_return_if_fail (frame != NULL);

  before = seen (self);
  g_object_freeze_notify (G_OBJECT (self));
  g_ptr_array_add (self->frames, latent_snapshot_ref (frame));
  /* Every array counts: a mixture's responsibilities or a full model's
   * covariances can weigh more than its labels and means. */
  self->bytes += latent_snapshot_get_size (frame);
  drop_over_budget (self);
  notify_changes (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

void
latent_frames_clear (LatentFrames *self)
{
  g_return_if_fail (LATENT_IS_FRAMES (self));

  latent_frames_truncate (self, 0);
}

void
latent_frames_truncate (LatentFrames *self,
                        guint         iteration)
{
  guint keep;
  Seen before;

  g_return_if_fail (LATENT_IS_FRAMES (self));

  before = seen (self);
  g_object_freeze_notify (G_OBJECT (self));
  keep = latent_frames_index_of (self, iteration);
  g_ptr_array_set_size (self->frames, keep);
  /* Counted again rather than taken off: the sum of what stays. */
  self->bytes = 0;
  for (guint i = 0; i < keep; i++)
    self->bytes += latent_snapshot_get_size (g_ptr_array_index (self->frames, i));
  latent_frames_set_follow (self, TRUE);
  notify_changes (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

guint
latent_frames_get_n_frames (LatentFrames *self)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), 0);

  return self->frames->len;
}

LatentSnapshot *
latent_frames_get (LatentFrames *self,
                   guint         index)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), NULL);

  return index < self->frames->len ? g_ptr_array_index (self->frames, index) : NULL;
}

LatentSnapshot **
latent_frames_peek (LatentFrames *self,
                    guint        *n_frames)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), NULL);

  if (n_frames)
    *n_frames = self->frames->len;
  return (LatentSnapshot **) self->frames->pdata;
}

LatentSnapshot *
latent_frames_get_newest (LatentFrames *self)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), NULL);

  return self->frames->len > 0 ? g_ptr_array_index (self->frames, self->frames->len - 1) : NULL;
}

guint
latent_frames_get_newest_iteration (LatentFrames *self)
{
  LatentSnapshot *newest = latent_frames_get_newest (self);

  return newest ? newest->iteration : 0;
}

guint64
latent_frames_get_bytes (LatentFrames *self)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), 0);

  return self->bytes;
}

guint64
latent_frames_get_budget (LatentFrames *self)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), 0);

  return self->budget;
}

void
latent_frames_set_budget (LatentFrames *self,
                          guint64       budget)
{
  Seen before;

  g_return_if_fail (LATENT_IS_FRAMES (self));

  if (self->budget == budget)
    return;
  before = seen (self);
  g_object_freeze_notify (G_OBJECT (self));
  self->budget = budget;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUDGET]);
  drop_over_budget (self);
  notify_changes (self, before);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
latent_frames_get_follow (LatentFrames *self)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), TRUE);

  return self->follow;
}

void
latent_frames_set_follow (LatentFrames *self,
                          gboolean      follow)
{
  g_return_if_fail (LATENT_IS_FRAMES (self));

  follow = !!follow;
  if (self->follow == follow)
    return;
  self->follow = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

LatentSnapshot *
latent_frames_at (LatentFrames *self,
                  guint         iteration)
{
  LatentSnapshot *best = NULL;

  g_return_val_if_fail (LATENT_IS_FRAMES (self), NULL);

  /* Frames are in iteration order; the newest not after the asked one,
   * or the first when every one is after it. */
  for (guint i = 0; i < self->frames->len; i++)
    {
      LatentSnapshot *frame = g_ptr_array_index (self->frames, i);
      if (frame->iteration > iteration && best)
        break;
      best = frame;
    }
  return best;
}

guint
latent_frames_index_of (LatentFrames *self,
                        guint         iteration)
{
  guint index = 0;

  g_return_val_if_fail (LATENT_IS_FRAMES (self), 0);

  while (index < self->frames->len &&
         ((LatentSnapshot *) g_ptr_array_index (self->frames, index))->iteration < iteration)
    index++;
  return index;
}

LatentSnapshot *
latent_frames_before (LatentFrames *self,
                      guint         iteration)
{
  guint index = latent_frames_index_of (self, iteration);

  return index > 0 ? g_ptr_array_index (self->frames, index - 1) : NULL;
}

LatentSnapshot *
latent_frames_after (LatentFrames *self,
                     guint         iteration)
{
  g_return_val_if_fail (LATENT_IS_FRAMES (self), NULL);

  for (guint i = 0; i < self->frames->len; i++)
    {
      LatentSnapshot *frame = g_ptr_array_index (self->frames, i);
      if (frame->iteration > iteration)
        return frame;
    }
  return NULL;
}
