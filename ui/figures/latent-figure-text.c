/* latent-figure-text.c — a figure's words, kept as words in SVG
 *
 * Cairo's SVG surface writes text as glyph outlines, which Inkscape cannot
 * edit. Every figure shows its text through _latent_figure_show_text ():
 * on any other surface that is cairo_show_text (); on an SVG surface
 * marked by _latent_figure_keep_text () it writes an SVG <text> element
 * instead (position, size, rotation, weight, colour, halo), which the
 * exporter puts on top of the drawing when the surface is finished.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure"

#include "latent-figure-private.h"

#include <math.h>
#include <string.h>

static const cairo_user_data_key_t text_key;

void
_latent_figure_keep_text (cairo_surface_t *surface,
                          GString         *elements)
{
  cairo_surface_set_user_data (surface, &text_key, elements, NULL);
}

static void
append_colour (GString         *out,
               const char      *attribute,
               cairo_pattern_t *source)
{
  double r = 0, g = 0, b = 0, a = 1;

  if (cairo_pattern_get_type (source) == CAIRO_PATTERN_TYPE_SOLID)
    cairo_pattern_get_rgba (source, &r, &g, &b, &a);
  g_string_append_printf (out, " %s=\"#%02x%02x%02x\"", attribute, (int) round (r * 255),
                          (int) round (g * 255), (int) round (b * 255));
  if (a < 1.0)
    {
      char opacity[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, " %s-opacity=\"%s\"", attribute, g_ascii_formatd (opacity, sizeof opacity, "%.3g", a));
    }
}

static void
append_number (GString    *out,
               const char *attribute,
               double      value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* A point, whatever the locale: SVG is not localised. */
  g_string_append_printf (out, " %s=\"%s\"", attribute, g_ascii_formatd (buf, sizeof buf, "%.2f", value));
}

/* One <text> at the current point, in device units, then the point moves
 * on as cairo_show_text () would move it. @halo is the halo's source, or
 * NULL. */
static void
write_text (cairo_t         *cr,
            GString         *out,
            const char      *text,
            cairo_pattern_t *halo,
            double           halo_width)
{
  cairo_matrix_t font, ctm, full;
  cairo_font_face_t *face = cairo_get_font_face (cr);
  cairo_text_extents_t ext;
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  double x, y, size, angle;

  cairo_get_current_point (cr, &x, &y);
  cairo_user_to_device (cr, &x, &y);
  cairo_get_font_matrix (cr, &font);
  cairo_get_matrix (cr, &ctm);
  cairo_matrix_multiply (&full, &font, &ctm);
  size = sqrt (fabs (full.xx * full.yy - full.xy * full.yx));
  angle = atan2 (full.yx, full.xx) * 180.0 / G_PI;

  g_string_append (out, "<text");
  append_number (out, "x", x);
  append_number (out, "y", y);
  append_number (out, "font-size", size);
  if (cairo_font_face_get_type (face) == CAIRO_FONT_TYPE_TOY)
    {
      g_autofree char *family = g_markup_escape_text (cairo_toy_font_face_get_family (face), -1);

      g_string_append_printf (out, " font-family=\"%s\"", family);
      if (cairo_toy_font_face_get_weight (face) == CAIRO_FONT_WEIGHT_BOLD)
        g_string_append (out, " font-weight=\"bold\"");
      if (cairo_toy_font_face_get_slant (face) != CAIRO_FONT_SLANT_NORMAL)
        g_string_append (out, " font-style=\"italic\"");
    }
  append_colour (out, "fill", cairo_get_source (cr));
  if (halo != NULL)
    {
      append_colour (out, "stroke", halo);
      append_number (out, "stroke-width", halo_width * sqrt (fabs (ctm.xx * ctm.yy - ctm.xy * ctm.yx)));
      g_string_append (out, " stroke-linejoin=\"round\" paint-order=\"stroke\"");
    }
  if (fabs (angle) > 0.01)
    {
      char a[G_ASCII_DTOSTR_BUF_SIZE], bx[G_ASCII_DTOSTR_BUF_SIZE], by[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, " transform=\"rotate(%s %s %s)\"", g_ascii_formatd (a, sizeof a, "%.2f", angle),
                              g_ascii_formatd (bx, sizeof bx, "%.2f", x), g_ascii_formatd (by, sizeof by, "%.2f", y));
    }
  g_string_append_printf (out, " xml:space=\"preserve\">%s</text>\n", escaped);

  cairo_text_extents (cr, text, &ext);
  cairo_rel_move_to (cr, ext.x_advance, ext.y_advance);
}

void
_latent_figure_show_text (cairo_t    *cr,
                          const char *text)
{
  GString *kept = cairo_surface_get_user_data (cairo_get_target (cr), &text_key);

  if (kept == NULL)
    cairo_show_text (cr, text);
  else if (cairo_has_current_point (cr) && text && *text)
    write_text (cr, kept, text, NULL, 0);
}

void
_latent_figure_show_halo_text (cairo_t    *cr,
                               const char *text,
                               double      r,
                               double      g,
                               double      b,
                               double      alpha,
                               double      halo_width)
{
  GString *kept = cairo_surface_get_user_data (cairo_get_target (cr), &text_key);
  cairo_pattern_t *halo;
  double x, y;

  if (!cairo_has_current_point (cr) || text == NULL || *text == '\0')
    return;
  halo = cairo_pattern_create_rgba (r, g, b, alpha);
  if (kept != NULL)
    write_text (cr, kept, text, halo, halo_width);
  else
    {
      cairo_get_current_point (cr, &x, &y);
      cairo_save (cr);
      cairo_text_path (cr, text);
      cairo_set_source (cr, halo);
      cairo_set_line_width (cr, halo_width);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
      cairo_stroke (cr);
      cairo_restore (cr);
      cairo_move_to (cr, x, y);
      cairo_show_text (cr, text);
    }
  cairo_pattern_destroy (halo);
}

gboolean
_latent_figure_insert_text (GByteArray *svg,
                            GString    *elements)
{
  static const char end[] = "</svg>";
  const guint8 *data = svg->data;

  if (elements->len == 0)
    return TRUE;
  for (gsize i = svg->len; i >= sizeof end - 1; i--)
    if (memcmp (data + i - (sizeof end - 1), end, sizeof end - 1) == 0)
      {
        g_byte_array_remove_range (svg, i - (sizeof end - 1), svg->len - (i - (sizeof end - 1)));
        g_byte_array_append (svg, (const guint8 *) "<g id=\"text\">\n", 14);
        g_byte_array_append (svg, (const guint8 *) elements->str, elements->len);
        g_byte_array_append (svg, (const guint8 *) "</g>\n</svg>\n", 12);
        return TRUE;
      }
  return FALSE;
}
