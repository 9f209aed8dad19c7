/**
 * Platt scaling on the judge's own scale: calibrated = σ(a · logit(raw) + b). (a, b) = (1, 0) is the identity:
 * the judge's confidence as it is. a < 1 pulls an overconfident judge toward 0.5, a > 1 pushes an
 * underconfident one out; b shifts a judge that is right more (or less) often than it says at every level.
 */
export type PlattParameters = { a: number; b: number };

export const IDENTITY: PlattParameters = { a: 1, b: 0 };

/** One resolved verdict: its raw confidence (0–1), what happened (1, 0.5 or 0) and its weight. */
export type WeightedOutcome = { confidence: number; observed: number; weight: number };

/**
 * Confidences are clamped into [0.01, 0.99] before the logit: a judge that says 100 % has not said
 * "infinitely sure", and one such verdict must not dominate a fit.
 */
const EDGE = 0.01;
export const logit = (p: number) => {
  const q = Math.min(1 - EDGE, Math.max(EDGE, p));
  return Math.log(q / (1 - q));
};
export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export const applyPlatt = ({ a, b }: PlattParameters, confidence: number) =>
  sigmoid(a * logit(confidence) + b);

/**
 * The maximum a posteriori fit of (a, b) to the outcomes, under a Gaussian prior centred on `prior` with
 * precision `strength` (the shrinkage: with few outcomes the fit stays near the prior, with many the data
 * win). Partially correct verdicts count as 0.5, a soft label the log loss takes as it is. Newton's method on
 * a strictly convex objective: it converges in a handful of steps from the prior.
 */
export function fitPlatt(
  outcomes: readonly WeightedOutcome[],
  prior: PlattParameters,
  strength: number,
): PlattParameters {
  let { a, b } = prior;
  for (let step = 0; step < 50; step++) {
    // Gradient and Hessian of: Σ w·logloss(σ(a·x + b), y) + strength/2 · |(a, b) − prior|².
    let ga = strength * (a - prior.a);
    let gb = strength * (b - prior.b);
    let haa = strength;
    let hab = 0;
    let hbb = strength;
    for (const { confidence, observed, weight } of outcomes) {
      const x = logit(confidence);
      const p = sigmoid(a * x + b);
      const residual = weight * (p - observed);
      const curvature = weight * p * (1 - p);
      ga += residual * x;
      gb += residual;
      haa += curvature * x * x;
      hab += curvature * x;
      hbb += curvature;
    }
    const determinant = haa * hbb - hab * hab;
    if (!(determinant > 0)) break;
    const da = (hbb * ga - hab * gb) / determinant;
    const db = (haa * gb - hab * ga) / determinant;
    a -= da;
    b -= db;
    if (Math.abs(da) < 1e-9 && Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}
