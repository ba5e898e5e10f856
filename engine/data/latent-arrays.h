/* latent-arrays.h — what files of several named arrays share (NumPy's
 * .npz, HDF5): which array is the data, which its labels and which the
 * test data, told from their names; and classes from label values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* Indices into a file's names; −1 for none. */
typedef struct {
  gint data;
  gint labels;
  gint test_data;
  gint test_labels;
} LatentArrayChoice;

/* Of @names (@n_names arrays of the file @what, in its order), @data_name
 * and @labels_name when given (@labels_name "" is none), else the data: the
 * only array; else the one named as data usually is (x, X, data, features,
 * images, inputs, with train: x_train, train/images …), else the only one
 * not named as labels; its labels the one named as labels are (y, labels,
 * target …) of the same split; and for data of the training split, the
 * arrays of the same names with test for train. Refused
 * (LATENT_DATA_ERROR_AMBIGUOUS) naming the arrays when the names do not
 * tell, or (LATENT_DATA_ERROR_INVALID) when a name given is not there. */
gboolean latent_arrays_choose (const char          *what,
                               const char * const  *names,
                               guint                n_names,
                               const char          *data_name,
                               const char          *labels_name,
                               LatentArrayChoice   *choice,
                               GError             **error);

/* How an array of @ndim dimensions @dims becomes rows: (n) one column,
 * (n, d) a table, (n, h, w) grey images, (n, h, w, c) images with c = 1,
 * 3 or 4 channels, and (n, c, h, w), as PyTorch keeps them, when c is 1
 * or 3 and w is not (channels_first: to be interleaved). */
typedef struct {
  guint64  rows, cols;
  guint    width, height, channels;   /* channels 0: not images */
  gboolean channels_first;
} LatentArrayRows;

/* The layout of @dims as rows, refused naming @what when it has none (no
 * values, over @max_values (LATENT_DATASET_MAX_VALUES, or more for a file
 * streamed), rows or columns beyond 32 bits, 0 or over 4 dimensions, 4
 * with no channels). */
gboolean latent_arrays_rows_of      (const char        *what,
                                     const guint64     *dims,
                                     guint              ndim,
                                     guint64            max_values,
                                     LatentArrayRows   *rows,
                                     GError           **error);
/* "60000 × 784", "()" for no dimensions. */
char    *latent_arrays_describe_shape (const guint64   *dims,
                                       guint            ndim);

/* Classes of @n labels given as numbers: whole numbers, classes in sorted
 * order named by their value, as the CSV label files' are. A number that is
 * not whole is refused naming @what and its index. Free with g_free (). */
gint32  *latent_labels_from_numbers (const double  *values,
                                     gsize          n,
                                     const char    *what,
                                     guint         *n_classes,
                                     GStrv         *class_names,
                                     GError       **error);
/* Classes of @n labels given as text, in order of first appearance. */
gint32  *latent_labels_from_texts   (char * const  *texts,
                                     gsize          n,
                                     guint         *n_classes,
                                     GStrv         *class_names);

G_END_DECLS
