// Where the widget's files are and the limits of its attributes: shared by the build and the widget's script, so
// this file imports nothing (the script must not carry zod).

/** Bumped when a field changes meaning or goes away; a widget script reads only the format it was built for. */
export const WIDGET_FORMAT = 1;
/** Where the build writes the widget's files (not /widget/: that is the page that shows the widget). */
export const WIDGET_DATA_DIR = "/widget-data/";
export const WIDGET_SCRIPT_PATH = "/widget.js";
/** The `count` attribute's range, and how many reviews of each ranking a slice keeps. */
export const WIDGET_MAX_COUNT = 20;
export const WIDGET_DEFAULT_COUNT = 5;
/** A review's text in the widget is cut at a word boundary before this many characters; its permalink has it all. */
export const WIDGET_TEXT_CHARS = 280;

/** The widget's entity attributes, and the catalogue field (and review mentions field) each one names. */
export const WIDGET_ENTITY_FIELDS = {
  technician: "technicians",
  service: "services",
  area: "service_areas",
} as const;
export type WidgetEntity = keyof typeof WIDGET_ENTITY_FIELDS;

/** The URL paths of one slice's two files. */
export function widgetDataPaths(entity?: { kind: WidgetEntity; id: string }): { summary: string; reviews: string } {
  const stem = entity ? `${entity.kind}/${encodeURIComponent(entity.id)}` : "all";
  return { summary: `${WIDGET_DATA_DIR}${stem}.json`, reviews: `${WIDGET_DATA_DIR}${stem}.reviews.json` };
}

/** How many aspects the aspects variant lists (and reserves rows for). */
export const WIDGET_ASPECT_ROWS = 6;

/**
 * The height of each variant's box as CSS, in em of the element's font size: what src/widget/widget.css gives it
 * from the start, and what a host page may reserve for it before the script has run (docs/widget.md).
 */
export function widgetHeight(variant: "badge" | "list" | "aspects", count: number): string {
  if (variant === "badge") return "calc(4.5em + 4px)";
  return `calc(${5.5 + (variant === "list" ? count * 9 : WIDGET_ASPECT_ROWS * 3)}em + 4px)`;
}
