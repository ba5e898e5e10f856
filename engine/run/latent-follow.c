/* latent-follow.c — a run written to a folder, and followed from it
 *
 * The run file: "LATENTRN", a byte-order mark and the format's version,
 * then through the codec the algorithm's id, the state, the failure, the
 * init's milliseconds, the writer's host and process, the records, and
 * the snapshot if there is one yet.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-follow"

#include "latent-follow.h"

#include "latent-codec.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define MAGIC "LATENTRN"
#define BYTE_ORDER_MARK 0x01020304u
#define VERSION 1u
/* A run file larger is not read: 10 M rows of labels and projections
 * take about 160 MB. */
#define RUN_MAX_BYTES ((gsize) 2 << 30)

struct _LatentFollowWriter
{
  char         *path;
  char         *temporary;
  char         *algorithm_id;
  GArray       *records;
  GByteArray   *snapshot;   /* the last one, encoded; NULL before it */
};

LatentFollowWriter *
latent_follow_writer_new (const char        *dir,
                          LatentExperiment  *experiment,
                          GError           **error)
{
  g_autoptr(LatentFollowWriter) self = g_new0 (LatentFollowWriter, 1);
  g_autofree char *experiment_path = g_build_filename (dir, LATENT_FOLLOW_EXPERIMENT, NULL);

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (dir);

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display, g_strerror (saved));
      return NULL;
    }
  if (!latent_experiment_save (experiment, experiment_path, error))
    return NULL;
  self->path = g_build_filename (dir, LATENT_FOLLOW_RUN, NULL);
  self->temporary = g_build_filename (dir, "." LATENT_FOLLOW_RUN ".new", NULL);
  self->algorithm_id = g_strdup (experiment->algorithm->id);
  self->records = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  /* A file of an earlier run would be read as this one's. */
  g_unlink (self->path);
  return g_steal_pointer (&self);
}

void
latent_follow_writer_free (LatentFollowWriter *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_free (self->temporary);
  g_free (self->algorithm_id);
  g_clear_pointer (&self->records, g_array_unref);
  g_clear_pointer (&self->snapshot, g_byte_array_unref);
  g_free (self);
}

void
latent_follow_writer_add_record (LatentFollowWriter          *self,
                                 const LatentIterationRecord *record)
{
  g_array_append_val (self->records, *record);
}

/* The header and the records: the part of a run file a reader needs to
 * know what follows, read and written by the same calls. */
static void
transfer_head (LatentCodec *codec,
               char       **algorithm_id,
               guint       *state,
               char       **failure,
               double      *init_ms,
               char       **host,
               guint       *pid,
               GArray      *records)
{
  guint n = records->len;

  latent_codec_string (codec, algorithm_id);
  latent_codec_choice (codec, state, LATENT_FOLLOW_FAILED + 1, "state");
  latent_codec_string (codec, failure);
  latent_codec_double (codec, init_ms);
  latent_codec_string (codec, host);
  latent_codec_uint (codec, pid);
  latent_codec_uint (codec, &n);
  for (guint i = 0; i < n; i++)
    {
      LatentIterationRecord record = { 0 };

      if (i < records->len)
        record = g_array_index (records, LatentIterationRecord, i);
      latent_codec_uint (codec, &record.iteration);
      latent_codec_double (codec, &record.objective);
      latent_codec_double (codec, &record.step_ms);
      if (!latent_codec_is_reading (codec))
        continue;
      /* A count past the file's end stops at its end. */
      if (latent_codec_failed (codec))
        return;
      g_array_append_val (records, record);
    }
}

