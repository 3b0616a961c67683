import { useLocalStorage } from '@mantine/hooks';

// Blocks the user hid from a view of the dashboard (spec document 1 section 4: hiding removes a block
// locally and it can be restored). Kept in this browser per environment, user and view (mine or the
// default one), by the blocks' uuids.

export function useHiddenBlocks(environment: number, user: number, view: string) {
  const [hidden, setHidden] = useLocalStorage<string[]>({
    key: `dashboard_hidden:${environment}:${user}:${view}`,
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  return {
    hidden: new Set(hidden),
    hide: (uuid: string) => setHidden((current) => (current.includes(uuid) ? current : [...current, uuid])),
    restore: (uuid: string) => setHidden((current) => current.filter((u) => u !== uuid)),
    restoreAll: () => setHidden([]),
  };
}
