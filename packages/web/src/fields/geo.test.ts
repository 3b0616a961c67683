import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TILE_URL,
  isGeoPoint,
  MAP_TILE_URL,
  openStreetMapHref,
  pointFromMap,
  wrapLongitude,
} from './geo';

describe('geolocation helpers', () => {
  it('rounds a map point to six decimals and keeps a valid zoom', () => {
    expect(pointFromMap(52.3702157123, 4.8951679999, 13)).toEqual({
      lat: 52.370216,
      lng: 4.895168,
      zoom: 13,
    });
    expect(pointFromMap(1, 2, 30)).toEqual({ lat: 1, lng: 2 });
  });

  it('wraps longitudes from a map panned around the world', () => {
    expect(wrapLongitude(190)).toBe(-170);
    expect(wrapLongitude(-190)).toBe(170);
    expect(wrapLongitude(4.9)).toBeCloseTo(4.9);
    expect(pointFromMap(52, 364.9).lng).toBeCloseTo(4.9);
  });

  it('recognises stored points', () => {
    expect(isGeoPoint({ lat: 1, lng: 2 })).toBe(true);
    expect(isGeoPoint({ lat: '1', lng: 2 })).toBe(false);
    expect(isGeoPoint(null)).toBe(false);
  });

  it('uses the OpenStreetMap tiles unless the build configures others', () => {
    expect(DEFAULT_TILE_URL).toContain('{z}/{x}/{y}');
    expect(MAP_TILE_URL).toBe(import.meta.env.VITE_MAP_TILE_URL || DEFAULT_TILE_URL);
    expect(openStreetMapHref({ lat: 52.1, lng: 5.2 })).toBe(
      'https://www.openstreetmap.org/?mlat=52.1&mlon=5.2#map=15/52.1/5.2',
    );
  });
});
