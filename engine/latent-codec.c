/* latent-codec.c — a snapshot as bytes, and back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-codec"

#include "latent-codec.h"
#include "latent-family.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _LatentCodec
{
  GByteArray   *out;      /* writing */
  const guint8 *data;     /* reading */
  gsize         size;
  gsize         offset;
  GError       *error;
};

LatentCodec *
latent_codec_new_writer (GByteArray *out)
{
  LatentCodec *self = g_new0 (LatentCodec, 1);

  self->out = g_byte_array_ref (out);
  return self;
}

LatentCodec *
latent_codec_new_reader (const guint8 *data,
                         gsize         size)
{
  LatentCodec *self = g_new0 (LatentCodec, 1);

  self->data = data;
  self->size = size;
  return self;
}

void
latent_codec_free (LatentCodec *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->out, g_byte_array_unref);
  g_clear_error (&self->error);
  g_free (self);
}

gboolean
latent_codec_is_reading (LatentCodec *self)
{
  return self->out == NULL;
}

gboolean
latent_codec_failed (LatentCodec *self)
{
  return self->error != NULL;
}

GError *
latent_codec_steal_error (LatentCodec *self)
{
  return g_steal_pointer (&self->error);
}

gsize
latent_codec_get_offset (LatentCodec *self)
{
  return self->out ? self->out->len : self->offset;
}

static void G_GNUC_PRINTF (2, 3)
fault (LatentCodec *self,
       const char  *format,
       ...)
{
  va_list args;

  if (self->error)
    return;
  va_start (args, format);
  self->error = g_error_new_valist (G_IO_ERROR, G_IO_ERROR_INVALID_DATA, format, args);
  va_end (args);
}

/* Reading: @n bytes from the input, or NULL (and a fault) past its end. */
static const guint8 *
take (LatentCodec *self,
      gsize        n,
      const char  *field)
{
  const guint8 *at;

  if (self->error)
    return NULL;
  if (n > self->size - self->offset)
    {
      fault (self, _("it ends inside “%s”"), field);
      return NULL;
    }
  at = self->data + self->offset;
  self->offset += n;
  return at;
}

static void
raw (LatentCodec *self,
     gpointer     value,
     gsize        n,
     const char  *field)
{
  const guint8 *at;

  if (self->out)
    {
      g_byte_array_append (self->out, value, n);
      return;
    }
  if ((at = take (self, n, field)))
    memcpy (value, at, n);
}

void
latent_codec_uint (LatentCodec *self,
                   guint       *value)
{
  guint32 v = *value;

  raw (self, &v, sizeof v, "uint");
  *value = v;
}

void
latent_codec_uint64 (LatentCodec *self,
                     guint64     *value)
{
  raw (self, value, sizeof *value, "uint64");
}

void
latent_codec_boolean (LatentCodec *self,
                      gboolean    *value)
{
  guint8 v = *value != FALSE;

  raw (self, &v, 1, "boolean");
  *value = v != 0;
}

void
latent_codec_double (LatentCodec *self,
                     double      *value)
{
  raw (self, value, sizeof *value, "double");
}

void
latent_codec_choice (LatentCodec *self,
                     guint       *value,
                     guint        n_values,
                     const char  *field)
{
  latent_codec_uint (self, value);
  if (*value >= n_values)
    {
      fault (self, _("“%s” is %u, not one of its %u values"), field, *value, n_values);
      *value = 0;
    }
}

/* A length, and whether it is the one expected (0 stands for NULL). */
static gboolean
length (LatentCodec *self,
        gsize        n,
        gsize        element,
        gboolean     present,
        const char  *field)
{
  guint64 count = present ? n : 0;

  raw (self, &count, sizeof count, field);
  if (self->out || self->error || count == 0)
    return !self->error && count > 0;
  if (count != n)
    {
      fault (self, _("“%s” has %llu values where its shape says %zu"), field, (unsigned long long) count, n);
      return FALSE;
    }
  /* Checked before anything is allocated for it. */
  if (element != 0 && n > (self->size - self->offset) / element)
    {
      fault (self, _("it ends inside “%s”"), field);
      return FALSE;
    }
  return TRUE;
}

static void
array (LatentCodec *self,
       gpointer    *value,
       gsize        n,
       gsize        element,
       const char  *field)
{
  const guint8 *at;

  if (self->out)
    {
      if (length (self, n, element, *value != NULL && n > 0, field))
        g_byte_array_append (self->out, *value, n * element);
      return;
    }
  g_clear_pointer (value, g_free);
  if (length (self, n, element, TRUE, field) && (at = take (self, n * element, field)))
    *value = g_memdup2 (at, n * element);
}

void
latent_codec_floats (LatentCodec *self, float **value, gsize n, const char *field)
{
  array (self, (gpointer *) value, n, sizeof (float), field);
}

void
latent_codec_doubles (LatentCodec *self, double **value, gsize n, const char *field)
{
  array (self, (gpointer *) value, n, sizeof (double), field);
}

void
latent_codec_uints (LatentCodec *self, guint **value, gsize n, const char *field)
{
  array (self, (gpointer *) value, n, sizeof (guint), field);
}

