/* latent-codec.h — a snapshot as bytes, and back
 *
 * A run followed from another process (latent-cli --follow, the window's
 * Follow a Run) crosses a file. Each family writes and reads its part with
 * one function (LatentFamilyClass.transfer_part) that calls the codec on
 * each field in turn: writing, the codec appends the field; reading, it
 * fills the field from the bytes, so the two directions cannot drift.
 *
 * Reading trusts nothing: every array's length is the one the fields read
 * before it imply, index arrays are checked against their bounds, and the
 * first fault stops the reading with an error naming the field, so a
 * damaged file gives a message, never a renderer reading past an array.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-snapshot.h"

G_BEGIN_DECLS

/* A codec appending to @out. */
LatentCodec *latent_codec_new_writer (GByteArray   *out);
/* A codec reading @size bytes at @data, which must outlive it. */
LatentCodec *latent_codec_new_reader (const guint8 *data,
                                      gsize         size);
void         latent_codec_free       (LatentCodec  *self);
gboolean     latent_codec_is_reading (LatentCodec  *self);
gboolean     latent_codec_failed     (LatentCodec  *self);
/* The first fault while reading (NULL when none): stolen by the caller. */
GError      *latent_codec_steal_error (LatentCodec *self);
gsize        latent_codec_get_offset (LatentCodec  *self);

/* Scalars, written as they are in memory (the header says the byte order). */
void latent_codec_uint      (LatentCodec *self, guint    *value);
void latent_codec_uint64    (LatentCodec *self, guint64  *value);
void latent_codec_boolean   (LatentCodec *self, gboolean *value);
void latent_codec_double    (LatentCodec *self, double   *value);
/* A value below @n_values (an enumeration). */
void latent_codec_choice    (LatentCodec *self, guint    *value, guint n_values, const char *field);
/* A string or NULL; a GStrv. */
void latent_codec_string    (LatentCodec *self, char    **value);
void latent_codec_strv      (LatentCodec *self, GStrv    *value);

/* Arrays of @n values, or NULL (written as none; n is the only length a
 * reader takes, the one its fields so far imply). Reading replaces and
 * frees what *value held. */
void latent_codec_floats    (LatentCodec *self, float   **value, gsize n, const char *field);
void latent_codec_doubles   (LatentCodec *self, double  **value, gsize n, const char *field);
void latent_codec_uints     (LatentCodec *self, guint   **value, gsize n, const char *field);
/* Indices, each at least @low and below @high (row numbers, classes). */
void latent_codec_indices   (LatentCodec *self, gint32  **value, gsize n,
                             gint64 low, gint64 high, const char *field);

/* The shared shapes. */
void latent_codec_examples  (LatentCodec *self, LatentExamples *examples, guint n_rows, guint n_cols);
void latent_codec_epochs    (LatentCodec *self, LatentEpochs   *epochs);

/* All of @snapshot but what it shares (algorithm, dataset, params): its
 * run's fields and every family's part. Reading, @snapshot is a new one of
 * the algorithm, dataset and parameters the writer's was made with; the
 * dataset bounds its rows and columns. */
void latent_codec_snapshot  (LatentCodec *self, LatentSnapshot *snapshot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentCodec, latent_codec_free)

G_END_DECLS
