// Google puts its machine translation beside the reviewer's words in `comment`; only the original is published.
//   "(Translated by Google) Great service\n\n(Original)\nExcelente servicio"   (translation first)
//   "Excelente servicio\n\n(Translated by Google)\nGreat service"              (original first)
import { franc } from "franc-min";
import { iso6393To1 } from "iso-639-3";

const TRANSLATED = "(Translated by Google)";
const ORIGINAL = "(Original)";

/** BCP 47 for "language not determined": what a text too short to recognise gets. */
export const UNDETERMINED_LANGUAGE = "und";

/** The reviewer's own words, and whether Google had added a translation. */
export function originalText(comment: string): { text: string; translated: boolean } {
  const t = comment.indexOf(TRANSLATED);
  if (t === -1) return { text: comment, translated: false };
  const o = comment.indexOf(ORIGINAL, t);
  const text = o !== -1 ? comment.slice(o + ORIGINAL.length) : comment.slice(0, t);
  return { text: text.trim(), translated: true };
}

/** The language of a text as a BCP 47 tag (ISO 639-1 where one exists), or `und` when it cannot be told. */
export function detectLanguage(text: string): string {
  const code = franc(text);
  if (code === "und") return UNDETERMINED_LANGUAGE;
  return iso6393To1[code] ?? code;
}
