/* test-metrics.c — Hungarian matching, accuracy, ARI and NMI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-metrics"

#include <float.h>
#include <math.h>
#include <string.h>

#include "latent-family.h"
#include "latent-metrics.h"
#include "latent-registry.h"

/* Relative tolerance; DBL_MIN lets an exact 0 == 0 pass the strict test. */
#define assert_rel(value, expected, rel)                                      \
  G_STMT_START {                                                              \
    double v_ = (value), e_ = (expected);                                     \
    g_assert_cmpfloat_with_epsilon (v_, e_, (rel) * fabs (e_) + DBL_MIN);     \
  } G_STMT_END

#define EXACT 1e-12

/* The same 64-bit LCG (Knuth's MMIX constants) is used by the Python that
 * produced the scikit-learn reference values below:
 *   x = (x * 6364136223846793005 + 1442695040888963407) % 2**64; out = x >> 33 */
typedef struct { guint64 x; } Lcg;

static guint
lcg_below (Lcg  *g,
           guint m)
{
  g->x = g->x * G_GUINT64_CONSTANT (6364136223846793005)
       + G_GUINT64_CONSTANT (1442695040888963407);
  return (guint) (g->x >> 33) % m;
}

/* class uniform in [0, C); with probability keep% the cluster is a fixed
 * injective function of the class, (5c + 1) mod K, else uniform in [0, K). */
static void
make_noisy (guint64  seed,
            guint    n,
            guint    k,
            guint    c,
            guint    keep,
            gint32  *clusters,
            gint32  *classes)
{
  Lcg g = { seed };

  for (guint i = 0; i < n; i++)
    {
      guint cls = lcg_below (&g, c);

      classes[i] = (gint32) cls;
      if (lcg_below (&g, 100) < keep)
        clusters[i] = (gint32) ((cls * 5 + 1) % k);
      else
        clusters[i] = (gint32) lcg_below (&g, k);
    }
}

/* ---- Hungarian -------------------------------------------------------- */

/* Every row gets a distinct column, min (rows, cols) rows get one, and the
 * returned total is what the assignment costs. */
static void
assert_valid_assignment (const double *cost,
                         guint         rows,
                         guint         cols,
                         const gint32 *assignment,
                         double        total)
{
  g_autofree gboolean *taken = g_new0 (gboolean, cols + 1);
  guint assigned = 0;
  double sum = 0.0;

  for (guint r = 0; r < rows; r++)
    {
      if (assignment[r] < 0)
        {
          g_assert_cmpint (assignment[r], ==, -1);
          continue;
        }
      g_assert_cmpint (assignment[r], <, (gint32) cols);
      g_assert_false (taken[assignment[r]]);
      taken[assignment[r]] = TRUE;
      sum += cost[r * cols + (guint) assignment[r]];
      assigned++;
    }
  g_assert_cmpuint (assigned, ==, MIN (rows, cols));
  g_assert_cmpfloat (sum, ==, total);
}

static void
test_hungarian_textbook (void)
{
  /* Permutations and their costs: (0,1,2) 6, (0,2,1) 11, (1,0,2) 5,
   * (1,2,0) 9, (2,0,1) 7, (2,1,0) 6 — the unique optimum is (1,0,2) = 5. */
  const double cost[] = {
    4, 1, 3,
    2, 0, 5,
    3, 2, 2,
  };
  gint32 a[3];
  double total = latent_hungarian (cost, 3, 3, a);

  g_assert_cmpfloat (total, ==, 5.0);
  g_assert_cmpint (a[0], ==, 1);
  g_assert_cmpint (a[1], ==, 0);
  g_assert_cmpint (a[2], ==, 2);
}

static void
test_hungarian_greedy_fails (void)
{
  /* cost[i][j] = (i + 1)(j + 1). Greedy (row by row, or smallest entry
   * first) takes the diagonal: 1 + 4 + 9 + 16 = 30. The rearrangement
   * inequality makes the anti-diagonal the unique optimum: 4 + 6 + 6 + 4 = 20. */
  const double cost[] = {
    1, 2,  3,  4,
    2, 4,  6,  8,
    3, 6,  9, 12,
    4, 8, 12, 16,
  };
  gint32 a[4];
  double total = latent_hungarian (cost, 4, 4, a);

  g_assert_cmpfloat (total, ==, 20.0);
  for (guint r = 0; r < 4; r++)
    g_assert_cmpint (a[r], ==, 3 - (gint32) r);
}

