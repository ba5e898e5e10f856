/* latent-run-history.c — the runs since the window opened, to compare
 *
 * "Was that better than before?" is the question after every run: each
 * run that ends, or that a new run replaces after it got somewhere, is
 * kept with its last snapshot, its parameters, its result line and a
 * thumbnail of its figure, for the Compare Runs window to set side by
 * side.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-run-history"

#include "latent-run-history.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "latent-family.h"
#include "latent-figure.h"
#include "latent-ui-util.h"

/* The thumbnail is the figure drawn at this size and shown at a third of
 * it: drawn that small, its header would fill it. */
#define THUMB_W 360
#define THUMB_H 270

struct _LatentRunRecord
{
  GObject         parent_instance;

  LatentSnapshot *snapshot;
  char           *label;
  char           *parameters;
  char           *result;
  GdkTexture     *thumbnail;
};

G_DEFINE_FINAL_TYPE (LatentRunRecord, latent_run_record, G_TYPE_OBJECT)

enum { PROP_0, PROP_LABEL, PROP_PARAMETERS, PROP_RESULT, PROP_THUMBNAIL, N_PROPS };
static GParamSpec *props[N_PROPS];

/* The snapshot's figure, small, for a list row. */
static GdkTexture *
render_thumbnail (LatentSnapshot *snapshot)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, THUMB_W, THUMB_H);
  cairo_t *cr = cairo_create (surface);
  LatentFigureStyle style;
  GdkTexture *texture;

  latent_figure_style_init (&style);
  latent_figure_render (snapshot, LATENT_FIGURE_AUTO, &style, cr, THUMB_W, THUMB_H);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  texture = latent_texture_new_for_surface (surface);
  cairo_surface_destroy (surface);
  return texture;
}

static LatentRunRecord *
latent_run_record_new (LatentSnapshot *snapshot,
                       guint           number)
{
  LatentRunRecord *self = g_object_new (LATENT_TYPE_RUN_RECORD, NULL);
  g_autoptr(GString) result = g_string_new (NULL);
  gsize length;

  self->snapshot = latent_snapshot_ref (snapshot);
  /* Translators: a run in the Compare Runs window, "Run 3 · k-means on iris". */
  self->label = g_strdup_printf (_("Run %u · %s on %s"), number, _(snapshot->algorithm->short_title),
                                 latent_dataset_get_name (snapshot->dataset));
  self->parameters = snapshot->params ? latent_params_to_string (snapshot->params) : g_strdup ("");
  /* Translators: how far a run got, before its objective: "iteration 12 · inertia 78.85". */
  g_string_append_printf (result, _("iteration %u"), snapshot->iteration);
  /* What the figure's header says of the result (the inertia, the test
   * accuracy); the objective where it says nothing. */
  length = result->len;
  latent_family_describe_header (snapshot, result);
  if (result->len == length)
    latent_family_describe_objective (snapshot, result);
  self->result = g_string_free (g_steal_pointer (&result), FALSE);
  self->thumbnail = render_thumbnail (snapshot);
  return self;
}

LatentSnapshot *
latent_run_record_get_snapshot (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NULL);
  return self->snapshot;
}

const char *
latent_run_record_get_label (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NULL);
  return self->label;
}

const char *
latent_run_record_get_parameters (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NULL);
  return self->parameters;
}

const char *
latent_run_record_get_result (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NULL);
  return self->result;
}

GdkTexture *
latent_run_record_get_thumbnail (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NULL);
  return self->thumbnail;
}

double
latent_run_record_get_objective (LatentRunRecord *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_RECORD (self), NAN);
  return self->snapshot->objective;
}

