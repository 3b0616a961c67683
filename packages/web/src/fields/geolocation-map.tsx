import 'leaflet/dist/leaflet.css';
import type { GeoPoint } from '@dossierbase/core';
import L from 'leaflet';
import markerIcon from 'leaflet/dist/images/marker-icon.png';
import markerIcon2x from 'leaflet/dist/images/marker-icon-2x.png';
import markerShadow from 'leaflet/dist/images/marker-shadow.png';
import { useEffect, useMemo } from 'react';
import { AttributionControl, MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { DEFAULT_CENTER, MAP_ATTRIBUTION, MAP_TILE_URL, POINT_ZOOM, pointFromMap } from './geo';

// The bundled marker images (Leaflet's default icon looks for them next to its CSS otherwise).
const markerIconDef = L.icon({
  iconUrl: markerIcon,
  iconRetinaUrl: markerIcon2x,
  shadowUrl: markerShadow,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

/** Keeps the view on the point when it changes from outside (typed coordinates). */
function FollowPoint({ point }: { point: GeoPoint | null }) {
  const map = useMap();
  useEffect(() => {
    if (!point) return;
    if (!map.getBounds().contains([point.lat, point.lng]))
      map.setView([point.lat, point.lng], Math.max(map.getZoom(), point.zoom ?? POINT_ZOOM));
  }, [map, point]);
  return null;
}

/** The point's marker; dragging it (edit mode) moves the point, keeping the map's zoom. */
function PointMarker({ point, onChange }: { point: GeoPoint; onChange?: (p: GeoPoint) => void }) {
  const map = useMap();
  const handlers = useMemo(
    () => ({
      dragend: (e: L.DragEndEvent) => {
        const at = (e.target as L.Marker).getLatLng();
        onChange?.(pointFromMap(at.lat, at.lng, map.getZoom()));
      },
    }),
    [map, onChange],
  );
  return (
    <Marker
      position={[point.lat, point.lng]}
      icon={markerIconDef}
      draggable={!!onChange}
      eventHandlers={handlers}
    />
  );
}

/** Leaflet measures its box once; a map first shown in a hidden tab or a growing layout re-measures. */
function FitContainer() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

/** A click on the map places the marker there (edit mode only). */
function ClickToPlace({ onPick }: { onPick: (p: GeoPoint) => void }) {
  const map = useMapEvents({
    click: (e) => onPick(pointFromMap(e.latlng.lat, e.latlng.lng, map.getZoom())),
  });
  return null;
}

/**
 * A Leaflet map with the point's marker; in edit mode the marker can be dragged and a click places it.
 * Tiles come from MAP_TILE_URL (or tileUrl); without tiles the marker and coordinates still work.
 */
export default function GeolocationMap({
  point,
  onChange,
  height = 250,
  tileUrl = MAP_TILE_URL,
  label,
}: {
  point: GeoPoint | null;
  onChange?: (p: GeoPoint) => void;
  height?: number;
  tileUrl?: string;
  label?: string;
}) {
  const start = point ?? DEFAULT_CENTER;
  const zoom = point ? (point.zoom ?? POINT_ZOOM) : (DEFAULT_CENTER.zoom ?? 7);
  const editable = !!onChange;
  return (
    // isolation keeps Leaflet's own z-indexes (panes 400, controls 1000) under modals and menus
    <section
      data-testid={editable ? 'geolocation-map-edit' : 'geolocation-map'}
      aria-label={label}
      style={{ isolation: 'isolate' }}
    >
      <MapContainer
        center={[start.lat, start.lng]}
        zoom={zoom}
        style={{ height, width: '100%', borderRadius: 4 }}
        scrollWheelZoom={false}
        dragging={editable}
        doubleClickZoom={editable}
        attributionControl={false}
      >
        {/* without Leaflet's own prefix, a link told from the text by colour alone (WCAG 1.4.1) */}
        <AttributionControl prefix={false} />
        <TileLayer url={tileUrl} attribution={MAP_ATTRIBUTION} />
        {point ? <PointMarker point={point} onChange={onChange} /> : null}
        <FollowPoint point={point} />
        <FitContainer />
        {onChange ? <ClickToPlace onPick={onChange} /> : null}
      </MapContainer>
    </section>
  );
}
