/* latent-file.h — opening the files a person names, safely: regular files
 * only (a FIFO, a device or a socket is refused before anything is read,
 * and never blocks), their size known, and whole reads bounded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <gio/gio.h>

G_BEGIN_DECLS

/* A file descriptor open for reading on @path, a regular file after links,
 * with its size in @size; -1 with an error (LATENT_DATA_ERROR_IO) naming
 * the file and what it is instead. */
int     latent_file_open   (const char  *path,
                            goffset     *size,
                            GError     **error);
/* The same as a stdio stream. */
FILE   *latent_file_fopen  (const char  *path,
                            goffset     *size,
                            GError     **error);
/* The whole file, refused (LATENT_DATA_ERROR_TOO_LARGE) above @max_bytes
 * with the limit and @what in the message ("a kernel file"). Large files
 * are mapped, not copied. */
GBytes *latent_file_read   (const char  *path,
                            gsize        max_bytes,
                            const char  *what,
                            GError     **error);
/* The whole file mapped read-only, whatever its size (an empty file is
 * read): what a streamed dataset is made from
 * (latent_dataset_new_for_bytes). Its bytes must not be written. */
GBytes *latent_file_map    (const char  *path,
                            GError     **error);

/* @path's last part without its extension ("data/cells.h5" → "cells"),
 * what a dataset from it is called. */
char   *latent_file_stem   (const char  *path);

G_END_DECLS
