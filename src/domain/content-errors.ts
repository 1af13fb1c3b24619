/** One problem in one content file: which file, which field, and why. */
export interface ContentProblem {
  file: string;
  field: string;
  reason: string;
}

export class ContentError extends Error {
  readonly problems: readonly ContentProblem[];
  constructor(problems: readonly ContentProblem[]) {
    const lines = problems.map((p) => `  ${p.file}: ${p.field || "(file)"}: ${p.reason}`);
    super(`Content is invalid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${lines.join("\n")}`);
    this.name = "ContentError";
    this.problems = problems;
  }
}
