// Fetches a slice's file from the service the script came from: no cookies, nothing stored, one request per file
// and page however many widgets show it. The browser's HTTP cache revalidates it by ETag.
import { WIDGET_FORMAT, type WidgetEntity, widgetDataPaths } from "../domain/widget/widget-paths.ts";
import type { WidgetReviews, WidgetSummary } from "../domain/widget/widget-schema.ts";

/** The slice does not exist (an unknown id): the widget falls back to the whole business. */
export class UnknownSlice extends Error {}

const pending = new Map<string, Promise<unknown>>();

function fetchJson(url: URL): Promise<unknown> {
  let request = pending.get(url.href);
  if (!request) {
    request = fetch(url, { credentials: "omit", mode: "cors", referrerPolicy: "no-referrer" }).then(async (res) => {
      if (res.status === 404) throw new UnknownSlice(url.pathname);
      if (!res.ok) throw new Error(`${url.href} answered ${res.status}`);
      const body = (await res.json()) as { format?: unknown };
      if (body.format !== WIDGET_FORMAT) throw new Error(`${url.href} is not in format ${WIDGET_FORMAT}`);
      return body;
    });
    // A failure is not kept: the next widget (or the same one, re-rendered) asks again.
    request.catch(() => pending.delete(url.href));
    pending.set(url.href, request);
  }
  return request;
}

export function loadSlice(
  root: URL,
  entity: { kind: WidgetEntity; id: string } | undefined,
  withReviews: boolean,
): Promise<WidgetSummary | WidgetReviews> {
  const paths = widgetDataPaths(entity);
  // The paths are absolute in the service; `root` is where the service's files start (BASE_URL's path included).
  return fetchJson(new URL((withReviews ? paths.reviews : paths.summary).slice(1), root)) as Promise<
    WidgetSummary | WidgetReviews
  >;
}
