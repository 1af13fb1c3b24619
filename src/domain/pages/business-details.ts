// What the pages show of the business's own details: opening hours in words and a text colour that reads on the
// brand colour. Pure; the .astro files only render it.

const DAYS: Record<string, string> = {
  Mo: "Monday",
  Tu: "Tuesday",
  We: "Wednesday",
  Th: "Thursday",
  Fr: "Friday",
  Sa: "Saturday",
  Su: "Sunday",
};
const DAY = "(Mo|Tu|We|Th|Fr|Sa|Su)";
const DAY_SPAN = new RegExp(`^${DAY}(?:-${DAY})?$`);
const TIME_SPAN = /^([01][0-9]|2[0-4]):([0-5][0-9])-([01][0-9]|2[0-4]):([0-5][0-9])$/;

/**
 * One schema.org openingHours string ("Mo-Fr 07:30-18:00", "Sa,Su 09:00-12:00", "Mo-Su") in words
 * ("Monday to Friday: 07:30 to 18:00"); a string of another shape is shown as written, never dropped.
 */
export function describeHours(spec: string): string {
  const [days, times, ...rest] = spec.trim().split(/\s+/);
  if (rest.length > 0 || days === undefined) return spec;
  const dayParts = days.split(",").map((part) => DAY_SPAN.exec(part));
  if (dayParts.some((m) => m === null)) return spec;
  const dayText = dayParts.map((m) => (m?.[2] ? `${DAYS[m[1]]} to ${DAYS[m[2]]}` : DAYS[m?.[1] ?? ""])).join(", ");
  if (times === undefined) return `${dayText}: open all day`;
  const t = TIME_SPAN.exec(times);
  if (!t) return spec;
  return `${dayText}: ${t[1]}:${t[2]} to ${t[3]}:${t[4]}`;
}

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * Black or white, whichever contrasts more with `hex`: at least 4.58:1 for any colour, so text on a brand-coloured
 * button always meets WCAG AA whatever colour the business picks.
 */
export function textOn(hex: string): "#000000" | "#ffffff" {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}
