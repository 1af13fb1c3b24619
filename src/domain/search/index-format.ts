// The search index file: a small JSON header and named typed-array sections, so a sidecar can use the columns
// in place (typed-array views over the file's bytes) without parsing reviews.json into objects.
//
// Layout (little-endian): "RVSI" | u32 version | u32 header length | header JSON (UTF-8) | padding to 8 |
// sections, each starting at a multiple of 8 from the start of the file.

/** Where the build writes the index, relative to DIST_DIR (also its URL path in the manifest). */
export const INDEX_FILE = "search-index.bin";
/** Bumped on every change of the layout or of what a section means (text folding included). */
export const INDEX_VERSION = 6;
const MAGIC = 0x49535652; // "RVSI" read as a little-endian u32

export type SectionArray = Int32Array | Uint32Array | Float64Array | Uint8Array;
type Kind = "i32" | "u32" | "f64" | "u8";
const CTORS = { i32: Int32Array, u32: Uint32Array, f64: Float64Array, u8: Uint8Array } as const;

function kindOf(a: SectionArray): Kind {
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof Float64Array) return "f64";
  return "u8";
}

export interface IndexHeader {
  /** Free-form metadata the reader needs before it touches a section. */
  meta: Record<string, unknown>;
  sections: Record<string, { kind: Kind; offset: number; length: number }>;
}

export class IndexFormatError extends Error {
  constructor(message: string) {
    super(`${INDEX_FILE}: ${message}`);
    this.name = "IndexFormatError";
  }
}

const align8 = (n: number) => (n + 7) & ~7;

export function encodeIndexFile(meta: Record<string, unknown>, sections: Record<string, SectionArray>): Uint8Array {
  const layout: IndexHeader["sections"] = {};
  let headerBytes = Buffer.from(JSON.stringify({ meta, sections: layout }));
  // Section offsets depend on the header's length, which depends on the offsets: iterate until stable.
  for (let round = 0; round < 4; round++) {
    let at = align8(12 + headerBytes.length);
    for (const [name, arr] of Object.entries(sections)) {
      layout[name] = { kind: kindOf(arr), offset: at, length: arr.length };
      at = align8(at + arr.byteLength);
    }
    const next = Buffer.from(JSON.stringify({ meta, sections: layout }));
    if (next.length === headerBytes.length) {
      headerBytes = next;
      break;
    }
    headerBytes = next;
  }
  const last = Object.values(layout).at(-1);
  const total = last
    ? align8(last.offset + last.length * CTORS[last.kind].BYTES_PER_ELEMENT)
    : align8(12 + headerBytes.length);
  if (total > 0xffffffff) throw new IndexFormatError("the index would exceed 4 GiB");
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, INDEX_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  for (const [name, arr] of Object.entries(sections)) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), layout[name].offset);
  }
  return out;
}

/** The format version of an index file from its first 8 bytes, or undefined when it is not one. */
export function indexVersionOf(head: Uint8Array): number | undefined {
  if (head.length < 8) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, 8);
  return view.getUint32(0, true) === MAGIC ? view.getUint32(4, true) : undefined;
}

export interface IndexFile {
  meta: Record<string, unknown>;
  i32(name: string): Int32Array;
  u32(name: string): Uint32Array;
  f64(name: string): Float64Array;
  u8(name: string): Uint8Array;
}

/** Views over `bytes` (no copy when `bytes` starts at an 8-aligned offset of its buffer). */
export function decodeIndexFile(input: Uint8Array): IndexFile {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new IndexFormatError("needs a little-endian CPU");
  const bytes = input.byteOffset % 8 === 0 ? input : new Uint8Array(input);
  if (bytes.length < 12) throw new IndexFormatError("truncated (no header)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new IndexFormatError("not a search index (bad magic number)");
  const version = view.getUint32(4, true);
  if (version !== INDEX_VERSION)
    throw new IndexFormatError(
      `index format version ${version}, but this sidecar reads version ${INDEX_VERSION}: rebuild the site (npm run build) with the same version of the service`,
    );
  const headerLength = view.getUint32(8, true);
  if (12 + headerLength > bytes.length) throw new IndexFormatError("truncated header");
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 12, headerLength).toString("utf8"));
  const { meta, sections } = header as IndexHeader;
  const get = <K extends Kind>(name: string, kind: K): InstanceType<(typeof CTORS)[K]> => {
    const s = sections[name];
    if (!s || s.kind !== kind) throw new IndexFormatError(`missing section ${name} (${kind})`);
    const Ctor = CTORS[kind];
    if (s.offset + s.length * Ctor.BYTES_PER_ELEMENT > bytes.length)
      throw new IndexFormatError(`section ${name} is truncated`);
    return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset + s.offset, s.length) as InstanceType<
      (typeof CTORS)[K]
    >;
  };
  return {
    meta,
    i32: (n) => get(n, "i32"),
    u32: (n) => get(n, "u32"),
    f64: (n) => get(n, "f64"),
    u8: (n) => get(n, "u8"),
  };
}
