// The architecture's import directions, read from the code: pages and the build never import the sidecar, nothing
// shipped imports scripts, benchmarks or tests, the domain core imports only itself and the analysis package, and
// the folders import each other without cycles (README's "Architecture" lists them).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { ROOT } from "../helpers/paths.ts";

const SOURCES = ["src", "sidecar", "scripts", "bench", "packages"];
const IMPORT = /(?:^|\n)\s*(?:import|export)[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mjs|astro)$/.test(e.name) && !e.parentPath.includes("node_modules"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** A file's unit: its folder, or the file itself when it sits at the top of src/ or sidecar/. */
function unitOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "packages") return parts.slice(0, 2).join("/");
  if (parts[0] === "scripts" || parts[0] === "bench" || parts[0] === "tests") return parts[0];
  return parts.length === 2 ? file : parts.slice(0, 2).join("/");
}

function edges(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of SOURCES.flatMap(files)) {
    const from = unitOf(file);
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      let target: string | undefined;
      if (spec.startsWith(".")) target = relative(ROOT, resolve(ROOT, dirname(file), spec));
      else if (spec.startsWith("@rps/review-analysis")) target = "packages/review-analysis/index.ts";
      if (!target || target.startsWith("..") || target.includes("node_modules")) continue;
      const to = unitOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

test("imports point one way: no forbidden direction, no cycle between folders", () => {
  const graph = edges();
  assert.ok(graph.size > 10, "the scan found the imports");
  const forbidden: string[] = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const shipped = from.startsWith("src") || from.startsWith("sidecar") || from.startsWith("packages");
      if (shipped && /^(scripts|bench|tests)/.test(to)) forbidden.push(`${from} -> ${to}`);
      if (from.startsWith("src") && to.startsWith("sidecar")) forbidden.push(`${from} -> ${to}`);
      if (from === "src/domain" && to.startsWith("src") && to !== "src/domain") forbidden.push(`${from} -> ${to}`);
      if (from.startsWith("packages") && !to.startsWith(from)) forbidden.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(forbidden, []);
  // Depth-first search for a cycle among the units.
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (u: string, path: string[]) => {
    if (state.get(u) === "done") return;
    if (state.get(u) === "open") {
      cycles.push([...path.slice(path.indexOf(u)), u].join(" -> "));
      return;
    }
    state.set(u, "open");
    for (const v of graph.get(u) ?? []) visit(v, [...path, u]);
    state.set(u, "done");
  };
  for (const u of graph.keys()) visit(u, []);
  assert.deepEqual(cycles, []);
});
