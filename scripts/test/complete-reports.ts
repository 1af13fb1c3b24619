// A node:test reporter that checks every test file's report arrived whole. Each test file runs in its own process
// and streams its results to the runner; the last thing it sends is its summary, with the number of tests it ran.
// A file whose summary never arrives (its process exited early, or its last results were lost on the way), or
// whose summary counts more tests than arrived, ran tests nobody saw: the run cannot claim they passed.
// Writes one JSON line per file that sent a summary; scripts/test.ts compares them with the files it launched.
import type { TestEvent } from "node:test/reporters";

export interface FileReport {
  file: string;
  /** Tests (not suites) the file's process says it ran. */
  declared: number;
  /** Their results that reached the runner. */
  received: number;
}

interface EventData {
  file?: string;
  entryFile?: string;
  nesting?: number;
  details?: { type?: string };
  counts?: { tests: number };
}

export default async function* completeReports(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const received = new Map<string, number>();
  for await (const event of source) {
    const data = event.data as EventData;
    // The runner marks each result with the file whose process sent it; the run's own summary has none.
    const file = data.entryFile;
    if (file === undefined) continue;
    if ((event.type === "test:pass" || event.type === "test:fail") && data.details?.type !== "suite")
      received.set(file, (received.get(file) ?? 0) + 1);
    if (event.type === "test:summary" && data.counts) {
      const report: FileReport = { file, declared: data.counts.tests, received: received.get(file) ?? 0 };
      yield `${JSON.stringify(report)}\n`;
    }
  }
}
