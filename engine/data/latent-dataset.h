/* latent-dataset.h — a table of float32 rows, the input of every algorithm
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define LATENT_DATA_ERROR (latent_data_error_quark ())

typedef enum {
  LATENT_DATA_ERROR_IO,          /* the file could not be read */
  LATENT_DATA_ERROR_EMPTY,       /* no rows */
  LATENT_DATA_ERROR_PARSE,       /* malformed content; the message names line/column */
  LATENT_DATA_ERROR_NOT_FINITE,  /* NaN or Inf */
  LATENT_DATA_ERROR_TOO_LARGE,   /* above a stated size limit; nothing was allocated */
  LATENT_DATA_ERROR_MISMATCH,    /* e.g. label count differs from row count */
  LATENT_DATA_ERROR_UNSUPPORTED, /* unknown format */
  LATENT_DATA_ERROR_INVALID,     /* bad generator or loader argument */
  LATENT_DATA_ERROR_AMBIGUOUS,   /* a file holds several candidates: choose one */
  LATENT_DATA_ERROR_VALUE,       /* a table's cell: text among numbers, or missing; the import
                                  * choices (latent-csv.h) can read it */
} LatentDataError;

GQuark latent_data_error_quark (void);

/* Largest dataset any loader accepts: 2^31 bytes of float32 values. */
#define LATENT_DATASET_MAX_VALUES ((guint64) 1 << 29)

#define LATENT_TYPE_DATASET (latent_dataset_get_type ())
G_DECLARE_FINAL_TYPE (LatentDataset, latent_dataset, LATENT, DATASET, GObject)

LatentDataset *latent_dataset_new              (const char     *name,
                                                guint           n_rows,
                                                guint           n_cols,
                                                GError        **error);
/* The values are @bytes' from @offset on (floats in this machine's order,
 * row-major), not copied: a file mapped copy-on-write (GMappedFile,
 * writable) gives a dataset whose rows the system reads when they are
 * used and may drop again, and whose changes never reach the file. */
LatentDataset *latent_dataset_new_for_bytes    (const char     *name,
                                                guint           n_rows,
                                                guint           n_cols,
                                                GBytes         *bytes,
                                                gsize           offset,
                                                GError        **error);
const char    *latent_dataset_get_name         (LatentDataset  *self);
void           latent_dataset_set_name         (LatentDataset  *self,
                                                const char     *name);
const char    *latent_dataset_get_source       (LatentDataset  *self);
void           latent_dataset_set_source       (LatentDataset  *self,
                                                const char     *source);
guint          latent_dataset_get_n_rows       (LatentDataset  *self);
guint          latent_dataset_get_n_cols       (LatentDataset  *self);
/* Row-major, n_rows × n_cols. Writable until the dataset is handed to a run. */
float         *latent_dataset_get_data         (LatentDataset  *self);
const float   *latent_dataset_get_row          (LatentDataset  *self,
                                                guint           row);

/* Column names (NULL when the source had none). */
void           latent_dataset_set_column_names (LatentDataset  *self,
                                                GStrv           names);
const char    *latent_dataset_get_column_name  (LatentDataset  *self,
                                                guint           col);
/* What to call a column: its name, else for image data its pixel
 * ("pixel 3, 14", "pixel 3, 14 red") or channel ("red"), else "column 5"
 * (numbered from 1). */
char          *latent_dataset_dup_column_label (LatentDataset  *self,
                                                guint           col);

/* Labels: one class index in [0, n_classes) per row; class names optional. */
void           latent_dataset_set_labels       (LatentDataset  *self,
                                                const gint32   *labels,
                                                guint           n_classes,
                                                GStrv           class_names);
/* @from's labels and class names, for a dataset derived row by row from it. */
void           latent_dataset_copy_labels      (LatentDataset  *self,
                                                LatentDataset  *from);
gboolean       latent_dataset_has_labels       (LatentDataset  *self);
const gint32  *latent_dataset_get_labels       (LatentDataset  *self);
guint          latent_dataset_get_n_classes    (LatentDataset  *self);
const char    *latent_dataset_get_class_name   (LatentDataset  *self,
                                                guint           klass);