static void
test_hungarian_rectangular (void)
{
  /* 2×3: greedy gives row 0 column 0 (1), then row 1 column 1 (9) = 10;
   * the optimum is row 0 → 1 (2), row 1 → 0 (1) = 3, column 2 left free. */
  const double wide[] = {
    1, 2, 8,
    1, 9, 9,
  };
  /* 3×2: only two rows can be served; row 1 → 0 (2) and row 2 → 1 (1) = 3,
   * every other choice costs at least 8; row 0 gets nothing. */
  const double tall[] = {
    7, 7,
    2, 6,
    5, 1,
  };
  gint32 a[3];
  double total;

  total = latent_hungarian (wide, 2, 3, a);
  g_assert_cmpfloat (total, ==, 3.0);
  g_assert_cmpint (a[0], ==, 1);
  g_assert_cmpint (a[1], ==, 0);

  total = latent_hungarian (tall, 3, 2, a);
  g_assert_cmpfloat (total, ==, 3.0);
  g_assert_cmpint (a[0], ==, -1);
  g_assert_cmpint (a[1], ==, 0);
  g_assert_cmpint (a[2], ==, 1);
}

static void
test_hungarian_ties (void)
{
  /* Every permutation costs 3. */
  const double flat[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  /* Both assignments cost 4. */
  const double two[] = { 1, 2, 2, 3 };
  /* Three rows, two columns, all zero: any two rows, one left out. */
  const double zeros[] = { 0, 0, 0, 0, 0, 0 };
  /* Negative costs work the same (maximising 5 + 5 over 5 + 1). */
  const double negative[] = { -5, -1, -5, -5 };
  gint32 a[3];
  double total;

  total = latent_hungarian (flat, 3, 3, a);
  g_assert_cmpfloat (total, ==, 3.0);
  assert_valid_assignment (flat, 3, 3, a, total);

  total = latent_hungarian (two, 2, 2, a);
  g_assert_cmpfloat (total, ==, 4.0);
  assert_valid_assignment (two, 2, 2, a, total);

  total = latent_hungarian (zeros, 3, 2, a);
  g_assert_cmpfloat (total, ==, 0.0);
  assert_valid_assignment (zeros, 3, 2, a, total);

  total = latent_hungarian (negative, 2, 2, a);
  g_assert_cmpfloat (total, ==, -10.0);
  g_assert_cmpint (a[0], ==, 0);
  g_assert_cmpint (a[1], ==, 1);
}

static void
test_hungarian_empty (void)
{
  const double cost[] = { 0 };
  gint32 a[2] = { 7, 7 };

  g_assert_cmpfloat (latent_hungarian (NULL, 0, 3, NULL), ==, 0.0);
  g_assert_cmpfloat (latent_hungarian (cost, 2, 0, a), ==, 0.0);
  g_assert_cmpint (a[0], ==, -1);
  g_assert_cmpint (a[1], ==, -1);
}

static double
brute_force (const double *cost,
             guint         rows,
             guint         cols,
             guint         row,
             guint         skips_left,
             gboolean     *taken)
{
  double best = INFINITY;

  if (row == rows)
    return 0.0;

  /* Rows beyond the number of columns must go without. */
  if (skips_left > 0)
    best = brute_force (cost, rows, cols, row + 1, skips_left - 1, taken);

  for (guint c = 0; c < cols; c++)
    {
      if (taken[c])
        continue;
      taken[c] = TRUE;
      best = MIN (best, cost[row * cols + c]
                        + brute_force (cost, rows, cols, row + 1, skips_left, taken));
      taken[c] = FALSE;
    }
  return best;
}

static void
test_hungarian_brute_force (void)
{
  Lcg g = { 2024 };

  for (guint trial = 0; trial < 400; trial++)
    {
      guint rows = 1 + lcg_below (&g, 6);
      guint cols = 1 + lcg_below (&g, 6);
      double cost[36];
      gboolean taken[6] = { FALSE };
      gint32 a[6];
      double total, best;

      /* Halves in [-2, 2]: few distinct values, so many ties; all sums exact. */
      for (guint i = 0; i < rows * cols; i++)
        cost[i] = ((double) lcg_below (&g, 9) - 4.0) * 0.5;

      total = latent_hungarian (cost, rows, cols, a);
      best = brute_force (cost, rows, cols, 0, rows > cols ? rows - cols : 0, taken);
      g_assert_cmpfloat (total, ==, best);
      assert_valid_assignment (cost, rows, cols, a, total);
    }
}

/* ---- accuracy --------------------------------------------------------- */

static void
test_accuracy_permuted (void)
{
  const gint32 clusters[] = { 2, 2, 0, 0, 1, 1 };
  const gint32 classes[]  = { 0, 0, 1, 1, 2, 2 };
  gint32 mapping[3];

  g_assert_cmpfloat (latent_metrics_accuracy (clusters, 3, classes, 3, 6, mapping), ==, 1.0);
  g_assert_cmpint (mapping[0], ==, 1);
  g_assert_cmpint (mapping[1], ==, 2);
  g_assert_cmpint (mapping[2], ==, 0);
}

static void
test_accuracy_partial (void)
{
  /* More clusters than classes. Contingency (rows clusters, columns classes):
   *            class 0  1  2
   *   cluster 0      0  0  2
   *   cluster 1      2  0  1
   *   cluster 2      1  2  0
   *   cluster 3      0  2  0
   * Best: 0 → 2, 1 → 0, and 2 or 3 → 1 (a tie), 2 + 2 + 2 = 6 of 10.
   * scipy's linear_sum_assignment on the same table agrees (0.6). */
  const gint32 clusters_d[] = { 0, 0, 1, 1, 1, 2, 2, 2, 3, 3 };
  const gint32 classes_d[]  = { 2, 2, 2, 0, 0, 0, 1, 1, 1, 1 };
  /* Fewer clusters than classes:
   *            class 0  1  2
   *   cluster 0      2  1  0
   *   cluster 1      0  1  2
   * Best: 0 → 0, 1 → 2, 4 of 6; class 1 stays unmatched. */
  const gint32 clusters_c[] = { 0, 0, 0, 1, 1, 1 };
  const gint32 classes_c[]  = { 0, 0, 1, 1, 2, 2 };
  gint32 mapping[4];

  assert_rel (latent_metrics_accuracy (clusters_d, 4, classes_d, 3, 10, mapping), 0.6, EXACT);
  g_assert_cmpint (mapping[0], ==, 2);
  g_assert_cmpint (mapping[1], ==, 0);
  g_assert_true ((mapping[2] == 1 && mapping[3] == -1) || (mapping[2] == -1 && mapping[3] == 1));

  assert_rel (latent_metrics_accuracy (clusters_c, 2, classes_c, 3, 6, mapping), 4.0 / 6.0, EXACT);
  g_assert_cmpint (mapping[0], ==, 0);
  g_assert_cmpint (mapping[1], ==, 2);
}

static void
test_accuracy_empty_cluster (void)
{
  /* Cluster 3 holds no point: it may take the spare class in the matching
   * but shares nothing with it, so the mapping says -1. */
  const gint32 clusters[] = { 0, 1, 1, 2, 2, 2 };
  const gint32 classes[]  = { 0, 1, 1, 2, 2, 0 };
  gint32 mapping[4] = { 9, 9, 9, 9 };

  assert_rel (latent_metrics_accuracy (clusters, 4, classes, 4, 6, mapping), 5.0 / 6.0, EXACT);
  g_assert_cmpint (mapping[0], ==, 0);
  g_assert_cmpint (mapping[1], ==, 1);
  g_assert_cmpint (mapping[2], ==, 2);
  g_assert_cmpint (mapping[3], ==, -1);
}

/* ---- ARI and NMI on small cases -------------------------------------- */

static void
test_ari_small (void)
{
  /* By hand, with S = Σ C(n_ij, 2), A and B the same over cluster and class
   * sizes, N = C(n, 2): ARI = (S − AB/N) / ((A + B)/2 − AB/N).
   *
   * Case 1: clusters {0,1,0,1} against classes {0,0,1,1}: every cell is 1,
   * S = 0, A = B = 2, N = 6: (0 − 2/3) / (2 − 2/3) = −1/2.
   *
   * Case 2: clusters {0,0,1,1,2,2} against classes {0,0,0,1,1,1}:
   * cells 2,0 / 1,1 / 0,2, S = 2, A = 3, B = 6, N = 15: (2 − 1.2) / (4.5 − 1.2)
   * = 8/33.
   *
   * Case 3: the table of test_accuracy_partial: S = 4, A = 1+3+3+1 = 8,
   * B = 3+6+3 = 12, N = 45: (4 − 32/15) / (10 − 32/15) = 28/118 = 14/59.
   *
   * scikit-learn 1.2.1 adjusted_rand_score gives -0.5, 0.24242424242424243
   * and 0.23728813559322035; for case 4 (no hand derivation) 0.20454545454545456. */
  const gint32 k1[] = { 0, 1, 0, 1 };
  const gint32 c1[] = { 0, 0, 1, 1 };
  const gint32 k2[] = { 0, 0, 1, 1, 2, 2 };
  const gint32 c2[] = { 0, 0, 0, 1, 1, 1 };
  const gint32 k3[] = { 0, 0, 1, 1, 1, 2, 2, 2, 3, 3 };
  const gint32 c3[] = { 2, 2, 2, 0, 0, 0, 1, 1, 1, 1 };
  const gint32 k4[] = { 0, 0, 1, 1, 1, 1, 2, 2, 2, 0 };
  const gint32 c4[] = { 0, 0, 0, 1, 1, 1, 1, 2, 2, 2 };

  assert_rel (latent_metrics_ari (k1, 2, c1, 2, 4), -0.5, EXACT);
  assert_rel (latent_metrics_ari (k2, 3, c2, 2, 6), 8.0 / 33.0, EXACT);
  assert_rel (latent_metrics_ari (k2, 3, c2, 2, 6), 0.24242424242424243, EXACT);
  assert_rel (latent_metrics_ari (k3, 4, c3, 3, 10), 14.0 / 59.0, EXACT);
  assert_rel (latent_metrics_ari (k3, 4, c3, 3, 10), 0.23728813559322035, EXACT);
  assert_rel (latent_metrics_ari (k4, 3, c4, 3, 10), 0.20454545454545456, EXACT);
}

static void
test_nmi_small (void)
{
  /* By hand, case 2 of test_ari_small: H(classes) = ln 2, H(clusters) = ln 3,
   * MI = Σ p_ij ln (p_ij / p_i p_j) = 1/3 ln 2 + 1/6 ln 1 + 1/6 ln 1 + 1/3 ln 2
   * = 2/3 ln 2, so NMI = (2/3 ln 2) / ((ln 2 + ln 3) / 2) = 4 ln 2 / (3 ln 6).
   *
   * Case 1: every cell holds n/4 = p_i p_j n, so MI = 0 and NMI = 0.
   *
   * scikit-learn 1.2.1 normalized_mutual_info_score gives 0.5158037429793888
   * (case 2), 0.0 (case 1), 0.5759466679735676 (case 3) and
   * 0.44270128334605013 (case 4). */
  const gint32 k1[] = { 0, 1, 0, 1 };
  const gint32 c1[] = { 0, 0, 1, 1 };
  const gint32 k2[] = { 0, 0, 1, 1, 2, 2 };
  const gint32 c2[] = { 0, 0, 0, 1, 1, 1 };
  const gint32 k3[] = { 0, 0, 1, 1, 1, 2, 2, 2, 3, 3 };
  const gint32 c3[] = { 2, 2, 2, 0, 0, 0, 1, 1, 1, 1 };
  const gint32 k4[] = { 0, 0, 1, 1, 1, 1, 2, 2, 2, 0 };
  const gint32 c4[] = { 0, 0, 0, 1, 1, 1, 1, 2, 2, 2 };

  g_assert_cmpfloat (latent_metrics_nmi (k1, 2, c1, 2, 4), ==, 0.0);
  assert_rel (latent_metrics_nmi (k2, 3, c2, 2, 6), 4.0 * log (2.0) / (3.0 * log (6.0)), EXACT);
  assert_rel (latent_metrics_nmi (k2, 3, c2, 2, 6), 0.5158037429793888, EXACT);
  assert_rel (latent_metrics_nmi (k3, 4, c3, 3, 10), 0.5759466679735676, EXACT);
  assert_rel (latent_metrics_nmi (k4, 3, c4, 3, 10), 0.44270128334605013, EXACT);
}

static void
assert_all (const gint32 *clusters,
            guint         n_clusters,
            const gint32 *classes,
            guint         n_classes,
            guint         n,
            double        accuracy,
            double        ari,
            double        nmi)
{
  LatentLabelMetrics m;

  latent_metrics_compute (clusters, n_clusters, classes, n_classes, n, &m);
  g_assert_cmpfloat (m.accuracy, ==, accuracy);
  g_assert_cmpfloat (m.ari, ==, ari);
  g_assert_cmpfloat (m.nmi, ==, nmi);
}

static void
test_degenerate (void)
{
  /* scikit-learn 1.2.1 on each of these (the same numbers both ways round):
   * identical up to permutation → ARI 1, NMI 1, also when both put everything
   * in one cluster and when both are all singletons; one labeling a single
   * cluster and the other not → ARI 0, NMI 0; no points at all → 1 and 1. */
  const gint32 same_a[] = { 0, 0, 1, 1, 2, 2 };
  const gint32 same_b[] = { 2, 2, 0, 0, 1, 1 };
  const gint32 one_a[]  = { 3, 3, 3, 3 };
  const gint32 one_b[]  = { 1, 1, 1, 1 };
  const gint32 split[]  = { 0, 1, 2, 3 };
  const gint32 split2[] = { 3, 2, 1, 0 };

  assert_all (same_a, 3, same_b, 3, 6, 1.0, 1.0, 1.0);
  /* Unused cluster ids do not count as clusters. */
  assert_all (one_a, 5, one_b, 2, 4, 1.0, 1.0, 1.0);
  assert_all (split, 4, split2, 4, 4, 1.0, 1.0, 1.0);
  /* One class, four clusters: only one cluster can match it. */
  assert_all (split, 4, one_b, 2, 4, 0.25, 0.0, 0.0);
  assert_all (one_b, 2, split, 4, 4, 0.25, 0.0, 0.0);
  assert_all (NULL, 3, NULL, 3, 0, 1.0, 1.0, 1.0);
}

/* ---- invariances ------------------------------------------------------ */

static void
test_permutation_invariance (void)
{
  enum { N = 3000, K = 9, C = 6 };
  /* Fixed relabelings of cluster and class ids. */
  const gint32 perm_k[K] = { 4, 7, 0, 8, 2, 6, 1, 3, 5 };
  const gint32 perm_c[C] = { 5, 3, 0, 1, 4, 2 };
  g_autofree gint32 *clusters = g_new (gint32, N);
  g_autofree gint32 *classes = g_new (gint32, N);
  g_autofree gint32 *clusters_p = g_new (gint32, N);
  g_autofree gint32 *classes_p = g_new (gint32, N);
  LatentLabelMetrics m, mp;

  make_noisy (99, N, K, C, 60, clusters, classes);
  for (guint i = 0; i < N; i++)
    {
      clusters_p[i] = perm_k[clusters[i]];
      classes_p[i] = perm_c[classes[i]];
    }

  latent_metrics_compute (clusters, K, classes, C, N, &m);
  latent_metrics_compute (clusters_p, K, classes_p, C, N, &mp);

  /* A real signal, so the comparison means something. */
  g_assert_cmpfloat (m.ari, >, 0.2);
  g_assert_cmpfloat (m.nmi, >, 0.2);
  /* Accuracy and ARI come from integer counts: exactly equal. */
  g_assert_cmpfloat (mp.accuracy, ==, m.accuracy);
  g_assert_cmpfloat (mp.ari, ==, m.ari);
  assert_rel (mp.nmi, m.nmi, EXACT);
}

static void
test_swap_symmetry (void)
{
  enum { N = 3000, K = 9, C = 6 };
  g_autofree gint32 *clusters = g_new (gint32, N);
  g_autofree gint32 *classes = g_new (gint32, N);
  LatentLabelMetrics m, ms;

  make_noisy (5, N, K, C, 50, clusters, classes);
  latent_metrics_compute (clusters, K, classes, C, N, &m);
  latent_metrics_compute (classes, C, clusters, K, N, &ms);

  g_assert_cmpfloat (m.ari, >, 0.1);
  g_assert_cmpfloat (ms.ari, ==, m.ari);
  assert_rel (ms.nmi, m.nmi, EXACT);
  /* A matching of clusters to classes is one of classes to clusters. */
  g_assert_cmpfloat (ms.accuracy, ==, m.accuracy);
}

/* ---- against scikit-learn -------------------------------------------- */

static void
test_sklearn_10k (void)
{
  enum { N = 10000, K = 12, C = 10 };
  /* First labels Python's copy of make_noisy produced, to catch a drift in
   * the generator before it shows up as a wrong metric. */
  const gint32 first_k[2][6] = { { 9, 5, 9, 10, 7, 6 }, { 9, 11, 7, 3, 9, 3 } };
  const gint32 first_c[2][6] = { { 4, 8, 4, 9, 6, 4 }, { 8, 3, 4, 6, 2, 2 } };
  /* Reference values computed once with scikit-learn 1.2.1 on /usr/bin/python3:
   * adjusted_rand_score (classes, clusters), normalized_mutual_info_score
   * (classes, clusters), and accuracy from scipy 1.10.1
   * linear_sum_assignment on the contingency table.
   *   seed 42, keep 70%: acc 0.7252, ARI 0.5097264570896118, NMI 0.4999685977097075
   *   seed 7, keep 0% (independent labelings): acc 0.0975,
   *     ARI -0.00013839490351735007, NMI 0.0017806842834548968 */
  const struct { guint64 seed; guint keep; double accuracy, ari, nmi; } cases[] = {
    { 42, 70, 0.7252, 0.5097264570896118, 0.4999685977097075 },
    { 7, 0, 0.0975, -0.00013839490351735007, 0.0017806842834548968 },
  };
  g_autofree gint32 *clusters = g_new (gint32, N);
  g_autofree gint32 *classes = g_new (gint32, N);

  for (guint t = 0; t < G_N_ELEMENTS (cases); t++)
    {
      LatentLabelMetrics m;

      make_noisy (cases[t].seed, N, K, C, cases[t].keep, clusters, classes);
      for (guint i = 0; i < 6; i++)
        {
          g_assert_cmpint (clusters[i], ==, first_k[t][i]);
          g_assert_cmpint (classes[i], ==, first_c[t][i]);
        }

      latent_metrics_compute (clusters, K, classes, C, N, &m);
      assert_rel (m.accuracy, cases[t].accuracy, EXACT);
      assert_rel (m.ari, cases[t].ari, EXACT);
      assert_rel (m.nmi, cases[t].nmi, EXACT);
    }
}

static void
test_compute_matches_parts (void)
{
  enum { N = 2000, K = 16, C = 4 };
  g_autofree gint32 *clusters = g_new (gint32, N);
  g_autofree gint32 *classes = g_new (gint32, N);
  gint32 mapping[K];
  LatentLabelMetrics m;
  guint mapped = 0;

  make_noisy (11, N, K, C, 80, clusters, classes);
  latent_metrics_compute (clusters, K, classes, C, N, &m);

  g_assert_cmpfloat (m.accuracy, ==, latent_metrics_accuracy (clusters, K, classes, C, N, mapping));
  g_assert_cmpfloat (m.ari, ==, latent_metrics_ari (clusters, K, classes, C, N));
  g_assert_cmpfloat (m.nmi, ==, latent_metrics_nmi (clusters, K, classes, C, N));

  /* With K > C only C clusters can be matched, each to a distinct class. */
  for (guint k = 0; k < K; k++)
    if (mapping[k] >= 0)
      mapped++;
  g_assert_cmpuint (mapped, ==, C);
  /* 80% of points sit in cluster 5c + 1: those four clusters carry the match. */
  for (guint c = 0; c < C; c++)
    g_assert_cmpint (mapping[(c * 5 + 1) % K], ==, (gint32) c);
}

static void
test_invalid_labels (void)
{
  const gint32 good[] = { 0, 1, 1 };
  const gint32 negative[] = { 0, -1, 1 };
  const gint32 too_big[] = { 0, 2, 1 };
  LatentLabelMetrics m;

  g_test_expect_message ("latent-metrics", G_LOG_LEVEL_CRITICAL, "*labels_in_range*");
  g_assert_true (isnan (latent_metrics_ari (negative, 2, good, 2, 3)));
  g_test_assert_expected_messages ();

  g_test_expect_message ("latent-metrics", G_LOG_LEVEL_CRITICAL, "*labels_in_range*");
  g_assert_true (isnan (latent_metrics_nmi (good, 2, too_big, 2, 3)));
  g_test_assert_expected_messages ();

  g_test_expect_message ("latent-metrics", G_LOG_LEVEL_CRITICAL, "*labels_in_range*");
  latent_metrics_compute (negative, 2, good, 2, 3, &m);
  g_test_assert_expected_messages ();
  g_assert_true (isnan (m.accuracy) && isnan (m.ari) && isnan (m.nmi));
}

/* Run with -m perf: the size the window meets with MNIST-like data. */
static void
test_perf_compute (void)
{
  enum { N = 70000, K = 100, C = 10, REPEATS = 50 };
  g_autofree gint32 *clusters = g_new (gint32, N);
  g_autofree gint32 *classes = g_new (gint32, N);
  LatentLabelMetrics m = { 0 };
  double best = INFINITY;

  make_noisy (3, N, K, C, 60, clusters, classes);
  for (guint r = 0; r < REPEATS; r++)
    {
      g_test_timer_start ();
      latent_metrics_compute (clusters, K, classes, C, N, &m);
      best = MIN (best, g_test_timer_elapsed ());
    }
  g_test_minimized_result (best * 1e3, "latent_metrics_compute n=%d K=%d C=%d: %.3f ms",
                           N, K, C, best * 1e3);

  g_assert_cmpfloat (m.ari, ==, latent_metrics_ari (clusters, K, classes, C, N));
  g_assert_cmpfloat (m.accuracy, >, 0.5);
}

static void
test_confusion_counts (void)
{
  /* Hand-made: 4 clusters, 3 classes, 10 points.
   *            class 0  1  2
   *   cluster 0      0  0  2
   *   cluster 1      2  0  1
   *   cluster 2      1  2  0
   *   cluster 3      0  2  0
   * Best matching: 0 → 2, 1 → 0, then 2 → 1 or 3 → 1 (2 points either
   * way), 6 of 10 matched. */
  const gint32 clusters[] = { 0, 0, 1, 1, 1, 2, 2, 2, 3, 3 };
  const gint32 classes[]  = { 2, 2, 2, 0, 0, 0, 1, 1, 1, 1 };
  const guint expected[] = { 0, 0, 2,
                             2, 0, 1,
                             1, 2, 0,
                             0, 2, 0 };
  guint counts[12];
  gint32 mapping[4] = { 9, 9, 9, 9 };
  const char *names[] = { "setosa", NULL, "virginica" };
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  memset (counts, 0xff, sizeof counts);
  g_assert_cmpuint (latent_metrics_confusion (clusters, 4, classes, 3, 10, counts, mapping), ==, 6);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (counts[i], ==, expected[i]);
  g_assert_cmpint (mapping[0], ==, 2);
  g_assert_cmpint (mapping[1], ==, 0);
  g_assert_true ((mapping[2] == 1 && mapping[3] == -1) || (mapping[2] == -1 && mapping[3] == 1));

  /* Same matching as the accuracy. */
  assert_rel (latent_metrics_accuracy (clusters, 4, classes, 3, 10, NULL), 6.0 / 10.0, EXACT);

  /* Counts without a mapping. */
  g_assert_cmpuint (latent_metrics_confusion (clusters, 4, classes, 3, 10, counts, NULL), ==, 6);
  g_assert_cmpuint (counts[11], ==, 0);

  /* Text: a header, one line per cluster, stars on the matched cells. */
  text = latent_metrics_confusion_to_text (counts, 4, 3, names, mapping);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_nonnull (strstr (lines[0], "setosa"));
  g_assert_nonnull (strstr (lines[0], "class 2"));
  g_assert_nonnull (strstr (lines[0], "virginica"));
  g_assert_true (g_str_has_prefix (lines[1], "cluster 1"));
  g_assert_nonnull (strstr (lines[1], "2*"));
  g_assert_nonnull (strstr (lines[2], "2*"));
  g_assert_true (g_str_has_prefix (lines[4], "cluster 4"));
  /* Columns line up. */
  for (guint i = 1; i < 5; i++)
    g_assert_cmpuint (g_utf8_strlen (lines[i], -1), ==, g_utf8_strlen (lines[1], -1));
}

/* Classes numbered as they first appear in a file (c0, c2, c4, c1, c3)
 * are columns in their names' order, c0 … c4, with c10 after c9; the
 * counts move with their columns (issue 34, 3b.7). */
static void
test_confusion_column_order (void)
{
  const char *names[] = { "c0", "c2", "c4", "c1", "c3", "c10", "c9", NULL };
  const char *sorted[] = { "c0", "c1", "c2", "c3", "c4", "c9", "c10" };
  guint counts[2 * 7];
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) heads = NULL;
  g_auto(GStrv) cells = NULL;

  /* Cluster 1 holds 100 × (class index + 1) rows of each class; cluster 2 none. */
  for (guint c = 0; c < 7; c++)
    {
      counts[c] = 100 * (c + 1);
      counts[7 + c] = 0;
    }
  text = latent_metrics_confusion_to_text (counts, 2, 7, names, (gint32[]) { 2, -1 });
  g_test_message ("\n%s", text);
  lines = g_strsplit (text, "\n", -1);
  heads = g_strsplit_set (g_strstrip (lines[0]), " ", -1);
  {
    g_autoptr(GPtrArray) words = g_ptr_array_new ();

    for (guint i = 0; heads[i]; i++)
      if (*heads[i])
        g_ptr_array_add (words, heads[i]);
    g_assert_cmpuint (words->len, ==, 7);
    for (guint i = 0; i < 7; i++)
      g_assert_cmpstr (words->pdata[i], ==, sorted[i]);
  }
  /* c1 (index 3: 400 rows) second, c4 (index 2: 300*, matched) fifth. */
  cells = g_strsplit_set (lines[1] + strlen ("cluster 1"), " ", -1);
  {
    g_autoptr(GPtrArray) words = g_ptr_array_new ();

    for (guint i = 0; cells[i]; i++)
      if (*cells[i])
        g_ptr_array_add (words, cells[i]);
    g_assert_cmpuint (words->len, ==, 7);
    g_assert_cmpstr (words->pdata[0], ==, "100");
    g_assert_cmpstr (words->pdata[1], ==, "400");
    g_assert_cmpstr (words->pdata[2], ==, "200");
    g_assert_cmpstr (words->pdata[4], ==, "300*");
    g_assert_cmpstr (words->pdata[5], ==, "700");
    g_assert_cmpstr (words->pdata[6], ==, "600");
  }
}

