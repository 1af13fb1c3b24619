// What the system tests need besides npm packages, found from the test files themselves (what they import or
// run), each with the command that installs or starts it. The same list .ci/run installs.
import { execFile } from "node:child_process";
import { access, readFile } from "node:fs/promises";
import { connect } from "node:net";
import { promisify } from "node:util";
import pg from "pg";
import { BROTLI_MODULE } from "../../src/deploy/nginx-config.ts";

export interface Missing {
  what: string;
  fix: string;
}

const APT = "sudo apt-get install -y";
const PG_URL = "postgres://postgres@127.0.0.1:5432/test";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const runs = (cmd: string, args: string[]) =>
  promisify(execFile)(cmd, args, { timeout: 10_000 }).then(
    () => true,
    () => false,
  );

async function postgresProblem(): Promise<Missing | undefined> {
  const listening = await new Promise<boolean>((resolve) => {
    const s = connect(5432, "127.0.0.1", () => {
      s.end();
      resolve(true);
    });
    s.on("error", () => resolve(false));
    s.setTimeout(3_000, () => {
      s.destroy();
      resolve(false);
    });
  });
  if (!listening)
    return {
      what: "PostgreSQL listening on 127.0.0.1:5432",
      fix: `${APT} postgresql && sudo pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -1) main start`,
    };
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return undefined;
  } catch (e) {
    return {
      what: `a PostgreSQL database "test" that user postgres reaches without a password over TCP (${(e as Error).message})`,
      fix: `sudo -u postgres createdb test, and in pg_hba.conf: host all all 127.0.0.1/32 trust (then reload PostgreSQL)`,
    };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What the given test files need and this machine lacks; empty when everything is there. */
export async function missingPrerequisites(testFiles: string[]): Promise<Missing[]> {
  const texts = await Promise.all(testFiles.map((f) => readFile(f, "utf8")));
  const uses = (pattern: RegExp) => texts.some((t) => pattern.test(t));
  const missing: Missing[] = [];
  if (uses(/helpers\/browser/) && !(await exists("/usr/bin/chromium")))
    missing.push({ what: "Chromium at /usr/bin/chromium (browser tests)", fix: `${APT} chromium` });
  if (uses(/helpers\/nginx/)) {
    if (!(await exists("/usr/sbin/nginx")))
      missing.push({ what: "nginx at /usr/sbin/nginx (static host tests)", fix: `${APT} nginx-light` });
    if (!(await exists(BROTLI_MODULE)))
      missing.push({
        what: `nginx's brotli static module (${BROTLI_MODULE})`,
        fix: `${APT} libnginx-mod-http-brotli-static`,
      });
  }
  if (uses(/python3/) && !(await runs("/usr/bin/python3", ["-c", "import feedparser"])))
    missing.push({ what: "Python's feedparser (the feed reader test)", fix: `${APT} python3-feedparser` });
  if (uses(/helpers\/tls/) && !(await runs("openssl", ["version"])))
    missing.push({ what: "openssl (test certificates for HTTPS subscribers)", fix: `${APT} openssl` });
  if (uses(/helpers\/pg/)) {
    const problem = await postgresProblem();
    if (problem) missing.push(problem);
  }
  return missing;
}
