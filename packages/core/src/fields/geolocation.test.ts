import { describe, expect, it } from 'vitest';
import { geolocationField } from './geolocation';

const s = geolocationField.settingsSchema.parse({});

describe('geolocation field', () => {
  it('accepts {lat,lng}, {latitude,longitude,zoom} and "lat, lng"', () => {
    expect(geolocationField.normalise({ lat: 52.37, lng: 4.89 }, s)).toEqual({
      ok: true,
      value: { lat: 52.37, lng: 4.89 },
    });
    expect(geolocationField.normalise({ latitude: '52.37', longitude: '4.89', zoom: 10 }, s)).toEqual({
      ok: true,
      value: { lat: 52.37, lng: 4.89, zoom: 10 },
    });
    expect(geolocationField.normalise('52.37, 4.89', s)).toEqual({
      ok: true,
      value: { lat: 52.37, lng: 4.89 },
    });
  });

  it('checks ranges', () => {
    expect(geolocationField.normalise({ lat: 91, lng: 0 }, s)).toEqual({
      ok: false,
      message: 'Latitude must be between -90 and 90',
    });
    expect(geolocationField.normalise({ lat: 0, lng: -181 }, s)).toEqual({
      ok: false,
      message: 'Longitude must be between -180 and 180',
    });
    expect(geolocationField.normalise({ lat: 0, lng: 0, zoom: 30 }, s)).toEqual({
      ok: false,
      message: 'Zoom must be a whole number from 0 to 22',
    });
    for (const bad of ['Amsterdam', { lat: 'x', lng: 1 }, [52, 4], { lat: Number.NaN, lng: 1 }])
      expect(geolocationField.normalise(bad, s)).toEqual({ ok: false, message: 'Enter a valid location' });
  });

  it('formats with a dot in every locale', () => {
    expect(geolocationField.format({ lat: 52.3702157, lng: 4.8951679 }, s, 'nl-NL')).toBe(
      '52.370216, 4.895168',
    );
    expect(geolocationField.sortable(s)).toBe(false);
    expect(geolocationField.sqlCast(s)).toBe('jsonb');
  });
});