static void
test_confusion_empty_cluster (void)
{
  /* An empty cluster's row is zeros and it is matched to nothing. */
  const gint32 clusters[] = { 0, 0, 2, 2 };
  const gint32 classes[]  = { 1, 1, 0, 1 };
  guint counts[6];
  gint32 mapping[3];

  g_assert_cmpuint (latent_metrics_confusion (clusters, 3, classes, 2, 4, counts, mapping), ==, 3);
  g_assert_cmpuint (counts[0], ==, 0);
  g_assert_cmpuint (counts[1], ==, 2);
  g_assert_cmpuint (counts[2], ==, 0);
  g_assert_cmpuint (counts[3], ==, 0);
  g_assert_cmpuint (counts[4], ==, 1);
  g_assert_cmpuint (counts[5], ==, 1);
  g_assert_cmpint (mapping[0], ==, 1);
  g_assert_cmpint (mapping[1], ==, -1);
  g_assert_cmpint (mapping[2], ==, 0);
}

static LatentSnapshot *
family_snapshot (const char    *id,
                 LatentDataset *dataset)
{
  return latent_snapshot_new (latent_registry_lookup (id, NULL), dataset, NULL);
}

/* What each family says under a result, asked of the family, not of the
 * window: the lines, in order, and none for what a run has not made. */
