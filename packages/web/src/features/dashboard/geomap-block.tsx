import 'leaflet/dist/leaflet.css';
import { Anchor, List, ScrollArea } from '@mantine/core';
import L from 'leaflet';
import markerIcon from 'leaflet/dist/images/marker-icon.png';
import markerIcon2x from 'leaflet/dist/images/marker-icon-2x.png';
import markerShadow from 'leaflet/dist/images/marker-shadow.png';
import { useTranslation } from 'react-i18next';
import { AttributionControl, MapContainer, Marker, Popup, TileLayer } from 'react-leaflet';
import { Link } from 'react-router';
import { MAP_ATTRIBUTION, MAP_TILE_URL } from '../../fields/geo';
import type { GeomapAnswer } from './dashboard-api';

// The geomap block: a Leaflet map (centre Amsterdam, zoom 10 unless the server says otherwise) with a
// marker per dossier, and the same dossiers as a list of links for keyboards and screen readers.

const icon = L.icon({
  iconUrl: markerIcon,
  iconRetinaUrl: markerIcon2x,
  shadowUrl: markerShadow,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

export default function GeomapBlock({ answer, height }: { answer: GeomapAnswer; height: number }) {
  const { t } = useTranslation();
  // room under the map for the first few links; the rest scroll
  const listRoom = Math.min(answer.markers.length, 4) * 24 + 8;
  return (
    <div data-testid="block-geomap">
      <section aria-label={t('dashboard.map')} style={{ isolation: 'isolate' }}>
        <MapContainer
          center={[answer.center.lat, answer.center.lng]}
          zoom={answer.zoom}
          style={{ height: Math.max(height - 40 - listRoom, 150), width: '100%', borderRadius: 4 }}
          scrollWheelZoom={false}
          attributionControl={false}
        >
          <AttributionControl prefix={false} />
          <TileLayer url={MAP_TILE_URL} attribution={MAP_ATTRIBUTION} />
          {answer.markers.map((marker) => (
            <Marker key={marker.id} position={[marker.lat, marker.lng]} icon={icon} keyboard={false}>
              <Popup>{marker.summary}</Popup>
            </Marker>
          ))}
        </MapContainer>
      </section>
      <ScrollArea.Autosize mah={listRoom} mt="xs">
        <List size="sm">
          {answer.markers.map((marker) => (
            <List.Item key={marker.id}>
              <Anchor component={Link} to={`/contentdossier/${marker.id}`}>
                {marker.summary || `#${marker.id}`}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
    </div>
  );
}
