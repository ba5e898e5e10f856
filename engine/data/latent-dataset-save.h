/* latent-dataset-save.h — the file a dataset writer writes: whole or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-dataset.h"

G_BEGIN_DECLS

typedef struct _LatentSaveFile LatentSaveFile;

/* Opens @path for writing. When @path is absent or a regular file, the bytes
 * go to a temporary file beside it that latent_save_file_commit () renames
 * over it, so a failure never leaves half a file; anything else (a symbolic
 * link such as /dev/stdout, a pipe, a device) is written in place. Errors
 * (LATENT_DATA_ERROR_IO) name @path. */
LatentSaveFile *latent_save_file_open   (const char      *path,
                                         GError         **error);
gboolean        latent_save_file_write  (LatentSaveFile  *file,
                                         const void      *data,
                                         gsize            len,
                                         GError         **error);
/* Flushes and closes; a full disk shows here. Before committing several
 * files, close them all first, so that a failure replaces none. */
gboolean        latent_save_file_close  (LatentSaveFile  *file,
                                         GError         **error);
/* Closes if still open, then moves the temporary file over the path. */
gboolean        latent_save_file_commit (LatentSaveFile  *file,
                                         GError         **error);
/* All of @data to @path, as above: open, write, commit. */
gboolean        latent_save_file_contents (const char    *path,
                                           const void    *data,
                                           gsize          len,
                                           GError       **error);
/* Removes the temporary file unless committed. */
void            latent_save_file_free   (LatentSaveFile  *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentSaveFile, latent_save_file_free)

G_END_DECLS
