// How many requests one callback host gets at once, learnt from its answers (AIMD, as TCP's congestion
// window): it starts at the configured limit; a host that answers fast and without errors gets one more per
// answer until its first overload (slow start: the limit doubles per round), then one more per round of answers;
// a timeout, a connection error or a 5xx halves it, once per round (the failures of requests that started
// before the last cut are the same overload seen late). Never below 1 nor above `max`.

/** What one request to a host showed: it answered (after `ms`), or the host is overloaded. */
export type HostFeedback = { answered: true; ms: number } | { answered: false };

/**
 * What a request's outcome says of its host: no answer (a timeout, a connection error: `status` undefined), a 5xx or
 * a 429 say it has enough; any other answer (a refusal, a wrong body included) that it coped, in the time since
 * `startedAt` (performance.now()).
 */
export function feedbackOf(status: number | undefined, startedAt: number): HostFeedback {
  return status === undefined || status >= 500 || status === 429
    ? { answered: false }
    : { answered: true, ms: performance.now() - startedAt };
}

export interface HostConcurrencyOptions {
  initial: number;
  max: number;
  /** An answer within this many milliseconds counts as fast. */
  fastMs: number;
  /** Hosts remembered at most (the least recently used is forgotten and starts again at `initial`). */
  maxHosts?: number;
}

interface HostState {
  limit: number;
  /** Bumped at each cut; a request started before it does not cut again. */
  round: number;
  slowStart: boolean;
  /** Fast answers since the limit last grew (congestion avoidance: a round of them adds one). */
  credit: number;
}

export interface HostConcurrency {
  limit(host: string): number;
  /** Call when a request starts; pass the result to `record`. */
  started(host: string): number;
  record(host: string, startedRound: number, feedback: HostFeedback): void;
}

export function createHostConcurrency(opts: HostConcurrencyOptions): HostConcurrency {
  const hosts = new Map<string, HostState>();
  const maxHosts = opts.maxHosts ?? 10_000;
  const state = (host: string) => {
    let s = hosts.get(host);
    if (s) {
      hosts.delete(host);
    } else {
      s = { limit: opts.initial, round: 0, slowStart: true, credit: 0 };
      if (hosts.size >= maxHosts) hosts.delete(hosts.keys().next().value as string);
    }
    hosts.set(host, s);
    return s;
  };
  return {
    limit: (host) => hosts.get(host)?.limit ?? opts.initial,
    started: (host) => state(host).round,
    record(host, startedRound, feedback) {
      const s = state(host);
      if (!feedback.answered) {
        if (startedRound !== s.round) return;
        s.limit = Math.max(1, Math.floor(s.limit / 2));
        s.round++;
        s.slowStart = false;
        s.credit = 0;
      } else if (feedback.ms <= opts.fastMs && s.limit < opts.max) {
        if (s.slowStart || ++s.credit >= s.limit) {
          s.limit++;
          s.credit = 0;
        }
      }
    },
  };
}
