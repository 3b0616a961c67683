import { Menu, type MenuItemProps, usePopoverContext } from '@mantine/core';
import type { MouseEvent } from 'react';

type ModalMenuItemProps = MenuItemProps & {
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  'data-testid'?: string;
};

/**
 * A menu item that opens a modal. A modal gives the focus back on close to what had it when it
 * opened, and that would be this item, gone with its menu by then: the focus moves to the menu's
 * button first, so closing the modal lands there.
 */
export function ModalMenuItem({ onClick, ...props }: ModalMenuItemProps) {
  const popover = usePopoverContext();
  return (
    <Menu.Item
      {...props}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        document.getElementById(popover.getTargetId())?.focus();
        onClick(event);
      }}
    />
  );
}
