// The PII guard's vocabulary, apart from the detector so that config and schemas need not load phone metadata.

export const PII_POLICIES = ["redact", "fail", "off"] as const;
export type PiiPolicy = (typeof PII_POLICIES)[number];
export const DEFAULT_PII_POLICY: PiiPolicy = "redact";

export const CONTACT_KINDS = ["email", "phone"] as const;
export type ContactKind = (typeof CONTACT_KINDS)[number];

/** What replaces a customer's contact detail in published text. */
export const REDACTED: Readonly<Record<ContactKind, string>> = { email: "[email removed]", phone: "[phone removed]" };
