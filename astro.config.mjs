// The build script (scripts/build.ts) passes outDir and site; this file holds what never changes.
// Every page is `prerender = false`: Astro only bundles (README "Incremental builds"); the build renders the home and
// 404 pages through the server bundle and writes the data files itself. The other pages are rendered on demand by
// the sidecar (@astrojs/node in middleware mode): the client files stay at the root of DIST_DIR (what the manifest lists and any static server serves) and the server
// bundle goes to DIST_DIR/_server/, which the manifest leaves out so it is never served.
import node from "@astrojs/node";
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "static",
  adapter: node({ mode: "middleware" }),
  session: false,
  trailingSlash: "ignore",
  build: { format: "file", inlineStylesheets: "always", client: "./", server: "./_server/" },
  devToolbar: { enabled: false },
  integrations: [selfContainedServerBundle(), devSiteFiles()],
});

/** `astro dev` serves the data files the build writes itself (src/build/site-files.ts); builds never bundle it. */
function devSiteFiles() {
  return {
    name: "dev-site-files",
    hooks: {
      "astro:config:setup": ({ command, injectRoute }) => {
        if (command === "dev") injectRoute({ pattern: "/[...file]", entrypoint: "./src/dev/site-file.ts" });
      },
    },
  };
}

/** The built server bundle must run from any DIST_DIR, also outside the project: no imports from node_modules.
 * Only for builds: `astro dev` loads dependencies as they are (bundling them there breaks CommonJS ones). */
function selfContainedServerBundle() {
  return {
    name: "self-contained-server-bundle",
    hooks: {
      "astro:config:setup": ({ command, updateConfig }) => {
        if (command !== "build") return;
        updateConfig({
          vite: { ssr: { noExternal: true }, environments: { prerender: { resolve: { noExternal: true } } } },
        });
      },
    },
  };
}
