// The build script (scripts/build.ts) passes outDir and site; this file holds what never changes.
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "static",
  trailingSlash: "ignore",
  build: { format: "file", inlineStylesheets: "always" },
  devToolbar: { enabled: false },
});
