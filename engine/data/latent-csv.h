/* latent-csv.h — CSV/TSV reader: header detection, a label column, missing
 * values, text in number columns, columns left out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* What to do with a cell of text in a column of numbers. */
typedef enum {
  LATENT_CSV_TEXT_REFUSE,    /* refuse the file, naming the cell */
  LATENT_CSV_TEXT_MISSING,   /* a missing value */
  LATENT_CSV_TEXT_ONE_HOT,   /* the column is categorical: a 0/1 column per value */
} LatentCsvText;

/* What to do with a missing value: an empty cell, NA, N/A, NaN, null, ?
 * or - (or text, as LATENT_CSV_TEXT_MISSING says). */
typedef enum {
  LATENT_CSV_MISSING_REFUSE,  /* refuse the file, naming the cell */
  LATENT_CSV_MISSING_DROP,    /* leave out the rows that have one */
  LATENT_CSV_MISSING_MEAN,    /* fill in the column's mean */
} LatentCsvMissing;

/* At most this many values make a categorical column. */
#define LATENT_CSV_MAX_CATEGORIES 256

/* What the choices did, for a person to see. */
typedef struct {
  guint rows_dropped;
  guint cells_filled;
  guint columns_one_hot;     /* categorical columns made into 0/1 columns */
  guint columns_ignored;
} LatentCsvReport;

typedef struct {
  const char *label_column; /* column name, or 1-based index as text; NULL = automatic:
                             * the last column if the header calls it "label" or it is
                             * non-numeric; "none" = no labels */
  char        delimiter;    /* 0 = automatic: tab for .tsv or when the first line has tabs
                             * and no commas, ';' if only semicolons, else ',' */
  const char * const *ignore; /* columns left out (names or 1-based numbers), NULL-ended; or NULL */
  LatentCsvText    text;
  LatentCsvMissing missing;
  gboolean         standardise; /* each number column to mean 0 and standard deviation 1 */
  LatentCsvReport *report;      /* filled in when not NULL */
} LatentCsvOptions;

LatentDataset *latent_csv_load        (const char              *path,
                                       const LatentCsvOptions  *options,
                                       GError                 **error);
/* The same parser over bytes already in memory; @name is used in messages. */
LatentDataset *latent_csv_load_bytes  (GBytes                  *bytes,
                                       const char              *name,
                                       const LatentCsvOptions  *options,
                                       GError                 **error);

/* Whether @cell (@len bytes) is a marker spreadsheets and R write for a
 * missing value: NA, N/A, NaN, null, ?, -, #N/A (any case, spaces around). */
gboolean       latent_csv_is_missing  (const char              *cell,
                                       gsize                    len);

/* The first @max_records records of @path as they are, cells as text
 * (GStrv each), the header among them: what an import dialog previews. */
GPtrArray     *latent_csv_preview     (const char              *path,
                                       guint                    max_records,
                                       GError                 **error);

/* A one-column label file (one label per line, optional header). Text labels
 * become classes in order of first appearance; integer labels become classes
 * in sorted order. Returns n_labels class indices; free with g_free(). */
gint32        *latent_csv_load_labels (const char              *path,
                                       guint                   *n_labels,
                                       guint                   *n_classes,
                                       GStrv                   *class_names,
                                       GError                 **error);

/* A header row (the column names, or f1, f2, … when the names would not
 * read back as a header), values as "%.9g" in the C locale, and with labels
 * a last column "label": class names, or class indices when there are none.
 * latent_csv_load () reads it back with the same values, per-row classes and
 * class count as long as every class occurs; class indices follow the
 * reader's order (first appearance, or integer order for integer names).
 * Tab-separated for a name ending in .tsv. Replaced whole or not at all,
 * except where @path is no regular file (/dev/stdout). */
gboolean       latent_csv_save        (LatentDataset           *dataset,
                                       const char              *path,
                                       GError                 **error);

G_END_DECLS