static void
test_family_metrics (void)
{
  g_autoptr(LatentDataset) plain = latent_dataset_new ("plain", 3, 2, NULL);
  g_autoptr(LatentSnapshot) kmeans = family_snapshot ("kmeans", plain);
  g_autoptr(LatentSnapshot) gmm = family_snapshot ("gmm", plain);
  g_autoptr(LatentSnapshot) fa = family_snapshot ("fa", plain);
  g_autoptr(LatentSnapshot) wta = family_snapshot ("wta", plain);
  g_autoptr(LatentSnapshot) logreg = family_snapshot ("logreg", plain);
  g_autoptr(LatentSnapshot) convolve = family_snapshot ("convolve", plain);
  double ratio[] = { 0.5, 0.25 }, loss[] = { 2, 1.5 };
  g_autofree char *k = NULL, *g = NULL, *f = NULL, *w = NULL, *l = NULL, *c = NULL;

  k = latent_family_describe_metrics (kmeans);
  g_assert_cmpstr (k, ==, "The dataset has no labels to compare the clusters with.");
  kmeans->has_label_metrics = TRUE;
  kmeans->metrics = (LatentLabelMetrics) { 0.75, 0.5, 0.25 };
  g_free (k);
  k = latent_family_describe_metrics (kmeans);
  g_assert_cmpstr (k, ==, "Accuracy 0.7500\nAdjusted Rand index 0.5000\nNormalised mutual information 0.2500");

  gmm->mixture.log_likelihood = -1.5;
  gmm->mixture.bic = 1234.5;
  gmm->mixture.aic = 1200;
  g = latent_family_describe_metrics (gmm);
  g_assert_cmpstr (g, ==, "Mean log-likelihood -1.5\nBIC 1234.5\nAIC 1200\n"
                          "The dataset has no labels to compare the clusters with.");

  fa->linear.n_components = 2;
  fa->linear.explained_variance_ratio = g_memdup2 (ratio, sizeof ratio);
  fa->linear.reconstruction_error = NAN;
  fa->linear.log_likelihood = NAN;
  f = latent_family_describe_metrics (fa);
  g_assert_cmpstr (f, ==, "Variance explained 75.0 % (2 factors)");

  wta->autoencoder.epochs.n_epochs = 2;
  wta->autoencoder.epochs.train_loss = g_memdup2 (loss, sizeof loss);
  wta->autoencoder.validation_loss = 1.25;
  wta->autoencoder.n_units = 4;
  wta->autoencoder.n_dead = 1;
  w = latent_family_describe_metrics (wta);
  g_assert_cmpstr (w, ==, "Training loss 1.5 (epoch 2)\nValidation loss 1.25\nDead units 1 of 4 (25.0 %)");

  logreg->classifier.test_accuracy = 0.875;
  logreg->classifier.n_test = 8;
  logreg->classifier.train_accuracy = NAN;
  l = latent_family_describe_metrics (logreg);
  g_assert_cmpstr (l, ==, "Test accuracy 87.50 % (8 rows)");

  convolve->filter.kernel_size = 3;
  convolve->filter.kernel = g_new0 (float, 9);
  convolve->iteration = 2;
  convolve->objective = 0.125;
  convolve->filter.method = g_strdup ("direct");
  convolve->filter.method_names = g_strsplit ("direct,tiled", ",", -1);
  convolve->filter.method_ms = g_memdup2 (((double[]) { 2.5, 4 }), 2 * sizeof (double));
  c = latent_family_describe_metrics (convolve);
  g_assert_cmpstr (c, ==, "Kernel 3 × 3\nRMS change of the last pass 0.125\n"
                          "direct: 2.5 ms per pass, used\ntiled: 4 ms per pass");
}

