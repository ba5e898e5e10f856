/* latent-float-copy.h — streaming data whose values cannot be used where
 * they lie
 *
 * A streamed dataset is a mapped float32 .npy file whose values are the
 * dataset's (latent-npy.c). An IDX file (bytes, or big-endian floats), an
 * HDF5 dataset (any type, chunked or compressed) or a NumPy array of
 * another type, too large for the memory budget, is first copied as
 * float32 rows into a .npy file in the cache folder
 * (~/.cache/latent/streams), a chunk at a time, and that copy is streamed.
 * The copy is kept, and used again while the source keeps its size and
 * time, so a second run starts at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Rows @first … @first + @n − 1 of the source as float32 rows of @cols
 * values, into @out; called in order, from the first row to the last. A
 * failure names the source and where it failed. */
typedef gboolean (*LatentFloatCopyRead) (gpointer   source,
                                         guint64    first,
                                         guint      n,
                                         float     *out,
                                         GError   **error);

/* Whether @rows × @cols values are too many for the memory budget, so a
 * loader copies them (latent_float_copy_stream) rather than read them. */
gboolean       latent_float_copy_wanted  (guint64              rows,
                                          guint64              cols);

/* The streamed dataset of the source at @path (@part of it, as an HDF5
 * dataset's name, or NULL), @rows × @cols, read through
 * @read: its float32 copy made (or found made) in the cache folder, its
 * source @path; the caller names it. Every value is checked finite as it is copied;
 * a source that does not fit the disk is refused before anything is
 * written, naming the folder and the sizes. */
LatentDataset *latent_float_copy_stream  (const char          *path,
                                          const char          *part,
                                          guint64              rows,
                                          guint                cols,
                                          LatentFloatCopyRead  read,
                                          gpointer             source,
                                          GError             **error);

G_END_DECLS
