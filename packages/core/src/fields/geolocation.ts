import { z } from 'zod';
import { OPERATORS_BY_FIELD_TYPE } from './operators';
import { fail, inValues, isEmpty, noDefault, ok, roundTo } from './shared';
import type { FieldType } from './types';

export interface GeoPoint {
  lat: number;
  lng: number;
  zoom?: number;
}

export const GEOLOCATION_MESSAGES = {
  invalid: 'Enter a valid location',
  lat: 'Latitude must be between -90 and 90',
  lng: 'Longitude must be between -180 and 180',
  zoom: 'Zoom must be a whole number from 0 to 22',
} as const;

export const geolocationSettingsSchema = z.object({});
export type GeolocationSettings = z.output<typeof geolocationSettingsSchema>;

const geoPointSchema = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  zoom: z.number().int().min(0).max(22).optional(),
});

function coordinate(v: unknown): number | null {
  const n = typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function pick(obj: object, ...keys: string[]): unknown {
  for (const key of keys) if (Object.hasOwn(obj, key)) return (obj as Record<string, unknown>)[key];
  return undefined;
}

/** {lat, lng[, zoom]}, the spec's {latitude, longitude, zoom}, or the text "52.37, 4.89". */
export const geolocationField: FieldType<typeof geolocationSettingsSchema, GeoPoint> = {
  type: 'geolocation',
  settingsSchema: geolocationSettingsSchema,
  serverComputed: false,
  refersTo: null,
  source: inValues,
  defaultValue: noDefault,
  valueSchema: () => geoPointSchema.nullable(),
  normalise(raw) {
    if (isEmpty(raw)) return ok(null);
    let lat: number | null = null;
    let lng: number | null = null;
    let zoomRaw: unknown;
    if (typeof raw === 'string') {
      const parts = raw.split(',');
      if (parts.length === 2) [lat, lng] = parts.map(coordinate);
    } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      lat = coordinate(pick(raw, 'lat', 'latitude'));
      lng = coordinate(pick(raw, 'lng', 'longitude'));
      zoomRaw = pick(raw, 'zoom');
    }
    if (lat === null || lng === null) return fail(GEOLOCATION_MESSAGES.invalid);
    if (lat < -90 || lat > 90) return fail(GEOLOCATION_MESSAGES.lat);
    if (lng < -180 || lng > 180) return fail(GEOLOCATION_MESSAGES.lng);
    const point: GeoPoint = { lat, lng };
    if (zoomRaw !== undefined && zoomRaw !== null) {
      const zoom = coordinate(zoomRaw);
      if (zoom === null || !Number.isInteger(zoom) || zoom < 0 || zoom > 22)
        return fail(GEOLOCATION_MESSAGES.zoom);
      point.zoom = zoom;
    }
    return ok(point);
  },
  operators: OPERATORS_BY_FIELD_TYPE.geolocation,
  aggregations: ['count'],
  sortable: () => false,
  // Coordinates keep the dot in every locale: a comma would read as the separator.
  format: (value) => (value ? `${roundTo(value.lat, 6)}, ${roundTo(value.lng, 6)}` : ''),
  sqlCast: () => 'jsonb',
};