/* Every registered algorithm's family is in engine/meson.build's list, with
 * what the snapshot asks of every family. */
static void
test_family_classes (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();

  for (guint i = 0; all[i]; i++)
    {
      const LatentFamilyClass *klass = latent_family_class (all[i]->family);

      g_assert_nonnull (klass);
      g_assert_cmpint (klass->family, ==, all[i]->family);
      g_assert_nonnull (klass->describe_metrics);
      g_assert_nonnull (klass->clear_part);
      g_assert_nonnull (klass->get_part_size);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/metrics/hungarian/textbook-3x3", test_hungarian_textbook);
  g_test_add_func ("/metrics/hungarian/greedy-fails-4x4", test_hungarian_greedy_fails);
  g_test_add_func ("/metrics/hungarian/rectangular", test_hungarian_rectangular);
  g_test_add_func ("/metrics/hungarian/ties", test_hungarian_ties);
  g_test_add_func ("/metrics/hungarian/empty", test_hungarian_empty);
  g_test_add_func ("/metrics/hungarian/brute-force", test_hungarian_brute_force);
  g_test_add_func ("/metrics/accuracy/permuted", test_accuracy_permuted);
  g_test_add_func ("/metrics/accuracy/partial", test_accuracy_partial);
  g_test_add_func ("/metrics/accuracy/empty-cluster", test_accuracy_empty_cluster);
  g_test_add_func ("/metrics/ari/small", test_ari_small);
  g_test_add_func ("/metrics/nmi/small", test_nmi_small);
  g_test_add_func ("/metrics/degenerate", test_degenerate);
  g_test_add_func ("/metrics/invariance/permutation", test_permutation_invariance);
  g_test_add_func ("/metrics/invariance/swap", test_swap_symmetry);
  g_test_add_func ("/metrics/sklearn/10k", test_sklearn_10k);
  g_test_add_func ("/metrics/compute", test_compute_matches_parts);
  g_test_add_func ("/metrics/invalid-labels", test_invalid_labels);
  g_test_add_func ("/metrics/confusion/counts", test_confusion_counts);
  g_test_add_func ("/metrics/confusion/empty-cluster", test_confusion_empty_cluster);
  g_test_add_func ("/metrics/confusion/column-order", test_confusion_column_order);
  g_test_add_func ("/metrics/families", test_family_metrics);
  g_test_add_func ("/metrics/family-classes", test_family_classes);
  if (g_test_perf ())
    g_test_add_func ("/metrics/perf/compute-70000", test_perf_compute);

  return g_test_run ();
}
