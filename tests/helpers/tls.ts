// A certificate authority made by the test (openssl), and a server certificate it signs for loopback names.
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./paths.ts";

const run = promisify(execFile);

export interface TestPki {
  caFile: string;
  key: Buffer;
  cert: Buffer;
}

const NEW_EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** `ips`: loopback addresses the server certificate names besides 127.0.0.1 and ::1 (127.0.0.2, … are distinct hosts). */
export async function makeTestPki(opts: { ips?: string[] } = {}): Promise<TestPki> {
  const dir = await tempDir("pki");
  const p = (f: string) => join(dir, f);
  await run("openssl", [
    "req",
    "-x509",
    ...NEW_EC_KEY,
    "-keyout",
    p("ca.key"),
    "-out",
    p("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=Reviews Test CA",
  ]);
  await run("openssl", [
    "req",
    ...NEW_EC_KEY,
    "-keyout",
    p("server.key"),
    "-out",
    p("server.csr"),
    "-subj",
    "/CN=localhost",
  ]);
  await writeFile(
    p("ext.cnf"),
    `subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1${(opts.ips ?? []).map((ip) => `,IP:${ip}`).join("")}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`,
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    p("server.csr"),
    "-CA",
    p("ca.pem"),
    "-CAkey",
    p("ca.key"),
    "-CAcreateserial",
    "-out",
    p("server.pem"),
    "-days",
    "2",
    "-extfile",
    p("ext.cnf"),
  ]);
  return { caFile: p("ca.pem"), key: await readFile(p("server.key")), cert: await readFile(p("server.pem")) };
}
