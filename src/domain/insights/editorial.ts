// editorial.md: YAML front matter `faq: [{question, answer}]`, body = the editorial summary.
import { parse as parseYaml } from "yaml";
import { ContentError } from "../content-errors.ts";
import { Editorial } from "../schemas/insights.ts";

export interface EditorialContent {
  faq?: { question: string; answer: string }[];
  summary?: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

export function parseEditorial(text: string, file = "editorial.md"): EditorialContent {
  const m = FRONT_MATTER.exec(text);
  let data: unknown = {};
  let body = text;
  if (m) {
    try {
      data = parseYaml(m[1]) ?? {};
    } catch (e) {
      throw new ContentError([
        { file, field: "front matter", reason: `not valid YAML (${(e as Error).message.split("\n")[0]})` },
      ]);
    }
    body = m[2];
  }
  const parsed = Editorial.safeParse(data);
  if (!parsed.success) {
    throw new ContentError(
      parsed.error.issues.map((i) => ({ file, field: i.path.join(".") || "front matter", reason: i.message })),
    );
  }
  const summary = body.trim();
  return { faq: parsed.data.faq, summary: summary || undefined };
}
