// Publishing on commit without hosted CI: git hooks (post-commit for commits made in the repository, post-merge
// for `git pull`) that run npm run publish with the configuration given when they were installed, for commits on
// one branch. They run in the foreground: the commit's output shows the publish, and a failure says so there.
import { resolve } from "node:path";
import type { Config } from "../config.ts";

export const HOOKS = ["post-commit", "post-merge"] as const;
/** The line that marks a hook as ours: install replaces such a hook, and refuses any other. */
export const HOOK_MARKER = "# reviews-publication-service publish hook";

/** The configuration a publish reads, written into the hook (paths made absolute: git runs hooks elsewhere). */
export const CARRIED = [
  "BASE_URL",
  "CONTENT_DIR",
  "DIST_DIR",
  "BUILD_CACHE_DIR",
  "PII_POLICY",
  "HOST",
  "PORT",
] as const;

export interface HookOptions {
  config: Pick<Config, (typeof CARRIED)[number]>;
  /** Only commits on this branch are published. */
  branch: string;
  /** The service's folder (scripts/publish.ts is run from there) and the Node that runs it. */
  serviceDir: string;
  node: string;
  /** Arguments for npm run publish (--target, --sidecar, --production, …). */
  publishArgs: readonly string[];
}

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function renderHook(o: HookOptions): string {
  const paths = new Set(["CONTENT_DIR", "DIST_DIR", "BUILD_CACHE_DIR"]);
  const env = CARRIED.map((k) => {
    const v = String(o.config[k]);
    return `${k}=${sh(paths.has(k) ? resolve(v) : v)}`;
  });
  return `#!/bin/sh
${HOOK_MARKER}
# Installed by npm run publish-hook -- install; remove with npm run publish-hook -- uninstall.
# Publishes each commit on ${o.branch.replace(/\n/g, " ")} (docs/operations.md, "Publishing on commit").
[ "$(git rev-parse --abbrev-ref HEAD)" = ${sh(o.branch)} ] || exit 0
cd ${sh(o.serviceDir)} || exit 1
echo "publishing $(git -C ${sh(resolve(o.config.CONTENT_DIR))} rev-parse --short HEAD) ..."
env ${env.join(" ")} ${sh(o.node)} scripts/publish.ts ${o.publishArgs.map(sh).join(" ")}
status=$?
[ $status -eq 0 ] || echo "publish failed (exit $status): the commit is made, the site still serves the previous build" >&2
exit $status
`;
}
