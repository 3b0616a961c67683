import type { GeoPoint } from '@dossierbase/core';
import { Anchor } from '@mantine/core';
import { formatFieldValue } from './helpers';
import { NormalisedTextInput } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

function pointToText(value: unknown): string {
  return formatFieldValue('geolocation', value, {});
}

/** Minimal: "lat, lng" typed as text (no map); the registry parses and range-checks it. */
export function GeolocationEditor(props: FieldEditorProps) {
  return (
    <NormalisedTextInput
      props={props}
      type="geolocation"
      toText={pointToText}
      inputProps={{ placeholder: '52.370216, 4.895168' }}
    />
  );
}

/** The coordinates, linking to OpenStreetMap. */
export function GeolocationDisplay({ value }: FieldDisplayProps) {
  const text = pointToText(value);
  if (!text) return null;
  const p = value as GeoPoint;
  return (
    <Anchor
      href={`https://www.openstreetmap.org/?mlat=${p.lat}&mlon=${p.lng}#map=${p.zoom ?? 15}/${p.lat}/${p.lng}`}
      target="_blank"
      rel="noopener noreferrer"
    >
      {text}
    </Anchor>
  );
}
