/* latent-hdf5.h — HDF5 files, through Debian's libhdf5
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

/* The datasets of @path that can be data or labels (numbers or text, 1 to
 * 4 dimensions), by path without the leading slash ("train/images"). */
GStrv          latent_hdf5_list (const char  *path,
                                 GError     **error);

/* A dataset of @path as rows, read a block of rows at a time: shapes and
 * scaling as NumPy arrays' (latent-npy.h: (n, d) tables, (n, h, w) and
 * (n, h, w, c) or (n, c, h, w) images, bytes of images scaled to [0, 1]).
 * The dataset, its labels and its test data are @data_name and
 * @labels_name, or chosen by their names as an .npz archive's are
 * (latent-arrays.h), LATENT_DATA_ERROR_AMBIGUOUS when they do not tell. */
LatentDataset *latent_hdf5_load (const char  *path,
                                 const char  *data_name,
                                 const char  *labels_name,
                                 GError     **error);

G_END_DECLS