void
latent_codec_indices (LatentCodec  *self,
                      gint32      **value,
                      gsize         n,
                      gint64        low,
                      gint64        high,
                      const char   *field)
{
  array (self, (gpointer *) value, n, sizeof (gint32), field);
  if (self->out || *value == NULL)
    return;
  for (gsize i = 0; i < n; i++)
    if ((*value)[i] < low || (*value)[i] >= high)
      {
        fault (self, _("“%s” holds %d, outside %lld to %lld"), field, (*value)[i], (long long) low,
               (long long) high - 1);
        g_clear_pointer (value, g_free);
        return;
      }
}

void
latent_codec_string (LatentCodec  *self,
                     char        **value)
{
  gsize n = *value ? strlen (*value) : 0;
  guint64 count = *value ? n + 1 : 0;
  const guint8 *at;

  if (self->out)
    {
      raw (self, &count, sizeof count, "string");
      if (count)
        g_byte_array_append (self->out, (const guint8 *) *value, n);
      return;
    }
  g_clear_pointer (value, g_free);
  raw (self, &count, sizeof count, "string");
  if (count == 0 || self->error)
    return;
  if (count - 1 > self->size - self->offset)
    {
      fault (self, _("it ends inside a string"));
      return;
    }
  at = take (self, count - 1, "string");
  if (at && memchr (at, 0, count - 1))
    fault (self, _("a string holds a zero byte"));
  else if (at)
    *value = g_strndup ((const char *) at, count - 1);
}

void
latent_codec_strv (LatentCodec  *self,
                   GStrv        *value)
{
  guint n = *value ? g_strv_length (*value) : 0;
  gboolean present = *value != NULL;

  latent_codec_boolean (self, &present);
  latent_codec_uint (self, &n);
  if (self->out)
    {
      for (guint i = 0; i < n; i++)
        latent_codec_string (self, &(*value)[i]);
      return;
    }
  g_clear_pointer (value, g_strfreev);
  /* Each string takes 8 bytes at least. */
  if (!present || self->error || n > (self->size - self->offset) / 8)
    {
      if (present && !self->error)
        fault (self, _("it ends inside a list of strings"));
      return;
    }
  *value = g_new0 (char *, n + 1);
  for (guint i = 0; i < n && !self->error; i++)
    latent_codec_string (self, &(*value)[i]);
  /* A NULL among them would end the list early: refused. */
  for (guint i = 0; i < n && !self->error; i++)
    if ((*value)[i] == NULL)
      fault (self, _("a list of strings holds none"));
}

void
latent_codec_examples (LatentCodec    *self,
                       LatentExamples *examples,
                       guint           n_rows,
                       guint           n_cols)
{
  latent_codec_uint (self, &examples->n_examples);
  latent_codec_indices (self, &examples->rows, examples->n_examples, 0, n_rows, "examples");
  latent_codec_floats (self, &examples->reconstructions, (gsize) examples->n_examples * n_cols,
                       "reconstructions");
}

void
latent_codec_epochs (LatentCodec  *self,
                     LatentEpochs *epochs)
{
  latent_codec_uint (self, &epochs->n_epochs);
  latent_codec_doubles (self, &epochs->train_loss, epochs->n_epochs, "train_loss");
  latent_codec_doubles (self, &epochs->held_out_loss, epochs->n_epochs, "held_out_loss");
  latent_codec_uint (self, &epochs->steps_per_epoch);
  latent_codec_uint (self, &epochs->n_steps);
  latent_codec_floats (self, &epochs->step_loss, epochs->n_steps, "step_loss");
}

void
latent_codec_snapshot (LatentCodec    *self,
                       LatentSnapshot *snapshot)
{
  latent_codec_uint64 (self, &snapshot->seed);
  latent_codec_string (self, &snapshot->device);
  latent_codec_uint (self, &snapshot->iteration);
  latent_codec_boolean (self, &snapshot->converged);
  latent_codec_boolean (self, &snapshot->final);
  latent_codec_double (self, &snapshot->objective);
  latent_codec_uint (self, &snapshot->n_rows);
  latent_codec_uint (self, &snapshot->n_cols);
  /* The parts' arrays are sized by these: they must fit the data here. */
  if (latent_codec_is_reading (self) && snapshot->dataset &&
      (snapshot->n_rows != latent_dataset_get_n_rows (snapshot->dataset) ||
       snapshot->n_cols > latent_dataset_get_n_cols (snapshot->dataset)))
    fault (self, _("its %u rows × %u columns are not those of “%s” (%u × %u)"),
           snapshot->n_rows, snapshot->n_cols, latent_dataset_get_name (snapshot->dataset),
           latent_dataset_get_n_rows (snapshot->dataset), latent_dataset_get_n_cols (snapshot->dataset));
  latent_codec_boolean (self, &snapshot->has_label_metrics);
  latent_codec_double (self, &snapshot->metrics.accuracy);
  latent_codec_double (self, &snapshot->metrics.ari);
  latent_codec_double (self, &snapshot->metrics.nmi);
  latent_codec_double (self, &snapshot->step_ms);
  latent_codec_double (self, &snapshot->elapsed_ms);
  latent_codec_string (self, &snapshot->message);
  if (!self->error)
    latent_family_transfer_parts (snapshot, self);
}
