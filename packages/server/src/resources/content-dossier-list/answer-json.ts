import type { DisplayItem, DossierListBody } from '@dossierbase/core';

// The list call's answer as JSON text. Its `items` (8.4 of list (a)'s 35.6 KB) are the same array for
// every call of a reader class under one configuration version (presentItems keeps it per version), so
// their JSON is written once per array here instead of on every call: about 0.08 ms of the answer's
// 0.3 ms of JSON.stringify in a request.

const itemsJsonOf = new WeakMap<DisplayItem[], string>();

function itemsJson(items: DisplayItem[]): string {
  let json = itemsJsonOf.get(items);
  if (json === undefined) {
    json = JSON.stringify(items);
    itemsJsonOf.set(items, json);
  }
  return json;
}

/** The answer as JSON.stringify writes it, with the items' JSON kept per items array. */
export function listAnswerJson(body: DossierListBody): string {
  const results = Object.entries(body.results).flatMap(([key, value]) =>
    value === undefined
      ? []
      : [
          `${JSON.stringify(key)}:${key === 'items' ? itemsJson(value as DisplayItem[]) : JSON.stringify(value)}`,
        ],
  );
  return `{"results":{${results.join(',')}},"pager":${JSON.stringify(body.pager)}}`;
}