static void
latent_run_record_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LatentRunRecord *self = LATENT_RUN_RECORD (object);

  switch (prop_id)
    {
    case PROP_LABEL: g_value_set_string (value, self->label); break;
    case PROP_PARAMETERS: g_value_set_string (value, self->parameters); break;
    case PROP_RESULT: g_value_set_string (value, self->result); break;
    case PROP_THUMBNAIL: g_value_set_object (value, self->thumbnail); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
latent_run_record_finalize (GObject *object)
{
  LatentRunRecord *self = LATENT_RUN_RECORD (object);

  g_clear_pointer (&self->snapshot, latent_snapshot_unref);
  g_clear_pointer (&self->label, g_free);
  g_clear_pointer (&self->parameters, g_free);
  g_clear_pointer (&self->result, g_free);
  g_clear_object (&self->thumbnail);
  G_OBJECT_CLASS (latent_run_record_parent_class)->finalize (object);
}

static void
latent_run_record_class_init (LatentRunRecordClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = latent_run_record_get_property;
  object_class->finalize = latent_run_record_finalize;
  props[PROP_LABEL] = g_param_spec_string ("label", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_PARAMETERS] = g_param_spec_string ("parameters", NULL, NULL, NULL,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_RESULT] = g_param_spec_string ("result", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_THUMBNAIL] = g_param_spec_object ("thumbnail", NULL, NULL, GDK_TYPE_TEXTURE,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
latent_run_record_init (LatentRunRecord *self)
{
}

/* ---- the history ---- */

struct _LatentRunHistory
{
  GObject         parent_instance;

  LatentSession  *session;
  GListStore     *records;
  LatentSnapshot *newest;     /* the run's newest frame, until recorded */
  guint           n_runs;     /* numbered from 1, dropped ones counted */
};

G_DEFINE_FINAL_TYPE (LatentRunHistory, latent_run_history, G_TYPE_OBJECT)

/* The newest frame kept, once, if the run got past its initialisation. */
static void
record_newest (LatentRunHistory *self)
{
  const guint n = g_list_model_get_n_items (G_LIST_MODEL (self->records));
  g_autoptr(LatentRunRecord) last = n ? g_list_model_get_item (G_LIST_MODEL (self->records), n - 1) : NULL;
  g_autoptr(LatentRunRecord) record = NULL;

  /* Nothing ran, or this frame is kept already (a finished run shown again). */
  if (self->newest == NULL || self->newest->iteration == 0
      || (last != NULL && last->snapshot == self->newest))
    {
      g_clear_pointer (&self->newest, latent_snapshot_unref);
      return;
    }
  record = latent_run_record_new (self->newest, ++self->n_runs);
  g_clear_pointer (&self->newest, latent_snapshot_unref);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->records)) >= LATENT_RUN_HISTORY_MAX)
    g_list_store_remove (self->records, 0);
  g_list_store_append (self->records, record);
}

static void
on_shown (LatentRunHistory *self)
{
  LatentSnapshot *newest = latent_frames_get_newest (latent_session_get_frames (self->session));

  /* The same run going on; a frame of another run means this one was
   * replaced: its last frame is what we have. */
  if (newest == NULL || newest == self->newest)
    return;
  if (self->newest != NULL && (newest->iteration < self->newest->iteration
                               || newest->dataset != self->newest->dataset))
    record_newest (self);
  g_clear_pointer (&self->newest, latent_snapshot_unref);
  self->newest = latent_snapshot_ref (newest);
}

static void
on_state (LatentRunHistory *self)
{
  switch (latent_session_get_state (self->session))
    {
    case LATENT_SESSION_FINISHED:
    case LATENT_SESSION_STOPPED:
      on_shown (self);
      record_newest (self);
      break;
    case LATENT_SESSION_INITIALISING:
    case LATENT_SESSION_IDLE:
      /* A new run, or new data: the one before, if it went anywhere. */
      record_newest (self);
      break;
    default:
      break;
    }
}

static void
latent_run_history_dispose (GObject *object)
{
  LatentRunHistory *self = LATENT_RUN_HISTORY (object);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->records);
  g_clear_pointer (&self->newest, latent_snapshot_unref);
  G_OBJECT_CLASS (latent_run_history_parent_class)->dispose (object);
}

static void
latent_run_history_class_init (LatentRunHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = latent_run_history_dispose;
}

static void
latent_run_history_init (LatentRunHistory *self)
{
  self->records = g_list_store_new (LATENT_TYPE_RUN_RECORD);
}

LatentRunHistory *
latent_run_history_new (LatentSession *session)
{
  LatentRunHistory *self;

  g_return_val_if_fail (LATENT_IS_SESSION (session), NULL);

  self = g_object_new (LATENT_TYPE_RUN_HISTORY, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_swapped (session, "notify::shown", G_CALLBACK (on_shown), self);
  g_signal_connect_swapped (session, "notify::state", G_CALLBACK (on_state), self);
  return self;
}

GListModel *
latent_run_history_get_model (LatentRunHistory *self)
{
  g_return_val_if_fail (LATENT_IS_RUN_HISTORY (self), NULL);
  return G_LIST_MODEL (self->records);
}
