// Okabe-Ito: distinguishable under the common colour-vision deficiencies.
export const CATEGORICAL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

export const categorical = (i: number) => CATEGORICAL[i % CATEGORICAL.length];

/** Past the 8 colours, lines repeat them dashed (then dotted) so 24 series stay distinguishable. */
export const categoricalDash = (i: number): string | undefined =>
  i < CATEGORICAL.length ? undefined : i < 2 * CATEGORICAL.length ? "5 3" : "1 2";
