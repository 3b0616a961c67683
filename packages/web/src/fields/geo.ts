import type { GeoPoint } from '@dossierbase/core';

// Pure helpers of the geolocation field (no Leaflet here, so pages load the map only when shown).

/** Tiles from VITE_MAP_TILE_URL when the build sets it, else OpenStreetMap's standard tiles. */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const MAP_TILE_URL: string = import.meta.env?.VITE_MAP_TILE_URL || DEFAULT_TILE_URL;
export const MAP_ATTRIBUTION = '&copy; OpenStreetMap contributors';

/** Where an empty map starts: the middle of the Netherlands. */
export const DEFAULT_CENTER: GeoPoint = { lat: 52.1326, lng: 5.2913, zoom: 7 };
/** Zoom for a point stored without one. */
export const POINT_ZOOM = 15;

/** Six decimals (about 10 cm) is all a map pin can mean. */
export function roundCoordinate(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** Leaflet wraps longitudes past ±180 when the map is panned around the world; bring them back. */
export function wrapLongitude(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/** A point from the map (marker dragged or map clicked) as the stored value. */
export function pointFromMap(lat: number, lng: number, zoom?: number): GeoPoint {
  const point: GeoPoint = { lat: roundCoordinate(lat), lng: roundCoordinate(wrapLongitude(lng)) };
  if (zoom !== undefined && Number.isInteger(zoom) && zoom >= 0 && zoom <= 22) point.zoom = zoom;
  return point;
}

export function isGeoPoint(value: unknown): value is GeoPoint {
  const p = value as GeoPoint | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.lat === 'number' &&
    typeof p.lng === 'number' &&
    Number.isFinite(p.lat) &&
    Number.isFinite(p.lng)
  );
}

export function openStreetMapHref(p: GeoPoint): string {
  return `https://www.openstreetmap.org/?mlat=${p.lat}&mlon=${p.lng}#map=${p.zoom ?? POINT_ZOOM}/${p.lat}/${p.lng}`;
}
