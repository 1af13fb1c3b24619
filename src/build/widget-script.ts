// The widget's script (src/widget/): bundled and minified by esbuild into one ES module, written at a stable URL
// (WIDGET_SCRIPT_PATH, revalidated like the data files) and as a hashed twin under the immutable prefix, which a
// site may pin. Made from the code only; 20-40 ms, so every build makes it rather than keeping it.

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build, type Plugin, transform } from "esbuild";
import { sha256Hex } from "../domain/hash.ts";
import { IMMUTABLE_PREFIX } from "../domain/static-headers.ts";
import { WIDGET_SCRIPT_PATH } from "../domain/widget/widget-paths.ts";

const ENTRY = fileURLToPath(new URL("../widget/reviews-widget.ts", import.meta.url));
/** Browsers with constructable stylesheets, private class fields and Intl's dateStyle (2021 on). */
const TARGET = ["es2022", "chrome99", "firefox101", "safari16.4"];

/** The stylesheet as a minified string (the script adopts it as a constructable stylesheet). */
const minifiedCss: Plugin = {
  name: "minified-css-text",
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async ({ path }) => {
      const { code } = await transform(await readFile(path, "utf8"), { loader: "css", minify: true, target: TARGET });
      return { contents: code, loader: "text" };
    });
  },
};

async function bundle(root: string): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: "esm",
    minify: true,
    target: TARGET,
    write: false,
    charset: "utf8",
    legalComments: "none",
    plugins: [minifiedCss],
    define: { WIDGET_ROOT: JSON.stringify(root) },
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

/** The script's files by URL path: `/widget.js` and its hashed twin `/_astro/widget.<hash>.js`. */
export async function widgetScripts(): Promise<Map<string, string>> {
  const [stable, twin] = await Promise.all([bundle("./"), bundle("../")]);
  const twinPath = `${IMMUTABLE_PREFIX}widget.${sha256Hex(Buffer.from(twin)).slice(0, 12)}.js`;
  return new Map([
    [WIDGET_SCRIPT_PATH, stable],
    [twinPath, twin],
  ]);
}
