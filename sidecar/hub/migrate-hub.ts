// Copies every subscription (secret, lease end, failure count) from one hub store to another: the embedded
// SQLite file to PostgreSQL when an operator moves to several instances. Idempotent: a subscription already in
// the target is left as it is there.
import type { HubStore } from "./hub-store.ts";

export interface MigrationReport {
  copied: number;
  existing: number;
}

export async function migrateHubStore(from: HubStore, to: HubStore, now: number): Promise<MigrationReport> {
  const report: MigrationReport = { copied: 0, existing: 0 };
  for (const s of await from.list()) {
    if (await to.importSubscription(s, now)) report.copied++;
    else report.existing++;
  }
  return report;
}
