/* latent-palette.c — the one colour-blind-safe palette every figure uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-palette"

#include "latent-palette.h"

#include <math.h>

/* Okabe & Ito's colour-blind-safe set (without black, which vanishes on dark
 * backgrounds), then three colours of Paul Tol's "muted" scheme. The order puts
 * the most distinguishable colours first, since most runs use a small K. */
static const guint8 base[LATENT_PALETTE_SIZE][3] = {
  { 0x00, 0x72, 0xb2 },  /* blue */
  { 0xe6, 0x9f, 0x00 },  /* orange */
  { 0x00, 0x9e, 0x73 },  /* bluish green */
  { 0xd5, 0x5e, 0x00 },  /* vermillion */
  { 0x56, 0xb4, 0xe9 },  /* sky blue */
  { 0xcc, 0x79, 0xa7 },  /* reddish purple */
  { 0xf0, 0xe4, 0x42 },  /* yellow */
  { 0x33, 0x22, 0x88 },  /* indigo */
  { 0x99, 0x99, 0x33 },  /* olive */
  { 0x88, 0x22, 0x55 },  /* wine */
};

void
latent_palette_color (guint   index,
                      double *r,
                      double *g,
                      double *b)
{
  guint cycle = index / LATENT_PALETTE_SIZE;
  const guint8 *c = base[index % LATENT_PALETTE_SIZE];
  double rgb[3] = { c[0] / 255.0, c[1] / 255.0, c[2] / 255.0 };

  /* Later cycles alternate lighter and darker shades, each pair further from
   * the base, so large K still gets colours that differ from their neighbours. */
  if (cycle > 0)
    {
      double amount = MIN (0.3 + 0.15 * ((cycle - 1) / 2), 0.75);
      double target = (cycle % 2 == 1) ? 1.0 : 0.0;

      for (guint i = 0; i < 3; i++)
        rgb[i] += (target - rgb[i]) * amount;
    }

  if (r) *r = rgb[0];
  if (g) *g = rgb[1];
  if (b) *b = rgb[2];
}

guint32
latent_palette_argb (guint index)
{
  double r, g, b;

  latent_palette_color (index, &r, &g, &b);
  return 0xff000000u
         | ((guint32) lround (r * 255.0) << 16)
         | ((guint32) lround (g * 255.0) << 8)
         | (guint32) lround (b * 255.0);
}

/* From the neutral outwards, evenly spaced: Tol's BuRd halves on light
 * figures; on dark ones the same hues reversed in lightness, so strength
 * still reads as distance from the background. */
static const guint8 diverging_light[2][5][3] = {
  { { 0xf7, 0xf7, 0xf7 }, { 0xd1, 0xe5, 0xf0 }, { 0x92, 0xc5, 0xde }, { 0x43, 0x93, 0xc3 }, { 0x21, 0x66, 0xac } },
  { { 0xf7, 0xf7, 0xf7 }, { 0xfd, 0xdb, 0xc7 }, { 0xf4, 0xa5, 0x82 }, { 0xd6, 0x60, 0x4d }, { 0xb2, 0x18, 0x2b } },
};
static const guint8 diverging_dark[2][4][3] = {
  { { 0x2a, 0x2a, 0x2e }, { 0x21, 0x66, 0xac }, { 0x43, 0x93, 0xc3 }, { 0x92, 0xc5, 0xde } },
  { { 0x2a, 0x2a, 0x2e }, { 0xb2, 0x18, 0x2b }, { 0xd6, 0x60, 0x4d }, { 0xf4, 0xa5, 0x82 } },
};

void
latent_palette_diverging (double    t,
                          gboolean  dark,
                          double   *r,
                          double   *g,
                          double   *b)
{
  const guint n = dark ? 4 : 5;
  const guint8 (*stops)[3];
  double a, pos;
  guint i;

  if (isnan (t))
    t = 0.0;
  t = CLAMP (t, -1.0, 1.0);
  stops = dark ? diverging_dark[t > 0.0] : diverging_light[t > 0.0];
  pos = fabs (t) * (n - 1);
  i = MIN ((guint) pos, n - 2);
  a = pos - i;
  if (r) *r = (stops[i][0] + (stops[i + 1][0] - stops[i][0]) * a) / 255.0;
  if (g) *g = (stops[i][1] + (stops[i + 1][1] - stops[i][1]) * a) / 255.0;
  if (b) *b = (stops[i][2] + (stops[i + 1][2] - stops[i][2]) * a) / 255.0;
}

guint32
latent_palette_diverging_argb (double   t,
                               gboolean dark)
{
  double r, g, b;

  latent_palette_diverging (t, dark, &r, &g, &b);
  return 0xff000000u
         | ((guint32) lround (r * 255.0) << 16)
         | ((guint32) lround (g * 255.0) << 8)
         | (guint32) lround (b * 255.0);
}

void
latent_palette_verdict (gboolean  right,
                        double   *r,
                        double   *g,
                        double   *b)
{
  latent_palette_color (right ? 2 : 3, r, g, b);
}
