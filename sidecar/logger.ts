// Structured logs: one JSON line per event (an error's stack is one field of it); the same events printed for
// people when stdout is a terminal.
import { createRequire } from "node:module";
import { pino } from "pino";
import type PinoPretty from "pino-pretty";
import type { Config } from "../src/config.ts";

export type Logger = pino.Logger;

/** `auto`: pretty on a terminal, JSON otherwise (files, pipes, log collectors). */
export function usePretty(format: Config["LOG_FORMAT"], isTTY = process.stdout.isTTY === true): boolean {
  return format === "pretty" || (format === "auto" && isTTY);
}

export function createLogger(config: Pick<Config, "LOG_LEVEL"> & Partial<Pick<Config, "LOG_FORMAT">>): Logger {
  // ISO-8601 times: readable as they are, and parsed by every log collector.
  const options = {
    level: config.LOG_LEVEL,
    base: { service: "reviews-sidecar" },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (!usePretty(config.LOG_FORMAT ?? "auto")) return pino(options);
  // Loaded only for a terminal: a server writing JSON never holds the prettifier and its dependencies.
  const pretty = createRequire(import.meta.url)("pino-pretty") as typeof PinoPretty;
  return pino(options, pretty({ sync: true, ignore: "pid,hostname,service", translateTime: "SYS:HH:MM:ss.l" }));
}
