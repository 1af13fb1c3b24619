// RFC 9110 conditional GET: If-None-Match (weak comparison) wins over If-Modified-Since.

/** The request headers a conditional GET reads (Node's IncomingHttpHeaders has this shape). */
interface ConditionalHeaders {
  "if-none-match"?: string;
  "if-modified-since"?: string;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

export function etagMatches(header: string, etag: string): boolean {
  // The common case (a client sending back the one tag it was given) needs no parsing.
  if (header === etag) return true;
  if (header.trim() === "*") return true;
  const want = opaque(etag);
  return header.split(",").some((t) => opaque(t) === want);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d\\d):(\\d\\d):(\\d\\d)";
/** RFC 9110 section 5.6.7: IMF-fixdate, then the two obsolete forms a recipient must also accept. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d\\d) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d\\d)-${MONTH}-(\\d\\d) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 section 5.6.7) as milliseconds since the epoch; NaN for anything else, which a
 * conditional request then ignores (section 13.1.3). Date.parse is not used: it makes a date of loose text
 * ("x 2030"), and a client would get a 304 it never asked for.
 */
export function parseHttpDate(text: string): number {
  const parts = httpDateParts(text);
  if (parts === undefined) return Number.NaN;
  const { day, month, year, time } = parts;
  const [hh, mm, ss] = time.map(Number);
  // 60 is a leap second (RFC 9110's time-of-day allows it); a day the month does not have is no date.
  if (hh > 23 || mm > 59 || ss > 60 || day < 1) return Number.NaN;
  const date = new Date(Date.UTC(2000, 0, 1, hh, mm, Math.min(ss, 59)));
  date.setUTCFullYear(year, MONTHS.indexOf(month), day); // not Date.UTC's years 0-99, which it takes for 1900-1999
  return date.getUTCDate() === day ? date.getTime() : Number.NaN;
}

/** The fields of whichever of the three forms `text` is written in. */
function httpDateParts(text: string): { day: number; month: string; year: number; time: string[] } | undefined {
  const imf = IMF_FIXDATE.exec(text);
  if (imf) return { day: Number(imf[1]), month: imf[2], year: Number(imf[3]), time: imf.slice(4, 7) };
  const rfc850 = RFC850_DATE.exec(text);
  if (rfc850) {
    // A two-digit year more than 50 years ahead is the most recent past year with those digits.
    const now = new Date().getUTCFullYear();
    const year = Math.floor(now / 100) * 100 + Number(rfc850[3]);
    return {
      day: Number(rfc850[1]),
      month: rfc850[2],
      year: year > now + 50 ? year - 100 : year,
      time: rfc850.slice(4, 7),
    };
  }
  const asctime = ASCTIME_DATE.exec(text);
  if (asctime)
    return { day: Number(asctime[2]), month: asctime[1], year: Number(asctime[6]), time: asctime.slice(3, 6) };
  return undefined;
}

/**
 * True when the client's copy is current and a 304 is due. `lastModifiedMs`: the resource's Last-Modified as
 * Date.parse gives it (NaN when it has none), computed once by callers that answer the same resource often.
 */
export function notModified(headers: ConditionalHeaders, etag: string, lastModifiedMs: number): boolean {
  const inm = headers["if-none-match"];
  if (inm !== undefined) return etagMatches(inm, etag);
  const ims = headers["if-modified-since"];
  if (ims === undefined || Number.isNaN(lastModifiedMs)) return false;
  const since = parseHttpDate(ims);
  if (Number.isNaN(since)) return false;
  return lastModifiedMs <= since;
}
