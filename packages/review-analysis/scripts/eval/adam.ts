// The optimiser both trainers use (the review model's, text-model.ts, and the aspect layer's, aspect-layer.ts):
// full-batch Adam with an L2 penalty on every weight but the first `unpenalised` (the biases), in a fixed order, so
// that the same data give the same weights.
const LEARNING_RATE = 0.05;
const B1 = 0.9;
const B2 = 0.999;

export interface Adam {
  /** Applies iteration `it` (from 1) of Adam to `w` with the gradient `g` (the data's, without the penalty). */
  step(it: number, g: Float64Array): void;
}

export function adam(w: Float64Array, lambda: number, unpenalised: number): Adam {
  const m1 = new Float64Array(w.length);
  const m2 = new Float64Array(w.length);
  return {
    step(it, g) {
      const c1 = 1 - B1 ** it;
      const c2 = 1 - B2 ** it;
      for (let p = 0; p < w.length; p++) {
        const gp = g[p] + (p >= unpenalised ? lambda * w[p] : 0);
        m1[p] = B1 * m1[p] + (1 - B1) * gp;
        m2[p] = B2 * m2[p] + (1 - B2) * gp * gp;
        w[p] -= (LEARNING_RATE * (m1[p] / c1)) / (Math.sqrt(m2[p] / c2) + 1e-8);
      }
    },
  };
}
