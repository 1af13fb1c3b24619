// What the hub counts; metrics.ts gives it prom-client counters of these shapes.
export interface HubMetrics {
  delivered: { inc(): void };
  failed: { inc(): void };
  removed: { inc(labels: { reason: string }, value?: number): void };
}
