// Structured logs: one JSON line per event.
import { pino } from "pino";
import type { Config } from "../src/config.ts";

export type Logger = pino.Logger;

export function createLogger(config: Pick<Config, "LOG_LEVEL">): Logger {
  return pino({ level: config.LOG_LEVEL, base: { service: "reviews-sidecar" } });
}