gboolean
latent_follow_writer_write (LatentFollowWriter  *self,
                            LatentFollowState    state,
                            LatentSnapshot      *snapshot,
                            double               init_ms,
                            const char          *failure,
                            GError             **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *failure_copy = g_strdup (failure);
  g_autofree char *host = g_strdup (g_get_host_name ());
  guint32 mark = BYTE_ORDER_MARK, version = VERSION;
  guint state_value = state, pid = (guint) getpid ();
  gboolean has_snapshot;

  if (snapshot)
    {
      g_autoptr(LatentCodec) codec = NULL;

      g_clear_pointer (&self->snapshot, g_byte_array_unref);
      self->snapshot = g_byte_array_new ();
      codec = latent_codec_new_writer (self->snapshot);
      latent_codec_snapshot (codec, snapshot);
    }
  has_snapshot = self->snapshot != NULL;

  g_byte_array_append (out, (const guint8 *) MAGIC, 8);
  g_byte_array_append (out, (const guint8 *) &mark, sizeof mark);
  g_byte_array_append (out, (const guint8 *) &version, sizeof version);
  {
    g_autoptr(LatentCodec) codec = latent_codec_new_writer (out);

    transfer_head (codec, &self->algorithm_id, &state_value, &failure_copy, &init_ms, &host, &pid,
                   self->records);
    latent_codec_boolean (codec, &has_snapshot);
  }
  if (has_snapshot)
    g_byte_array_append (out, self->snapshot->data, self->snapshot->len);

  if (!g_file_set_contents_full (self->temporary, (const char *) out->data, out->len,
                                 G_FILE_SET_CONTENTS_NONE, 0644, error))
    return FALSE;
  if (g_rename (self->temporary, self->path) != 0)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (self->path);

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

void
latent_follow_update_free (LatentFollowUpdate *update)
{
  if (update == NULL)
    return;
  g_free (update->failure);
  g_clear_pointer (&update->records, g_array_unref);
  g_clear_pointer (&update->snapshot, latent_snapshot_unref);
  g_free (update->host);
  g_free (update);
}

LatentFollowUpdate *
latent_follow_read (const char             *path,
                    const LatentAlgorithm  *algorithm,
                    LatentDataset          *dataset,
                    LatentParams           *params,
                    GError                **error)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *contents = NULL;
  g_autofree char *algorithm_id = NULL;
  g_autoptr(LatentFollowUpdate) update = g_new0 (LatentFollowUpdate, 1);
  g_autoptr(LatentCodec) codec = NULL;
  g_autoptr(GError) fault = NULL;
  guint32 mark, version;
  guint state = 0;
  gboolean has_snapshot = FALSE;
  gsize size = 0;
  GStatBuf info;

  if (g_stat (path, &info) == 0 && (guint64) info.st_size > RUN_MAX_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: %llu bytes, more than a run file holds"), display,
                   (unsigned long long) info.st_size);
      return NULL;
    }
  if (!g_file_get_contents (path, &contents, &size, error))
    return NULL;
  if (size < 16 || memcmp (contents, MAGIC, 8) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: not a run written by latent-cli run --follow"), display);
      return NULL;
    }
  memcpy (&mark, contents + 8, sizeof mark);
  memcpy (&version, contents + 12, sizeof version);
  if (mark != BYTE_ORDER_MARK || version != VERSION)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: written by a latent-cli of another version or byte order"), display);
      return NULL;
    }

  update->records = g_array_new (FALSE, FALSE, sizeof (LatentIterationRecord));
  codec = latent_codec_new_reader ((const guint8 *) contents + 16, size - 16);
  transfer_head (codec, &algorithm_id, &state, &update->failure, &update->init_ms, &update->host,
                 &update->pid, update->records);
  latent_codec_boolean (codec, &has_snapshot);
  update->state = state;
  if ((fault = latent_codec_steal_error (codec)) == NULL && g_strcmp0 (algorithm_id, algorithm->id) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a run of “%.64s”, not of %s as its experiment says"), display,
                   algorithm_id ? algorithm_id : "", algorithm->id);
      return NULL;
    }
  if (fault == NULL && has_snapshot)
    {
      update->snapshot = latent_snapshot_new (algorithm, dataset, params);
      latent_codec_snapshot (codec, update->snapshot);
      fault = latent_codec_steal_error (codec);
    }
  if (fault)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: damaged at byte %zu: %s"),
                   display, 16 + latent_codec_get_offset (codec), fault->message);
      return NULL;
    }
  return g_steal_pointer (&update);
}

gboolean
latent_follow_update_writer_gone (const LatentFollowUpdate *update)
{
  if (update->state == LATENT_FOLLOW_FINISHED || update->state == LATENT_FOLLOW_FAILED ||
      update->pid == 0 || g_strcmp0 (update->host, g_get_host_name ()) != 0)
    return FALSE;
  return kill ((pid_t) update->pid, 0) != 0 && errno == ESRCH;
}
