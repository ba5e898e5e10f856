/* latent-image-folder.c — a photo collection sorted into class folders as
 * rows of images
 *
 * Each image is decoded once. Without a size given, the target is the most
 * common size, known only after every image is read; so each is kept, until
 * then, at the scale that size would be given (at most
 * LATENT_IMAGE_FOLDER_DEFAULT_SIDE on a side): an image of the most common
 * size is then already at the target, the others are resized once more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-image-folder"

#include "latent-image-folder.h"
#include "latent-jpeg.h"
#include "latent-png.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* More images than this is not a folder to load into memory. */
#define MAX_IMAGES (1 << 20)

typedef struct {
  guint  width, height;      /* as decoded */
  guint  kept_width, kept_height, channels;
  float *pixels;             /* kept_width × kept_height × channels */
  gint32 label;
} Picture;

static void
picture_clear (gpointer data)
{
  g_free (((Picture *) data)->pixels);
}

static gboolean
is_image_name (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return g_str_has_suffix (lower, ".png") || g_str_has_suffix (lower, ".jpg") || g_str_has_suffix (lower, ".jpeg");
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* The names in @folder that are images (@images) or folders, sorted. */
static GPtrArray *
list_folder (const char  *folder,
             gboolean     images,
             GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    return NULL;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (name[0] == '.')
        continue;
      if (images ? is_image_name (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR)
                 : g_file_test (path, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  return g_steal_pointer (&names);
}

/* Along one axis: @m positions from @n, @c channels each, positions
 * @in_step and @out_step floats apart. Shrinking averages the source over
 * each output's share; growing interpolates linearly. */
static void
resample_line (const float *in,
               guint        n,
               gsize        in_step,
               float       *out,
               guint        m,
               gsize        out_step,
               guint        c)
{
  const double scale = (double) n / m;

  for (guint i = 0; i < m; i++)
    for (guint ch = 0; ch < c; ch++)
      {
        double value;

        if (scale > 1)
          {
            const double a = i * scale, b = (i + 1) * scale;
            double sum = 0;

            for (guint k = (guint) a; k < n && k < b; k++)
              sum += (MIN (b, k + 1.0) - MAX (a, (double) k)) * in[k * in_step + ch];
            value = sum / scale;
          }
        else
          {
            const double x = CLAMP ((i + 0.5) * scale - 0.5, 0, n - 1);
            const guint k0 = (guint) x, k1 = MIN (k0 + 1, n - 1);
            const double t = x - k0;

            value = (1 - t) * in[k0 * in_step + ch] + t * in[k1 * in_step + ch];
          }
        out[i * out_step + ch] = value;
      }
}

/* @pixels (@w × @h × @c) at @dw × @dh. */
static float *
resample (const float *pixels,
          guint        w,
          guint        h,
          guint        c,
          guint        dw,
          guint        dh)
{
  g_autofree float *across = g_new (float, (gsize) dw * h * c);
  float *out = g_new (float, (gsize) dw * dh * c);

  for (guint y = 0; y < h; y++)
    resample_line (pixels + (gsize) y * w * c, w, c, across + (gsize) y * dw * c, dw, c, c);
  for (guint x = 0; x < dw; x++)
    resample_line (across + (gsize) x * c, h, (gsize) dw * c, out + (gsize) x * c, dh, (gsize) dw * c, c);
  return out;
}

/* At most @side on either side, the shape kept, at least 1 × 1. */
static void
fit_side (guint  width,
          guint  height,
          guint  side,
          guint *out_width,
          guint *out_height)
{
  const double scale = MIN (1.0, (double) side / MAX (width, height));

  *out_width = MAX (1, (guint) round (width * scale));
  *out_height = MAX (1, (guint) round (height * scale));
}

/* One image decoded, as grey (1) or colour (3) channels, kept at
 * @keep_width × @keep_height (0: at most the default side). */
static gboolean
picture_load (const char  *path,
              guint        keep_width,
              guint        keep_height,
              Picture     *picture,
              GError     **error)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  g_autoptr(LatentDataset) image = g_str_has_suffix (lower, ".png") ? latent_png_load (path, error)
                                                                     : latent_jpeg_load (path, error);
  g_autofree float *pixels = NULL;
  const float *values;
  guint w, h, c, keep_c;

  if (image == NULL)
    return FALSE;
  if (!latent_dataset_get_image_shape (image, &w, &h, &c, NULL))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED, _("%s: not an image"), path);
      return FALSE;
    }
  values = latent_dataset_get_data (image);
  /* Alpha goes; grey and colour stay what they are. */
  keep_c = c >= 3 ? 3 : 1;
  pixels = g_new (float, (gsize) w * h * keep_c);
  for (gsize p = 0; p < (gsize) w * h; p++)
    for (guint ch = 0; ch < keep_c; ch++)
      pixels[p * keep_c + ch] = values[p * c + ch];

  picture->width = w;
  picture->height = h;
  picture->channels = keep_c;
  if (keep_width == 0)
    fit_side (w, h, LATENT_IMAGE_FOLDER_DEFAULT_SIDE, &keep_width, &keep_height);
  picture->kept_width = keep_width;
  picture->kept_height = keep_height;
  picture->pixels = keep_width == w && keep_height == h ? g_steal_pointer (&pixels)
                                                        : resample (pixels, w, h, keep_c, keep_width, keep_height);
  return TRUE;
}

/* The size most images have (of a tie, the one that got there first). */
static void
most_common_size (GArray *pictures,
                  guint  *width,
                  guint  *height)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint best = 0;

  for (guint i = 0; i < pictures->len; i++)
    {
      const Picture *p = &g_array_index (pictures, Picture, i);
      gint64 key = (gint64) p->width << 32 | p->height;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, &key)) + 1;

      g_hash_table_insert (counts, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (n));
      if (n > best)
        {
          best = n;
          *width = p->width;
          *height = p->height;
        }
    }
}

