/* latent-catalog.h — named datasets, and loading any dataset from a spec or a path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-csv.h"
#include "latent-dataset.h"

G_BEGIN_DECLS

typedef struct {
  const char *name;         /* "iris", "fashion-mnist", "fashion-mnist-test", "blobs", "moons", "rings" */
  const char *description;  /* one line, marked with N_(): translate with g_dgettext (GETTEXT_PACKAGE, …) */
  gboolean    available;    /* e.g. FALSE when the Debian package is not installed */
  char       *path;         /* file it loads from, or NULL for generators */
} LatentCatalogEntry;

/* Of LatentCatalogEntry *, freed with the array. */
GPtrArray     *latent_catalog_list              (void);
/* $LATENT_FASHION_MNIST_DIR, else /usr/share/datasets/fashion-mnist; NULL when
 * it holds no train-images file. */
const char    *latent_catalog_fashion_mnist_dir (void);
/* Looks in $LATENT_DATA_DIR, the source tree's data/, then the installed data
 * directory; NULL when not found. */
char          *latent_catalog_find_data_file    (const char  *basename);
/* @spec: "iris", "fashion-mnist[:n=N]", "fashion-mnist-test[:n=N]",
 * "blobs[:n=,k=,dims=,seed=]", "moons[:n=,noise=,seed=]",
 * "rings[:n=,rings=,noise=,seed=]", or a CSV/TSV/NumPy/IDX/PNG/JPEG file
 * ("FILE.npz:x=ARRAY,y=ARRAY", "FILE.h5:x=GROUP/DATASET,y=…" choose a
 * file's arrays: "y=" for no labels; "TABLE.csv:label=COLUMN,ignore=COLUMN,
 * missing=drop|mean,text=missing|onehot,standardise" reads a table with
 * those choices, latent-csv.h).
 * @labels_path (nullable): labels to attach (a one-column text/CSV file or an
 * IDX label file); for IDX images a sibling label file is found otherwise. */
/* Whether @spec names a built-in dataset of rows (every one but the
 * pattern), known without loading it. */
gboolean       latent_catalog_builtin_gives_rows (const char  *spec);
/* A table's spec ("TABLE.csv:missing=mean,…", or the path alone) read as
 * latent_catalog_load () reads it, with what its choices did in @report:
 * what an import dialog shows of them. */
LatentDataset *latent_catalog_load_table        (const char       *spec,
                                                 LatentCsvReport  *report,
                                                 GError          **error);
/* @value as a spec's option gives it whole: its '\', ',' and ':' escaped
 * by a backslash ("x=a\,b" is the array "a,b"). */
char          *latent_catalog_escape            (const char  *value);
/* The file or folder @spec names, its options left out. */
char          *latent_catalog_spec_file         (const char  *spec);
/* The arrays of an .npz or HDF5 file, for a person to choose from when
 * loading it said LATENT_DATA_ERROR_AMBIGUOUS. */
GStrv          latent_catalog_list_arrays       (const char  *path,
                                                 GError     **error);
LatentDataset *latent_catalog_load              (const char  *spec,
                                                 const char  *labels_path,
                                                 GError     **error);

G_END_DECLS
