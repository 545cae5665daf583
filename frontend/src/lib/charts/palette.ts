// Okabe-Ito: distinguishable under the common colour-vision deficiencies.
export const CATEGORICAL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

export const categorical = (i: number) => CATEGORICAL[i % CATEGORICAL.length];
