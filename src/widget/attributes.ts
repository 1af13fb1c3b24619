// The element's attributes read into one settings object. A wrong value never breaks the page: it falls back to the
// default and is reported once per element (docs/widget.md lists every attribute).
import {
  WIDGET_DEFAULT_COUNT,
  WIDGET_ENTITY_FIELDS,
  WIDGET_MAX_COUNT,
  type WidgetEntity,
} from "../domain/widget/widget-paths.ts";

export const VARIANTS = ["badge", "list", "aspects"] as const;
export const SORTS = ["newest", "best"] as const;
export const THEMES = ["auto", "light", "dark"] as const;
export const ENTITIES = Object.keys(WIDGET_ENTITY_FIELDS) as WidgetEntity[];
export const OBSERVED = ["variant", "count", "sort", "min-rating", "theme", "lang", ...ENTITIES];

export interface Settings {
  variant: (typeof VARIANTS)[number];
  count: number;
  sort: (typeof SORTS)[number];
  /** The lowest star rating shown, a whole number (min-rating 4.5 shows 5-star reviews only). */
  minRating: number;
  entity: { kind: WidgetEntity; id: string } | undefined;
  theme: (typeof THEMES)[number];
  lang: string;
}

type Warn = (message: string) => void;

function oneOf<T extends string>(el: Element, name: string, allowed: readonly T[], warn: Warn): T {
  const value = el.getAttribute(name);
  if (value === null || value === "") return allowed[0];
  const found = allowed.find((a) => a === value.trim().toLowerCase());
  if (found) return found;
  warn(`${name}="${value}" is not one of ${allowed.join(", ")}; using ${allowed[0]}`);
  return allowed[0];
}

function numberIn(el: Element, name: string, min: number, max: number, fallback: number, warn: Warn): number {
  const value = el.getAttribute(name);
  if (value === null || value === "") return fallback;
  const n = Number(value);
  if (Number.isFinite(n) && n >= min && n <= max) return n;
  warn(`${name}="${value}" is not a number from ${min} to ${max}; using ${fallback}`);
  return fallback;
}

/** The language of dates and numbers: the attribute, else the nearest `lang` around the element, else the browser's. */
function languageOf(el: Element, warn: Warn): string {
  const own = el.getAttribute("lang");
  const inherited = el.parentElement?.closest("[lang]")?.getAttribute("lang") || navigator.language || "en";
  for (const candidate of [own, inherited]) {
    if (!candidate) continue;
    try {
      return Intl.getCanonicalLocales(candidate)[0] ?? "en";
    } catch {
      warn(`lang="${candidate}" is not a language tag; using the page's`);
    }
  }
  return "en";
}

export function readSettings(el: Element, warn: Warn): Settings {
  const given = ENTITIES.flatMap((kind) => {
    const id = el.getAttribute(kind)?.trim().toLowerCase();
    return id ? [{ kind, id }] : [];
  });
  if (given.length > 1) {
    warn(`only one of ${ENTITIES.join(", ")} applies; using ${given[0].kind}="${given[0].id}"`);
  }
  return {
    variant: oneOf(el, "variant", VARIANTS, warn),
    count: Math.trunc(numberIn(el, "count", 1, WIDGET_MAX_COUNT, WIDGET_DEFAULT_COUNT, warn)),
    sort: oneOf(el, "sort", SORTS, warn),
    minRating: Math.ceil(numberIn(el, "min-rating", 1, 5, 1, warn)),
    entity: given[0],
    theme: oneOf(el, "theme", THEMES, warn),
    lang: languageOf(el, warn),
  };
}
