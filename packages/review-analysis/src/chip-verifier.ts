// The chip verifier: a logistic regression over a candidate chip's features (chip-features.ts) giving the
// probability that the chip says the opposite of what the writer meant, trained by npm run eval:chips -- --write
// (scripts/eval/chip-verifier.ts) on chips the engine gave on text its models had not learned from, and read from
// model/chip-verifier.json. A praising or criticising chip is shown only when that probability is below the file's
// threshold, chosen by leave-one-writer-out cross-validation.

import { ABSTENTIONS, type Abstention, CHIP_FEATURES } from "./chip-features.ts";
import modelFile from "./model/chip-verifier.json" with { type: "json" };

/** The verifier version this engine reads (bump it, and retrain, when the features, the training or the files change). */
export const CHIP_VERIFIER_VERSION = "chip-verifier@1.0.0";

/** The file's form (model/chip-verifier.json). */
export interface ChipVerifierFile {
  version: string;
  /** Each file the verifier learned from, with its sha256. */
  files: Record<string, string>;
  /** The training settings and cross-validated figures (for the record). */
  training: Record<string, unknown>;
  features: readonly string[];
  mean: number[];
  scale: number[];
  bias: number;
  weights: number[];
  /** A chip whose probability of contradicting the writer reaches this is not shown. */
  threshold: number;
  /** Reasons of the hand-written chip rules (ABSTENTIONS) that hide a chip whatever its probability. */
  veto: readonly string[];
}

export interface ChipVerifier {
  version: string;
  files: Readonly<Record<string, string>>;
  mean: Float64Array;
  scale: Float64Array;
  bias: number;
  weights: Float64Array;
  threshold: number;
  veto: readonly Abstention[];
}

function refuse(why: string): never {
  throw new Error(`chip verifier: ${why}`);
}

const finite = (x: unknown, length: number, what: string): Float64Array => {
  if (!Array.isArray(x) || x.length !== length || !x.every((v) => typeof v === "number" && Number.isFinite(v)))
    refuse(`${what} must be ${length} finite numbers`);
  return Float64Array.from(x);
};

/** Checks a parsed verifier file; another version or shape is refused, saying why. */
export function loadChipVerifier(file: unknown): ChipVerifier {
  const f = file as Partial<ChipVerifierFile>;
  if (typeof f !== "object" || f === null) refuse("not a JSON object");
  if (f.version !== CHIP_VERIFIER_VERSION)
    refuse(`version ${JSON.stringify(f.version)}, this engine reads ${CHIP_VERIFIER_VERSION} (retrain or bump it)`);
  if (JSON.stringify(f.features) !== JSON.stringify(CHIP_FEATURES))
    refuse(`features must be ${CHIP_FEATURES.join(", ")}`);
  const n = CHIP_FEATURES.length;
  const scale = finite(f.scale, n, "scale");
  if (scale.some((s) => s <= 0)) refuse("scale must be positive");
  if (typeof f.bias !== "number" || !Number.isFinite(f.bias)) refuse("bias must be a finite number");
  if (typeof f.threshold !== "number" || !(f.threshold > 0 && f.threshold <= 1)) refuse("threshold must be in (0, 1]");
  const veto = Array.isArray(f.veto) ? f.veto : refuse("veto must be a list of abstentions");
  const unknown = veto.filter((r) => !(ABSTENTIONS as readonly string[]).includes(r));
  if (unknown.length) refuse(`veto: unknown ${unknown.join(", ")}; known: ${ABSTENTIONS.join(", ")}`);
  return {
    version: f.version,
    files: { ...(f.files ?? {}) },
    veto: veto as Abstention[],
    mean: finite(f.mean, n, "mean"),
    scale,
    bias: f.bias,
    weights: finite(f.weights, n, "weights"),
    threshold: f.threshold,
  };
}

/** The probability that a chip with these features (CHIP_FEATURES order) contradicts the writer. */
export function contradictionProbability(
  verifier: Pick<ChipVerifier, "mean" | "scale" | "bias" | "weights">,
  x: readonly number[],
): number {
  let t = verifier.bias;
  for (let j = 0; j < x.length; j++) t += (verifier.weights[j] * (x[j] - verifier.mean[j])) / verifier.scale[j];
  return 1 / (1 + Math.exp(-t));
}

let loaded: ChipVerifier | undefined;
/** The engine's verifier, loaded from model/chip-verifier.json on first use. */
export function chipVerifier(): ChipVerifier {
  loaded ??= loadChipVerifier(modelFile);
  return loaded;
}