/* Image shape: each row is a width × height × channels image (interleaved),
 * or, when single_image is TRUE, the whole dataset is one image whose rows
 * are its pixels (n_rows = width × height, n_cols = channels). */
void           latent_dataset_set_image_shape  (LatentDataset  *self,
                                                guint           width,
                                                guint           height,
                                                guint           channels,
                                                gboolean        single_image);
gboolean       latent_dataset_get_image_shape  (LatentDataset  *self,
                                                guint          *width,
                                                guint          *height,
                                                guint          *channels,
                                                gboolean       *single_image);

/* A single image's columns named by their channel ("red", …), as the
 * scatter's axes show them. */
void           latent_dataset_name_channels    (LatentDataset  *self);

/* Bits per value of the source image (8 or 16), 0 when it was no image:
 * results written as images keep it. */
void           latent_dataset_set_bit_depth    (LatentDataset  *self,
                                                guint           bit_depth);
guint          latent_dataset_get_bit_depth    (LatentDataset  *self);
/* SHA-256 over shape, values and labels; computed once, then cached. */
const char    *latent_dataset_get_hash         (LatentDataset  *self);

/* The test set of supervised runs (NULL: they hold out rows of this one).
 * Set it before the dataset is handed to a run. */
gboolean       latent_dataset_set_test         (LatentDataset  *self,
                                                LatentDataset  *test,
                                                GError        **error);
LatentDataset *latent_dataset_get_test         (LatentDataset  *self);

/* The dataset these rows were made from, row for row (an encoder's
 * features of its rows), so that a row can still be shown as what it was:
 * an image. NULL for data read or generated as it is. */
void           latent_dataset_set_origin       (LatentDataset  *self,
                                                LatentDataset  *origin);
LatentDataset *latent_dataset_get_origin       (LatentDataset  *self);

/* Rows that are not finite, for loaders: returns FALSE and names the first. */
gboolean       latent_dataset_check_finite     (LatentDataset  *self,
                                                const char     *what,
                                                GError        **error);

/* Streaming (latent-memory.h). A dataset made from a mapped file
 * (latent_dataset_new_for_bytes) may be streamed: its rows are then read
 * in chunks of @chunk_rows (latent-rows.h), each let go after use, and
 * its values are never written. 0 holds it in memory. Only a streamed
 * dataset may be above LATENT_DATASET_MAX_VALUES. */
void           latent_dataset_set_stream_chunk_rows (LatentDataset *self,
                                                     guint          chunk_rows);
guint          latent_dataset_get_stream_chunk_rows (LatentDataset *self);
gboolean       latent_dataset_is_streamed      (LatentDataset  *self);
/* The float32 copy a streamed dataset is read from, when its own file's
 * values could not be used where they lie (latent-float-copy.h). */
void           latent_dataset_set_stream_copy  (LatentDataset  *self,
                                                const char     *copy);
const char    *latent_dataset_get_stream_copy  (LatentDataset  *self);
/* "streamed from disk, 36 GB, 256 MB chunks"; NULL when in memory. */
char          *latent_dataset_describe_storage (LatentDataset  *self);
/* A streamed dataset's rows @first … @first + @n − 1: let go of their
 * memory (they are read from the file again if used). Nothing for a
 * dataset in memory. */
void           latent_dataset_release_rows     (LatentDataset  *self,
                                                guint           first,
                                                guint           n);
/* Rows about to be used here and there, not in order (a sample): no
 * reading ahead of each until FALSE is said again. */
void           latent_dataset_expect_scattered (LatentDataset  *self,
                                                gboolean        scattered);
/* Reads them in now, and maps them, so that using them takes no page
 * faults: what a streamed source's read-ahead thread calls for the next
 * chunk while this one is used. */
void           latent_dataset_load_rows        (LatentDataset  *self,
                                                guint           first,
                                                guint           n);
/* Those rows finite, else FALSE naming the file, row and column: a
 * streamed dataset's rows are checked as they are read, not at loading. */
gboolean       latent_dataset_check_rows       (LatentDataset  *self,
                                                guint           first,
                                                guint           n,
                                                GError        **error);

G_END_DECLS
