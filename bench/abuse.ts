// Memory under clients that pipeline requests and never read the answers (issue: "survive abuse"): the RSS
// of the sidecar process sampled before, during and after the attack. Loopback only.

import { connect, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { startSidecarProcess } from "../tests/helpers/sidecar-process.ts";
import { rssMb } from "./lib/rss.ts";

const ATTACKS = [
  { connections: 20, requests: 5000, target: "/reviews.json" },
  { connections: 4, requests: 900, target: "/api/reviews/search?limit=100" },
];

/** Returns markdown lines for bench/RESULTS.md. */
export async function pipelineAbuseBench(dist: string, reviews: number, port: number): Promise<string[]> {
  const sidecar = await startSidecarProcess({ DIST_DIR: dist, PORT: String(port), LOG_LEVEL: "error" });
  const pid = sidecar.child.pid;
  const samples: [number, number][] = [];
  const t0 = Date.now();
  const sample = () => samples.push([(Date.now() - t0) / 1000, rssMb(pid)]);
  try {
    await fetch(`${sidecar.url}/reviews.json`).then((r) => r.arrayBuffer());
    sample();
    const before = rssMb(pid);
    const sockets: Socket[] = [];
    for (const a of ATTACKS) {
      const bytes = `GET ${a.target} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(a.requests);
      for (let i = 0; i < a.connections; i++) {
        const s = connect(port, "127.0.0.1", () => s.write(bytes));
        s.pause(); // never reads
        s.on("error", () => undefined);
        sockets.push(s);
      }
    }
    let peak = before;
    for (let i = 0; i < 20; i++) {
      await sleep(500);
      sample();
      peak = Math.max(peak, samples.at(-1)?.[1] ?? 0);
    }
    for (const s of sockets) s.destroy();
    await sleep(2000);
    sample();
    const after = rssMb(pid);
    return [
      `## Clients that pipeline and never read (${reviews} reviews)`,
      "",
      `${ATTACKS.map((a) => `${a.connections} connections x ${a.requests} pipelined \`${a.target}\``).join(" plus ")}, none reading; RSS of the sidecar sampled every 0.5 s. Before the limits (issue report) the same attack added 153 MB and 246 MB that were never released.`,
      "",
      "| RSS before | peak | growth | after the clients left |",
      "|---|---|---|---|",
      `| ${before.toFixed(0)} MB | ${peak.toFixed(0)} MB | ${(peak - before).toFixed(0)} MB | ${after.toFixed(0)} MB |`,
      "",
      `RSS curve (s: MB): ${samples.map(([t, mb]) => `${t.toFixed(1)}: ${mb.toFixed(0)}`).join(", ")}`,
      "",
    ];
  } finally {
    await sidecar.stop();
  }
}
