/* latent-window-features.c — what a classifier is judged on, and models
 * that feed each other: the Test Data choices of the Dataset menu, "Use Its
 * Features", which makes a finished encoder's features the data, "Train a
 * Network on It", which starts a network from a finished autoencoder's
 * first layer, and "Use Its Clusters as Classes", which colours the next
 * run (an embedding, say) by a finished clustering
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-window-features"

#include "latent-window-private.h"
#include "latent-family.h"

#include <errno.h>
#include <glib/gi18n.h>

#include "latent-catalog.h"
#include "latent-mlp.h"
#include "latent-result.h"
#include "latent-ui-util.h"

static void
load_test_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GError *error = NULL;
  LatentDataset *test = latent_catalog_load (task_data, NULL, &error);

  if (test == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, test, g_object_unref);
}

/* Test data for the dataset shown (NULL: hold rows out); errors show. */
static void
set_test_data (LatentWindow  *self,
               LatentDataset *test)
{
  g_autoptr(GError) error = NULL;

  if (!latent_session_set_test_data (self->session, test, &error))
    _latent_window_show_error (self, error->message);
  else
    gtk_info_bar_set_revealed (self->error_bar, FALSE);
  _latent_window_update_status (self);
}

static void
on_test_loaded (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  LatentWindow *self = LATENT_WINDOW (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) test = g_task_propagate_pointer (G_TASK (result), &error);

  if (test == NULL)
    {
      /* The message names the file; the data and its test data stay. */
      g_clear_pointer (&self->pending_follow, g_free);
      _latent_window_show_error (self, error->message);
      return;
    }
  set_test_data (self, test);
  g_free (self->test_spec);
  self->test_spec = g_strdup (g_task_get_task_data (G_TASK (result)));
  _latent_window_follow_pending (self);
}

static void
load_test (LatentWindow *self,
           const char   *spec)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, on_test_loaded, NULL);

  g_task_set_task_data (task, g_strdup (spec), g_free);
  g_task_run_in_thread (task, load_test_thread);
}

static void
on_test_data_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  load_test (user_data, g_variant_get_string (parameter, NULL));
}

static void
on_test_chosen (const char *path,
                gpointer    user_data)
{
  if (path)
    load_test (user_data, path);
}

static void
on_open_test_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  LatentWindow *self = user_data;
  GtkFileChooserNative *dialog = latent_file_chooser_new (GTK_WINDOW (self), _("Open Test Data"),
                                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                         on_test_chosen, self);

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_hold_out_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  g_clear_pointer (&((LatentWindow *) user_data)->test_spec, g_free);
  set_test_data (user_data, NULL);
}

/* The shown frame when its model can encode rows: a finished run of an
 * encoder. */
static LatentSnapshot *
encoder_frame (LatentWindow *self)
{
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  LatentDataset *dataset = latent_session_get_dataset (self->session);

  if (frame == NULL || !frame->final || frame->algorithm->encode == NULL || dataset == NULL ||
      frame->dataset != dataset || !latent_family_has_encoder (frame))
    return NULL;
  return frame;
}


static void
on_use_features_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = encoder_frame (self);
  LatentDataset *dataset = latent_session_get_dataset (self->session), *test;
  g_autoptr(LatentDataset) features = NULL;
  g_autoptr(GError) error = NULL;

  if (frame == NULL)
    return;
  features = latent_algorithm_encode (frame, dataset, &error);
  test = latent_dataset_get_test (dataset);
  if (features && test)
    {
      /* The test data is encoded the same way, so a classifier can be judged on it. */
      g_autoptr(LatentDataset) test_features = latent_algorithm_encode (frame, test, &error);

      if (test_features == NULL || !latent_dataset_set_test (features, test_features, &error))
        g_clear_object (&features);
    }
  if (features == NULL)
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  latent_session_set_dataset (self->session, features, NULL);
}

/* A finished autoencoder run on the labelled data shown: what a network
 * can start from. */
static gboolean
can_train_network (LatentWindow *self)
{
  LatentSnapshot *frame = encoder_frame (self);

  return frame != NULL && latent_snapshot_get_family (frame) == LATENT_FAMILY_AUTOENCODER &&
         latent_dataset_get_labels (frame->dataset) != NULL;
}

/* The autoencoder's result goes where the cache keeps such files, and the
 * network starts from it: init=@FILE, as latent-cli takes it. */
