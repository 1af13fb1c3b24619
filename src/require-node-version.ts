// Imported first by every entry point: on another Node than package.json's `engines`, stop with what to run
// instead, before anything fails in a less obvious way. (On Node 20 a .ts entry cannot start at all; README.md
// says to use the project's Node, which every npm script already does.)
import pkg from "../package.json" with { type: "json" };

/** What is wrong with running `entry` on Node `version` given an engines range such as ">=24 <25", or undefined. */
export function nodeVersionProblem(version: string, range: string, entry: string): string | undefined {
  const min = Number(/>=\s*(\d+)/.exec(range)?.[1] ?? 0);
  const below = Number(/<\s*(\d+)/.exec(range)?.[1] ?? Number.POSITIVE_INFINITY);
  const major = Number(version.replace(/^v/, "").split(".")[0]);
  if (major >= min && major < below) return undefined;
  return (
    `This project runs on Node ${range} and this is Node ${version.replace(/^v/, "")}.\n` +
    "The project brings its own Node (the npm package node): run it through npm (npm start, npm run build, …)\n" +
    `or directly as  npx node ${entry}  or  node_modules/.bin/node ${entry}\n`
  );
}

const problem = nodeVersionProblem(process.versions.node, pkg.engines.node, process.argv[1] ?? "FILE");
if (problem) {
  process.stderr.write(problem);
  process.exit(1);
}
