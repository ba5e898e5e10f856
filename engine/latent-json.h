/* latent-json.h — numbers into JSON that every reader accepts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* json_builder_add_double_value(), but json-glib 1.6 writes a double whose
 * shortest form has an exponent and no point (1e-10) as "1e-10.0", which is
 * not JSON. Such a value is written as its neighbour one unit in the last
 * place away, whose shortest form has a point: the same number to 16
 * digits. Non-finite values become null. */
void latent_json_add_double (JsonBuilder *builder,
                             double       value);

/* A builder whose arrays of 4,096 numbers and more (every helper below)
 * stand in its tree as a token and are formatted straight into the file by
 * latent_json_builder_write_file (), not held as a node per number (json-glib
 * takes ~90 bytes a number: a 20,000-class confusion matrix took 4.2 GB).
 * The file's bytes are those json-glib would write; the numbers must live
 * until the write. */
JsonBuilder *latent_json_builder_new        (void);
/* @data (freed with g_free) lives as long as @builder: for a temporary
 * array given to a helper below. */
void         latent_json_builder_keep       (JsonBuilder  *builder,
                                             gpointer      data);
/* The builder's root, compact, to @path as latent_json_write_file () does. */
gboolean     latent_json_builder_write_file (JsonBuilder  *builder,
                                             const char   *path,
                                             GError      **error);

/* A member NAME holding a number, an array of N numbers, or ROWS arrays of
 * COLS numbers (row-major), each through latent_json_add_double (). */
void latent_json_add_number_member (JsonBuilder  *builder,
                                    const char   *name,
                                    double        value);
void latent_json_add_vector_member (JsonBuilder  *builder,
                                    const char   *name,
                                    const double *values,
                                    guint         n);
void latent_json_add_float_vector_member (JsonBuilder *builder,
                                          const char  *name,
                                          const float *values,
                                          guint        n);
void latent_json_add_int_vector_member  (JsonBuilder  *builder,
                                         const char   *name,
                                         const gint32 *values,
                                         guint         n);
void latent_json_add_uint_vector_member (JsonBuilder  *builder,
                                         const char   *name,
                                         const guint  *values,
                                         guint         n);
void latent_json_add_matrix        (JsonBuilder  *builder,
                                    const float  *values,
                                    guint         rows,
                                    guint         cols);
void latent_json_add_matrix_member (JsonBuilder  *builder,
                                    const char   *name,
                                    const float  *values,
                                    guint         rows,
                                    guint         cols);
void latent_json_add_uint_matrix_member (JsonBuilder *builder,
                                         const char  *name,
                                         const guint *values,
                                         guint        rows,
                                         guint        cols);

/* Exactly COUNT finite numbers in NODE, arrays nested in any way read in
 * order (a matrix as written above), into OUT; FALSE otherwise. */
gboolean latent_json_read_numbers  (JsonNode     *node,
                                    double       *out,
                                    guint         count);

/* @root as JSON to @path through latent_save_file_open (): a regular file
 * is replaced whole or not at all, anything else (/dev/stdout, a pipe) is
 * written in place. */
gboolean latent_json_write_file    (JsonNode     *root,
                                    gboolean      pretty,
                                    const char   *path,
                                    GError      **error);

/* Larger than any result Latent writes (the autoencoder's weights, 1024 ×
 * 784 of them twice, take 30 MB). */
#define LATENT_MODEL_MAX_BYTES ((gsize) 1 << 30)

/* The most weights a model read from a file may hold: as many as the
 * autoencoder and logistic regression train at most. */
#define LATENT_MODEL_MAX_WEIGHTS ((guint64) 1 << 26)

/* Deeper than any file Latent writes (they nest 4 levels) by far. */
#define LATENT_JSON_MAX_DEPTH 64

/* A parser holding the JSON document in @path, a regular file of at most
 * @max_bytes; nesting deeper than LATENT_JSON_MAX_DEPTH is refused before
 * parsing, as json-glib's parser recurses. An array of numbers longer than
 * 256 KiB is not parsed by json-glib (it takes ~27 bytes a byte) but stands
 * in the tree as a string token that latent_json_read_numbers (),
 * latent_json_read_floats () and latent_json_array_length () read from the
 * file's bytes, which the parser keeps. Errors are LATENT_DATA_ERROR's
 * and name the file, and @what it should be when it is too large. */
JsonParser *latent_json_load_file  (const char   *path,
                                    gsize         max_bytes,
                                    const char   *what,
                                    GError      **error);

/* The number of elements of the array member NAME of OBJECT (the rows of
 * a matrix), 0 when it is missing or no array. */
guint    latent_json_array_length  (JsonObject   *object,
                                    const char   *name);
/* Exactly COUNT finite numbers from the member NAME of OBJECT into a new
 * float array; the error names PATH and NAME. */
float   *latent_json_read_floats   (JsonObject   *object,
                                    const char   *name,
                                    gsize         count,
                                    const char   *path,
                                    GError      **error);

G_END_DECLS
