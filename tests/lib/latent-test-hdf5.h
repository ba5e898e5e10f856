/* latent-test-hdf5.h — HDF5 files written through libhdf5, for the
 * loader's tests and the formats' agreement
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <hdf5.h>

#include <glib.h>

/* A new file at @path; close with H5Fclose (). */
static inline hid_t
test_hdf5_create (const char *path)
{
  hid_t file = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);

  g_assert_cmpint (file, >=, 0);
  return file;
}

/* Dataset @name ("train/images": its groups made on the way) of @ndim
 * @dims, stored as @file_type and written from @data of @memory_type. */
static inline void
test_hdf5_write (hid_t          file,
                 const char    *name,
                 hid_t          file_type,
                 hid_t          memory_type,
                 int            ndim,
                 const hsize_t *dims,
                 const void    *data)
{
  hid_t links = H5Pcreate (H5P_LINK_CREATE);
  hid_t space = H5Screate_simple (ndim, dims, NULL);
  hid_t dataset;

  H5Pset_create_intermediate_group (links, 1);
  dataset = H5Dcreate2 (file, name, file_type, space, links, H5P_DEFAULT, H5P_DEFAULT);
  g_assert_cmpint (dataset, >=, 0);
  g_assert_cmpint (H5Dwrite (dataset, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), >=, 0);
  H5Dclose (dataset);
  H5Sclose (space);
  H5Pclose (links);
}