LatentDataset *
latent_image_folder_load (const char               *folder,
                          guint                     width,
                          guint                     height,
                          LatentImageFolderColour   colour,
                          GError                  **error)
{
  g_autoptr(GPtrArray) classes = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) labels = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GArray) pictures = g_array_new (FALSE, TRUE, sizeof (Picture));
  g_autoptr(LatentDataset) dataset = NULL;
  g_autofree char *name = NULL;
  guint channels = colour == LATENT_IMAGE_FOLDER_COLOUR ? 3 : 1;
  float *out;

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail ((width == 0) == (height == 0), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_array_set_clear_func (pictures, picture_clear);
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, _("%s: not a folder"), folder);
      return NULL;
    }
  if (width > LATENT_PNG_MAX_SIDE || height > LATENT_PNG_MAX_SIDE)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: images of %u × %u: each side is at most %u"), folder, width, height, LATENT_PNG_MAX_SIDE);
      return NULL;
    }

  /* Subfolders of images are classes; else the folder's own images. */
  classes = list_folder (folder, FALSE, error);
  if (classes == NULL)
    return NULL;
  for (guint k = 0; k < classes->len; k++)
    {
      g_autofree char *sub = g_build_filename (folder, g_ptr_array_index (classes, k), NULL);
      g_autoptr(GPtrArray) names = list_folder (sub, TRUE, error);
      gint32 label;

      if (names == NULL)
        return NULL;
      if (names->len == 0)
        {
          g_ptr_array_remove_index (classes, k--);
          continue;
        }
      label = k;
      for (guint i = 0; i < names->len; i++)
        {
          g_ptr_array_add (files, g_build_filename (sub, g_ptr_array_index (names, i), NULL));
          g_array_append_val (labels, label);
        }
    }
  if (classes->len == 0)
    {
      g_autoptr(GPtrArray) names = list_folder (folder, TRUE, error);

      if (names == NULL)
        return NULL;
      for (guint i = 0; i < names->len; i++)
        g_ptr_array_add (files, g_build_filename (folder, g_ptr_array_index (names, i), NULL));
    }
  if (files->len == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY,
                   _("%s: no PNG or JPEG images in it or in its subfolders"), folder);
      return NULL;
    }
  if (files->len > MAX_IMAGES)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u images, more than the %u a dataset takes"), folder, files->len, MAX_IMAGES);
      return NULL;
    }
  if (width > 0 && (guint64) files->len * width * height * channels > LATENT_DATASET_MAX_VALUES)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u images of %u × %u are above the limit of %llu values; choose a smaller size"),
                   folder, files->len, width, height, (unsigned long long) LATENT_DATASET_MAX_VALUES);
      return NULL;
    }

  for (guint64 i = 0, kept = 0; i < files->len; i++)
    {
      Picture picture = { 0 };

      if (!picture_load (g_ptr_array_index (files, i), width, height, &picture, error))
        return NULL;
      g_array_append_val (pictures, picture);
      /* What is kept so far is bounded as the dataset will be. */
      kept += (guint64) picture.kept_width * picture.kept_height * 3;
      if (kept > LATENT_DATASET_MAX_VALUES)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                       _("%s: %u images of %u × %u are above the limit of %llu values; choose a smaller size"),
                       folder, files->len, picture.kept_width, picture.kept_height,
                       (unsigned long long) LATENT_DATASET_MAX_VALUES);
          return NULL;
        }
      if (picture.channels == 3 && colour == LATENT_IMAGE_FOLDER_AUTO)
        channels = 3;
    }
  if (width == 0)
    {
      most_common_size (pictures, &width, &height);
      fit_side (width, height, LATENT_IMAGE_FOLDER_DEFAULT_SIDE, &width, &height);
    }
  if ((guint64) files->len * width * height * channels > LATENT_DATASET_MAX_VALUES)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u images of %u × %u are above the limit of %llu values; choose a smaller size"),
                   folder, files->len, width, height, (unsigned long long) LATENT_DATASET_MAX_VALUES);
      return NULL;
    }

  name = g_path_get_basename (folder);
  dataset = latent_dataset_new (name, files->len, width * height * channels, error);
  if (dataset == NULL)
    return NULL;
  out = latent_dataset_get_data (dataset);
  for (guint i = 0; i < pictures->len; i++)
    {
      Picture *p = &g_array_index (pictures, Picture, i);
      g_autofree float *sized = NULL;
      const float *pixels = p->pixels;
      float *row = out + (gsize) i * width * height * channels;

      if (p->kept_width != width || p->kept_height != height)
        pixels = sized = resample (p->pixels, p->kept_width, p->kept_height, p->channels, width, height);
      for (gsize q = 0; q < (gsize) width * height; q++)
        {
          const float *from = pixels + q * p->channels;

          if (channels == p->channels)
            memcpy (row + q * channels, from, sizeof (float) * channels);
          else if (channels == 1)
            /* Luma as Rec. 601 weighs it, as most "convert to grey" do. */
            row[q] = 0.299f * from[0] + 0.587f * from[1] + 0.114f * from[2];
          else
            row[q * 3] = row[q * 3 + 1] = row[q * 3 + 2] = from[0];
        }
      g_clear_pointer (&p->pixels, g_free);
    }
  latent_dataset_set_image_shape (dataset, width, height, channels, FALSE);
  latent_dataset_set_source (dataset, folder);
  if (classes->len > 0)
    {
      g_ptr_array_add (classes, NULL);
      latent_dataset_set_labels (dataset, (gint32 *) labels->data, classes->len - 1, (GStrv) classes->pdata);
    }
  return g_steal_pointer (&dataset);
}
