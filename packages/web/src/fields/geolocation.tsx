import { GEOLOCATION_MESSAGES, type GeoPoint } from '@dossierbase/core';
import { Anchor, Button, Group, Input, Loader, NumberInput, Stack } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isGeoPoint, openStreetMapHref } from './geo';
import { emitNormalised, formatFieldValue } from './helpers';
import { FieldGroup } from './shared';
import type { FieldDisplayProps, FieldEditorProps } from './types';

// Leaflet and its styles load only when a map is shown.
const GeolocationMap = lazy(() => import('./geolocation-map'));

function pointToText(value: unknown): string {
  return formatFieldValue('geolocation', value, {});
}

function MapFallback({ height }: { height: number }) {
  return (
    <Group h={height} justify="center">
      <Loader size="sm" />
    </Group>
  );
}

type Coordinate = number | string;

/**
 * Latitude and longitude as numbers plus a map whose marker can be dragged (or placed with a click).
 * The registry's normalise checks the ranges; only valid points are emitted.
 */
export function GeolocationEditor(props: FieldEditorProps) {
  const { t } = useTranslation();
  const point = isGeoPoint(props.value) ? props.value : null;
  const [lat, setLat] = useState<Coordinate>(point?.lat ?? '');
  const [lng, setLng] = useState<Coordinate>(point?.lng ?? '');
  const [message, setMessage] = useState<string | null>(null);
  const emitted = useRef<unknown>(props.value);

  useEffect(() => {
    // A new value from outside (reset, the map) shows in the number inputs.
    if (props.value === emitted.current) return;
    emitted.current = props.value;
    const p = isGeoPoint(props.value) ? props.value : null;
    setLat(p?.lat ?? '');
    setLng(p?.lng ?? '');
    setMessage(null);
  }, [props.value]);

  const emit = (raw: unknown) => {
    const onChange = (value: unknown) => {
      emitted.current = value;
      props.onChange(value);
    };
    setMessage(emitNormalised({ ...props, onChange }, 'geolocation', raw));
  };

  const typed = (nextLat: Coordinate, nextLng: Coordinate) => {
    setLat(nextLat);
    setLng(nextLng);
    if (nextLat === '' && nextLng === '') emit(null);
    else if (nextLat !== '' && nextLng !== '')
      emit({ lat: Number(nextLat), lng: Number(nextLng), zoom: point?.zoom });
    else {
      // Half typed: no message yet, but the page must not save the old point meanwhile.
      setMessage(null);
      props.onInvalid?.(GEOLOCATION_MESSAGES.invalid);
    }
  };

  const error = props.error ?? message;
  // what the latitude and longitude inputs share
  const coordinate = {
    size: 'xs',
    decimalScale: 6,
    step: 0.0001,
    hideControls: true,
    disabled: props.disabled,
    error: Boolean(error),
  } as const;
  const fromMap = (p: GeoPoint) => {
    setLat(p.lat);
    setLng(p.lng);
    emit(p);
  };

  return (
    <Input.Wrapper
      label={props.label}
      labelElement="div"
      description={props.description}
      withAsterisk={props.required}
      error={error}
    >
      <FieldGroup invalid={Boolean(error)}>
        <Stack gap="xs">
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <NumberInput
              {...coordinate}
              label={t('fields.geolocation.latitude')}
              value={lat}
              min={-90}
              max={90}
              data-testid="geolocation-lat"
              onChange={(v) => typed(v, lng)}
            />
            <NumberInput
              {...coordinate}
              label={t('fields.geolocation.longitude')}
              value={lng}
              min={-180}
              max={180}
              data-testid="geolocation-lng"
              onChange={(v) => typed(lat, v)}
            />
            {point && !props.disabled ? (
              <Button
                size="xs"
                variant="default"
                data-testid="geolocation-clear"
                onClick={() => typed('', '')}
              >
                {t('fields.geolocation.clear')}
              </Button>
            ) : null}
          </Group>
          <Suspense fallback={<MapFallback height={250} />}>
            <GeolocationMap
              point={point}
              onChange={props.disabled ? undefined : fromMap}
              tileUrl={props.mapTileUrl}
              label={t('fields.geolocation.map_hint')}
            />
          </Suspense>
        </Stack>
      </FieldGroup>
    </Input.Wrapper>
  );
}

/** The coordinates linking to OpenStreetMap, with a small map outside lists. */
export function GeolocationDisplay({ value, listMode, mapTileUrl }: FieldDisplayProps) {
  if (!isGeoPoint(value)) return null;
  const link = (
    <Anchor href={openStreetMapHref(value)} target="_blank" rel="noopener noreferrer">
      {pointToText(value)}
    </Anchor>
  );
  if (listMode) return link;
  return (
    <Stack gap={4}>
      {link}
      <Suspense fallback={<MapFallback height={180} />}>
        <GeolocationMap point={value} height={180} tileUrl={mapTileUrl} />
      </Suspense>
    </Stack>
  );
}
