// The longest stretches a process ran on a CPU without a break, from a V8 CPU profile (node --cpu-prof): runs of
// samples without `(idle)` and without a gap between samples over `--gap` ms (a gap is time the thread was not
// sampled: off a CPU, waiting for one). An event-loop stall longer than the longest such stretch is the machine's
// run queue, not the process's own work. Prints each stretch's start (seconds since the profile began, and before
// it ended), its length and the functions with the most samples in it.
// `node bench/lib/cpu-stretches.ts FILE.cpuprofile [--top=10] [--gap=4]`. Not part of the service.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Stretch {
  /** Milliseconds since the profile began. */
  startMs: number;
  ms: number;
  /** The functions with the most samples in the stretch, with their share. */
  top: string[];
}

export function cpuStretches(profile: Profile, gapMs = 4, top = 10): Stretch[] {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const name = (id: number) => {
    const f = frames.get(id);
    if (!f) return "?";
    const file = f.url.split("/").slice(-2).join("/");
    return `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
  };
  const stretches: { start: number; end: number; ids: number[] }[] = [];
  let t = 0;
  let cur: { start: number; end: number; ids: number[] } | undefined;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] / 1000;
    t += delta;
    const id = profile.samples[i];
    const idle = frames.get(id)?.functionName === "(idle)";
    if (idle || delta > gapMs) {
      if (cur) stretches.push(cur);
      cur = undefined;
    }
    if (idle) continue;
    if (!cur) cur = { start: t, end: t, ids: [] };
    cur.end = t;
    cur.ids.push(id);
  }
  if (cur) stretches.push(cur);
  return stretches
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, top)
    .map((s) => {
      const counts = new Map<string, number>();
      for (const id of s.ids) counts.set(name(id), (counts.get(name(id)) ?? 0) + 1);
      const ranked = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4);
      return {
        startMs: Math.round(s.start),
        ms: Math.round((s.end - s.start) * 10) / 10,
        top: ranked.map(([n, c]) => `${Math.round((100 * c) / s.ids.length)}% ${n}`),
      };
    });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  const arg = (n: string) => process.argv.find((a) => a.startsWith(`--${n}=`))?.split("=")[1];
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  for (const s of cpuStretches(profile, Number(arg("gap") ?? 4), Number(arg("top") ?? 10)))
    console.log(
      `${s.ms} ms at ${(s.startMs / 1000).toFixed(1)} s (${((totalMs - s.startMs) / 1000).toFixed(1)} s before the end): ${s.top.join("; ")}`,
    );
}
