// Opening hours in words and the text colour on a brand colour.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { describeHours, textOn } from "../../src/domain/pages/business-details.ts";

test("schema.org opening hours read as words; other shapes are shown as written", () => {
  assert.equal(describeHours("Mo-Fr 07:30-18:00"), "Monday to Friday: 07:30 to 18:00");
  assert.equal(describeHours("Sa 08:00-14:00"), "Saturday: 08:00 to 14:00");
  assert.equal(describeHours("Sa,Su 09:00-12:00"), "Saturday, Sunday: 09:00 to 12:00");
  assert.equal(describeHours("Mo-Su"), "Monday to Sunday: open all day");
  for (const odd of ["Mo-Fr 7-18", "Monday 09:00-17:00", "Mo-Fr 07:00-18:00 closed", "", "Mo-Fr 25:00-26:00"])
    assert.equal(describeHours(odd), odd);
});

const contrast = (a: string, b: string) => {
  const lum = (hex: string) => {
    const c = [1, 3, 5].map((i) => {
      const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test("text on any brand colour meets WCAG AA (4.5:1)", () => {
  assert.equal(textOn("#ffffff"), "#000000");
  assert.equal(textOn("#000000"), "#ffffff");
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
      const hex = `#${n.toString(16).padStart(6, "0")}`;
      assert.ok(contrast(hex, textOn(hex)) >= 4.5, hex);
    }),
    { numRuns: 2000 },
  );
});
