// <reviews-widget>: the business's verified reviews on any website in one tag (docs/widget.md). The build bundles
// this file into {BASE_URL}/widget.js; everything it loads comes from the same service: its data beside it, no
// fonts, no images, no cookies, no storage.
import { PAGE_PATHS } from "../domain/pages/site-paths.ts";
import type { WidgetReviews } from "../domain/widget/widget-schema.ts";
import { OBSERVED, readSettings, type Settings } from "./attributes.ts";
import { loadSlice, UnknownSlice } from "./load-data.ts";
import { aspects, badge, formatsFor, list, loading, unreachable } from "./render.ts";
import css from "./widget.css";

/** Where the service's files start, relative to this script: set by the build (the hashed copy sits a folder down). */
declare const WIDGET_ROOT: string;
const ROOT = new URL(WIDGET_ROOT, import.meta.url);
const REVIEWS_URL = new URL(PAGE_PATHS.reviews.slice(1), ROOT).href;

// One stylesheet object for every widget on the page (constructable: a strict CSP allows it, unlike <style>).
const sheet = new CSSStyleSheet();
sheet.replaceSync(css);
const brandSheets = new Map<string, CSSStyleSheet>();

function brandSheet(color: string): CSSStyleSheet {
  let s = brandSheets.get(color);
  if (!s) {
    s = new CSSStyleSheet();
    // Checked by the build and again here (#rgb or #rrggbb): nothing but a colour reaches the stylesheet.
    if (/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/.test(color)) s.replaceSync(`:host{--rw-brand:${color}}`);
    brandSheets.set(color, s);
  }
  return s;
}

export class ReviewsWidget extends HTMLElement {
  static observedAttributes = OBSERVED;
  readonly #root: ShadowRoot;
  readonly #warned = new Set<string>();
  /** Bumped by every render: a render whose data arrives after a newer one started is dropped. */
  #generation = 0;
  #scheduled = false;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: "open" });
    this.#root.adoptedStyleSheets = [sheet];
  }

  connectedCallback(): void {
    this.#schedule();
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.#schedule();
  }

  /** One render for all the attribute changes of a task (an upgrade reports each attribute), before the next paint. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      void this.#render();
    });
  }

  #warn = (message: string): void => {
    if (this.#warned.has(message)) return;
    this.#warned.add(message);
    console.warn(`<reviews-widget>: ${message}`);
  };

  async #render(): Promise<void> {
    const generation = ++this.#generation;
    const settings: Settings = readSettings(this, this.#warn);
    // The box takes its final size at once; the data only fills it.
    this.#root.replaceChildren(loading(settings));
    const show = (node: HTMLElement) => {
      if (generation === this.#generation) this.#root.replaceChildren(node);
    };
    const withReviews = settings.variant === "list";
    try {
      const data = await loadSlice(ROOT, settings.entity, withReviews).catch((e: unknown) => {
        if (!(e instanceof UnknownSlice) || !settings.entity) throw e;
        this.#warn(`${settings.entity.kind}="${settings.entity.id}" is not in the catalogue; showing every review`);
        return loadSlice(ROOT, undefined, withReviews);
      });
      if (generation !== this.#generation) return;
      const formats = formatsFor(settings.lang);
      this.#root.adoptedStyleSheets = data.business.brand_color
        ? [sheet, brandSheet(data.business.brand_color)]
        : [sheet];
      if (settings.variant === "badge") show(badge(settings, data, formats));
      else if (settings.variant === "aspects") show(aspects(settings, data, formats));
      else show(list(settings, data as WidgetReviews, formats));
    } catch (e) {
      this.#warn(`the reviews could not be loaded (${e instanceof Error ? e.message : String(e)}); showing a link`);
      show(unreachable(settings, REVIEWS_URL));
    }
  }
}

if (!customElements.get("reviews-widget")) customElements.define("reviews-widget", ReviewsWidget);