static void
on_train_network_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = encoder_frame (self);
  const LatentAlgorithm *mlp = latent_mlp_get_algorithm ();
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "latent", "pretrained", NULL);
  g_autofree char *name = NULL, *path = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autoptr(LatentParams) params = NULL;
  g_autoptr(GError) error = NULL;

  if (!can_train_network (self))
    return;
  name = g_date_time_format (now, "wta-%Y%m%d-%H%M%S.json");
  path = g_build_filename (dir, name, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_autofree char *message = g_strdup_printf (_("Could not make %s: %s"), dir, g_strerror (errno));

      _latent_window_show_error (self, message);
      return;
    }
  if (!latent_result_write_json (frame, latent_session_get_history (self->session),
                                 latent_session_get_init_ms (self->session), frame->elapsed_ms, path, &error))
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  params = latent_mlp_new_params_from (path);
  latent_session_set_algorithm (self->session, mlp, params);
  latent_session_restart (self->session, FALSE);
}

/* A finished clustering of the rows shown, which live in memory. */
static LatentSnapshot *
clusters_frame (LatentWindow *self)
{
  LatentSnapshot *frame = latent_session_get_shown (self->session);
  LatentDataset *dataset = latent_session_get_dataset (self->session);

  if (frame == NULL || !frame->final || dataset == NULL || frame->dataset != dataset ||
      latent_dataset_is_streamed (dataset) || latent_dataset_get_data (dataset) == NULL ||
      latent_clusters_get_labels (frame) == NULL || latent_clusters_get_means (frame, NULL) == NULL)
    return NULL;
  return frame;
}

/* The same rows (not copied: a view that keeps the dataset alive) with the
 * clusters as their classes, "cluster 1" … "cluster k"; test data is not
 * carried over, its rows have no clusters. */
static void
on_clusters_as_classes_action (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  LatentWindow *self = user_data;
  LatentSnapshot *frame = clusters_frame (self);
  LatentDataset *dataset = latent_session_get_dataset (self->session);
  g_autoptr(LatentDataset) view = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) names = NULL;
  guint n, d, k = 0, width, height, channels;
  gboolean single;

  if (frame == NULL)
    return;
  n = latent_dataset_get_n_rows (dataset);
  d = latent_dataset_get_n_cols (dataset);
  latent_clusters_get_means (frame, &k);
  bytes = g_bytes_new_with_free_func (latent_dataset_get_data (dataset), (gsize) n * d * sizeof (float),
                                      g_object_unref, g_object_ref (dataset));
  /* Translators: the dataset's name, then the algorithm that clustered it. */
  name = g_strdup_printf (_("%s · %s clusters"), latent_dataset_get_name (dataset), frame->algorithm->id);
  if (!(view = latent_dataset_new_for_bytes (name, n, d, bytes, 0, &error)))
    {
      _latent_window_show_error (self, error->message);
      return;
    }
  names = g_new0 (char *, k + 1);
  for (guint c = 0; c < k; c++)
    /* Translators: a class made of a clustering's cluster, counted from 1. */
    names[c] = g_strdup_printf (_("cluster %u"), c + 1);
  latent_dataset_set_labels (view, latent_clusters_get_labels (frame), k, names);
  for (guint a = 0; a < d; a++)
    if (latent_dataset_get_column_name (dataset, a))
      {
        g_auto(GStrv) columns = g_new0 (char *, d + 1);

        for (guint b = 0; b < d; b++)
          columns[b] = latent_dataset_dup_column_label (dataset, b);
        latent_dataset_set_column_names (view, columns);
        break;
      }
  if (latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single))
    latent_dataset_set_image_shape (view, width, height, channels, single);
  latent_session_set_dataset (self->session, view, NULL);
}

static const GActionEntry feature_actions[] = {
  { "test-data", on_test_data_action, "s" },
  { "test-installed", on_test_data_action, "s" },
  { "open-test-data", on_open_test_action },
  { "hold-out", on_hold_out_action },
  { "use-features", on_use_features_action },
  { "train-network", on_train_network_action },
  { "clusters-as-classes", on_clusters_as_classes_action },
};

void
_latent_window_update_feature_actions (LatentWindow *self)
{
  GActionMap *map = G_ACTION_MAP (self);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "use-features")),
                               encoder_frame (self) != NULL);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "train-network")),
                               can_train_network (self));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (map, "clusters-as-classes")),
                               clusters_frame (self) != NULL);
}

void
_latent_window_init_features (LatentWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), feature_actions, G_N_ELEMENTS (feature_actions), self);
}
