// The one place that reads process.env. Everything else receives a Config.
import * as z from "zod";
import {
  AUTHOR_NAME_POLICIES,
  AUTHOR_NAME_SCOPES,
  DEFAULT_AUTHOR_NAME_POLICY,
  DEFAULT_AUTHOR_NAME_SCOPE,
} from "./domain/import/author-name.ts";
import { DEFAULT_PII_POLICY, PII_POLICIES } from "./domain/pii/policy.ts";

const csv = (s: string) =>
  s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);

const positiveInt = z.coerce.number().int().positive();

/** Waits before successive retries, in milliseconds, comma-separated (`none`: no retry). */
const delaysMs = (defaults: string) =>
  z
    .string()
    .default(defaults)
    .transform((s) => (s.trim() === "none" ? [] : csv(s)))
    .pipe(z.array(z.string().regex(/^\d+$/, "must be a comma-separated list of milliseconds").transform(Number)));

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const ipOrCidr = /^(?:[0-9.]+|[0-9a-fA-F:.]+)(?:\/\d{1,3})?$/;

/** TRUST_PROXY as Express's `trust proxy` takes it: a hop count, or names and CIDRs separated by commas. */
const TrustProxy = z
  .string()
  .transform((s, ctx) => {
    if (/^\d+$/.test(s)) return Number(s);
    const parts = csv(s);
    const bad = parts.filter((p) => !PROXY_NAMES.has(p) && !ipOrCidr.test(p));
    if (bad.length || !parts.length) {
      ctx.addIssue({
        code: "custom",
        message: `must be a hop count, or loopback/linklocal/uniquelocal and addresses or CIDRs separated by commas (not ${bad.join(", ") || "empty"})`,
      });
      return z.NEVER;
    }
    return parts;
  })
  .optional();

export const ConfigSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(4321),
    HOST: z.string().min(1).default("127.0.0.1"),
    BASE_URL: z
      .url({ protocol: /^https?$/ })
      .default("http://localhost:4321")
      .transform((u) => u.replace(/\/+$/, "")),
    CONTENT_DIR: z.string().min(1).default("content"),
    DIST_DIR: z.string().min(1).default("dist"),
    DATA_DIR: z.string().min(1).default(".data"),
    BUILD_CACHE_DIR: z.string().min(1).default(".build-cache"),
    HUB_CALLBACK_ALLOWLIST: z.string().default("").transform(csv),
    HUB_LEASE_DEFAULT_SECONDS: positiveInt.default(864000),
    HUB_LEASE_MIN_SECONDS: positiveInt.default(300),
    HUB_LEASE_MAX_SECONDS: positiveInt.default(2592000),
    HUB_RETRY_DELAYS_MS: delaysMs("60000,300000"),
    HUB_TIMEOUT_MS: positiveInt.default(10000),
    HUB_RATE_LIMIT_PER_CLIENT: positiveInt.default(60),
    HUB_RATE_LIMIT_PER_CALLBACK_HOST: positiveInt.default(30),
    HUB_VERIFY_QUEUE_MAX: positiveInt.default(1000),
    HUB_VERIFY_QUEUE_MAX_PER_HOST: positiveInt.default(50),
    HUB_VERIFY_RETRY_DELAYS_MS: delaysMs("5000,30000,120000"),
    MCP_SESSION_IDLE_SECONDS: positiveInt.default(300),
    MCP_MAX_SESSIONS: positiveInt.default(10000),
    MCP_MAX_SESSIONS_PER_CLIENT: positiveInt.default(20),
    MCP_UNINITIALIZED_SESSION_SECONDS: positiveInt.default(30),
    MCP_SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Tests only: makes the build kill itself at a point where a crash must not lose the output. */
    BUILD_TEST_FAULT: z.enum(["kill-between-renames"]).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    TRUST_PROXY: TrustProxy,
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
    /** Set by CI systems; npm run publish then refuses a loopback BASE_URL as --production does. */
    CI: z
      .string()
      .default("")
      .transform((v) => !/^(0|false|no|off)?$/i.test(v.trim())),
    PII_POLICY: z.enum(PII_POLICIES).default(DEFAULT_PII_POLICY),
    /** How npm run import writes reviewers' names: `initial` (Marcus H.), `first` (Marcus) or `full`. */
    AUTHOR_NAME_POLICY: z.enum(AUTHOR_NAME_POLICIES).default(DEFAULT_AUTHOR_NAME_POLICY),
    /** `all`: the build also publishes hand-written reviews' names by AUTHOR_NAME_POLICY. */
    AUTHOR_NAME_SCOPE: z.enum(AUTHOR_NAME_SCOPES).default(DEFAULT_AUTHOR_NAME_SCOPE),
    /** Set by npm for the scripts it runs: the server then also exits when npm does. */
    npm_lifecycle_event: z.string().optional(),
  })
  .refine((c) => c.HUB_LEASE_MIN_SECONDS <= c.HUB_LEASE_MAX_SECONDS, {
    message: "HUB_LEASE_MIN_SECONDS must not exceed HUB_LEASE_MAX_SECONDS",
  });

export type Config = Readonly<z.infer<typeof ConfigSchema>>;

/** Parses an environment (default: process.env); throws one readable message listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(ConfigSchema.shape).flatMap((k) => (env[k] === undefined || env[k] === "" ? [] : [[k, env[k]]])),
  );
  const parsed = ConfigSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "config"}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return Object.freeze(parsed.data);
}
