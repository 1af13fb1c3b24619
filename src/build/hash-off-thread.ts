// sha256 of large buffers without blocking the main thread: WebCrypto's digest runs on libuv's thread pool.
// The same hex digest as sha256Hex (src/domain/hash.ts).
import { webcrypto } from "node:crypto";

export async function sha256HexOffThread(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)).toString("hex");
}
