// Seeded review generator: the same seed and count give the same files, byte for byte.
import { sampleBusiness } from "./business.ts";
import * as P from "./phrases.ts";

export function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const serviceNouns: Record<string, string[]> = {
  "ac-repair": ["air conditioner", "AC", "central air"],
  "furnace-service": ["furnace", "heat pump"],
  "water-heater": ["water heater", "tankless heater"],
  "drain-cleaning": ["drain", "sewer line"],
  electrical: ["electrical panel", "wiring"],
  "duct-cleaning": ["ductwork", "air ducts"],
  "maintenance-plan": ["furnace", "AC"],
};

const techCallNames: Record<string, string[]> = {
  "marcus-delgado": ["Marcus", "Marc", "Marcus D."],
  "priya-raman": ["Priya", "Priya R."],
  "will-okafor": ["Will", "William", "Billy"],
  "tess-nguyen": ["Tess", "Teresa"],
  "grant-holloway": ["Grant", "Grant H."],
  "jake-sorensen": ["Jake", "Jacob"],
};

export interface GeneratedFile {
  path: string;
  json: unknown;
}

export interface GenerateOptions {
  count: number;
  seed: number;
  /** Inclusive, YYYY-MM-DD. */
  from: string;
  to: string;
}

const STARS: [number, number][] = [
  [5, 0.62],
  [4, 0.15],
  [3, 0.07],
  [2, 0.05],
  [1, 0.11],
];

export function generateReviews(opts: GenerateOptions): GeneratedFile[] {
  const rnd = mulberry32(opts.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const chance = (p: number) => rnd() < p;
  const t0 = Date.parse(`${opts.from}T00:00:00Z`);
  const t1 = Date.parse(`${opts.to}T00:00:00Z`);
  const usedIds = new Map<string, number>();
  const files: GeneratedFile[] = [];
  const aspects = Object.keys(P.bank);

  for (let n = 0; n < opts.count; n++) {
    let r = rnd();
    let rating = 5;
    for (const [stars, p] of STARS) {
      if (r < p) {
        rating = stars;
        break;
      }
      r -= p;
    }
    const day = new Date(t0 + Math.floor(rnd() * ((t1 - t0) / 86400000 + 1)) * 86400000);
    const date = day.toISOString().slice(0, 10);
    const tech = pick(sampleBusiness.technicians);
    const service = pick(sampleBusiness.services);
    const area = pick(sampleBusiness.service_areas);
    const fill = (s: string) =>
      s
        .replaceAll("{tech}", pick(techCallNames[tech.id]))
        .replaceAll("{service}", pick(serviceNouns[service.id]))
        .replaceAll("{area}", area.name);

    const sentences: string[] = [];
    const length = chance(0.25) ? 1 : chance(0.5) ? 2 + Math.floor(rnd() * 2) : 4 + Math.floor(rnd() * 4);
    if (length > 2 && chance(0.7)) sentences.push(pick(P.openers));
    const mood: P.Polarity = rating >= 4 ? "pos" : "neg";
    for (let i = sentences.length; i < length - 1; i++) {
      if (rating === 3 || (rating === 4 && chance(0.25)) || (rating === 2 && chance(0.3))) {
        sentences.push(pick(P.mixed));
        continue;
      }
      const polarity: P.Polarity = chance(rating === 5 || rating === 1 ? 1 : 0.8)
        ? mood
        : mood === "pos"
          ? "neg"
          : "pos";
      sentences.push(pick(P.bank[pick(aspects)][polarity]));
    }
    sentences.push(pick(rating >= 4 ? P.closersPos : rating === 3 ? P.closersMid : P.closersNeg));
    let text = [...new Set(sentences.map(fill))].join(" ");
    if (length >= 6) text = text.replace(/\. (\S+ \S+ \S+)/, ".\n\n$1");
    const ratingOnly = chance(0.02);
    const special = !ratingOnly && rating >= 4 && chance(0.03);
    if (ratingOnly) text = "";
    else if (special) text = pick(P.specialTexts);

    const author = pick(P.authors);
    const slug = author
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z]+/g, "-")
      .replace(/^-|-$/g, "");
    let id = `${date}-${slug}`;
    const seen = usedIds.get(id) ?? 0;
    usedIds.set(id, seen + 1);
    if (seen > 0) id = `${id}-${seen + 1}`;

    const review: Record<string, unknown> = { rating, date };
    if (!ratingOnly && chance(0.55))
      review.title = pick(rating >= 4 ? P.titlesPos : rating === 3 ? P.titlesMid : P.titlesNeg);
    review.text = text;
    review.author = author;
    review.verified = !chance(0.07);
    review.source = pick(["website", "website", "google", "email-survey"]);
    if (!special && chance(0.6)) review.technicians = [tech.id];
    if (!special && chance(0.5)) review.services = [service.id];
    if (!special && chance(0.3)) review.service_areas = [area.id];
    const wantsResponse = rating <= 2 ? chance(0.8) : rating === 3 ? chance(0.45) : chance(0.12);
    if (wantsResponse) {
      const replyDay = new Date(day.getTime() + (1 + Math.floor(rnd() * 4)) * 86400000).toISOString().slice(0, 10);
      review.response = { text: fill(pick(rating >= 4 ? P.responsesPos : P.responsesNeg)), date: replyDay };
      review.updated = `${replyDay}T${String(8 + Math.floor(rnd() * 9)).padStart(2, "0")}:${String(Math.floor(rnd() * 60)).padStart(2, "0")}:00-07:00`;
    }
    if (chance(0.06)) {
      review.private = {
        email: `${slug}@mail.example`,
        order_number: `SC-${100000 + Math.floor(rnd() * 900000)}`,
        phone: `208-555-0${100 + Math.floor(rnd() * 900)}`,
      };
    }
    files.push({ path: `reviews/${date.slice(0, 4)}/${id}.json`, json: review });
  }
  return files;
}
