/* latent-npy.h — NumPy arrays: .npy files, and .npz archives of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* A .npy array of booleans, integers or floats (any byte order, C or
 * Fortran order) as rows: (n) is one column, (n, d) a table, (n, h, w)
 * grey images, (n, h, w, c) images with c = 1, 3 or 4 channels, and
 * (n, c, h, w), as PyTorch keeps them, when c is 1 or 3 and w is not.
 * Bytes of images are scaled to [0, 1] as IDX and PNG images are; every
 * other value is kept. NaN and infinities are refused naming the row and
 * column; object, complex, text and structured arrays are refused. */
LatentDataset *latent_npy_load        (const char    *path,
                                       GError       **error);
/* The same from @bytes, named @what in messages. */
LatentDataset *latent_npy_load_bytes  (GBytes        *bytes,
                                       const char    *what,
                                       GError       **error);
/* A label array, (n) or (n, 1): integers (or whole floats) become classes
 * in sorted order, text ('<U', '|S') classes in order of first appearance,
 * as the CSV label files' do. Returns n_labels class indices; free with
 * g_free (). */
gint32        *latent_npy_load_labels (GBytes        *bytes,
                                       const char    *what,
                                       guint         *n_labels,
                                       guint         *n_classes,
                                       GStrv         *class_names,
                                       GError       **error);

/* An .npz archive (numpy.savez): the array @data_name as rows, labelled
 * by @labels_name. NULL names are chosen: the only array; else the one
 * named as data usually is (x, X, data, features, images, inputs, or
 * with _train: x_train, train_images …), its labels the one named as
 * labels are (y, labels, target …, with the same _train), and its test
 * data, where the archive has them, the arrays of the same names with
 * test for train. @labels_name "" is none. An archive whose data cannot be
 * told apart is refused
 * (LATENT_DATA_ERROR_AMBIGUOUS) with the arrays it holds, to ask which. */
LatentDataset *latent_npz_load        (const char    *path,
                                       const char    *data_name,
                                       const char    *labels_name,
                                       GError       **error);
/* The same from @bytes, named @what in messages. */
LatentDataset *latent_npz_load_bytes  (GBytes        *bytes,
                                       const char    *what,
                                       const char    *data_name,
                                       const char    *labels_name,
                                       GError       **error);
/* The names of the arrays in @path's archive, in the archive's order. */
GStrv          latent_npz_list        (const char    *path,
                                       GError       **error);

G_END_DECLS
