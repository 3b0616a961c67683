// Mount point of the favourites side panel (spec doc 1, "Favourites side panel").
// The panel itself arrives with the favourites issue; until then the shell only keeps its open state.
export function FavouritesPanelSlot(_props: { opened: boolean; onClose: () => void }) {
  return null;
}
