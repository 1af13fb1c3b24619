// Finds customers' email addresses and phone numbers in free text and replaces them with a placeholder.
// Phone numbers come from libphonenumber-js (full metadata, "valid" leniency), so years, prices, ratings
// such as 10/10 and order numbers are left alone; a number without a country code is read in the
// business's country. The business's own telephone and email are not contact details of a customer.
import {
  type CountryCode,
  findPhoneNumbersInText,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from "libphonenumber-js/max";
import { type ContactKind, REDACTED } from "./policy.ts";

// Local part and domain as RFC 5322's common subset; the domain needs a dot and a letter TLD. The lengths are RFC
// 5321's (local part 64, label 63): unbounded, a long run of local-part characters cost time quadratic in its length
// (each start scanned to the run's end; 40,000 characters took 2 s, 200,000 never finished). A longer run before an
// @ still has its last 64 characters and the domain redacted.
const EMAIL =
  /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}(?![A-Za-z])/g;

// A cheap test before the costly phone search: seven digits with at most three other characters between
// neighbours, which every phone number libphonenumber recognises has (the shortest national numbers have seven).
const MAY_HOLD_PHONE = /\d(?:[^\d\n]{0,3}\d){6}/;

export interface ContactMatch {
  kind: ContactKind;
  start: number;
  end: number;
}

export interface BusinessContacts {
  /** ISO 3166-1 alpha-2 code of the business's country (the default region for numbers without +). */
  country?: string;
  telephone?: string;
  email?: string;
}

export type ContactFinder = (text: string) => ContactMatch[];

export function createContactFinder(business: BusinessContacts): ContactFinder {
  const country = business.country?.toUpperCase();
  const region = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const ownPhone = business.telephone ? parsePhoneNumberFromString(business.telephone, region)?.number : undefined;
  const ownEmail = business.email?.toLowerCase();

  return (text) => {
    const found: ContactMatch[] = [];
    const emails = text.includes("@") ? text.matchAll(EMAIL) : [];
    for (const m of emails) {
      if (m[0].toLowerCase() === ownEmail) continue;
      found.push({ kind: "email", start: m.index, end: m.index + m[0].length });
    }
    const phones = MAY_HOLD_PHONE.test(text) ? findPhoneNumbersInText(text, { defaultCountry: region }) : [];
    for (const p of phones) {
      if (p.number.number === ownPhone) continue;
      // Digits inside an email address were already covered.
      if (found.some((f) => f.start < p.endsAt && p.startsAt < f.end)) continue;
      found.push({ kind: "phone", start: p.startsAt, end: p.endsAt });
    }
    return found.sort((a, b) => a.start - b.start);
  };
}

/** The text with every match replaced by its placeholder. */
export function redactText(text: string, matches: readonly ContactMatch[]): string {
  let out = "";
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.start) + REDACTED[m.kind];
    at = m.end;
  }
  return out + text.slice(at);
}
